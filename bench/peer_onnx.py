#!/usr/bin/env python3
"""The ONNX peers: the GR00T action head of peer_torch.py exported to ONNX and run by OpenVINO or ONNX
Runtime, as a user deploying GR00T on a CPU would run it, timed per full denoise call.

  peer_onnx.py --runtime openvino|onnxruntime [--precision f32|bf16|int8] --checkpoint DIR
               --observation OBS.npz --noise N.npy --embodiment ID [--mask-padding]
               --threads N --runs R --warmup W [--out ACT.npy] [--work DIR]

The graphs are split as NVIDIA's TensorRT deployment of GR00T splits the action head, with the
4-step Euler loop in Python around them: `precompute` (the VL layer norm and self-attention stack,
every cross block's keys and values, the state token; once per call) and `step` (action encoder,
the DiT and action decoder at one timestep: the velocity; once per step). torch.onnx.export traces
PeerActionHead itself in float32 (opset 17), so both peers compute what the PyTorch peer computes;
the step's two time codes are computed in Python per step, as the deployment computes its timestep.

Precision: f32 (both runtimes); bf16 (OpenVINO's INFERENCE_PRECISION_HINT; the report says which
precision the CPU plugin actually ran); int8 (ONNX Runtime's dynamic quantisation of the MatMul
weights, per channel). A runtime without the setting is one error line.

Prints one JSON object: median/min/max ms per denoise over R timed runs after W warm-up runs, runs,
threads, runtime, its version, precision (asked and run), export and compile seconds. --out writes
the last run's actions [H, A] as float32 .npy.
"""
import json
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import groot_torch as gt  # noqa: E402
import peer_torch as pt  # noqa: E402

PROG = "peer_onnx"
OPSET = 17
F32 = torch.float32
PRECISIONS = {"openvino": ("f32", "bf16"), "onnxruntime": ("f32", "int8")}
INSTALL = "./scripts/install-deps.sh peers"


class PrecomputeGraph(torch.nn.Module):
    """features [T, C], state [L*S] (and the VL key bias where the call masks) -> state token, then
    K and V of each cross block."""

    def __init__(self, head, vl_bias):
        super().__init__()
        self.head, self.vl_bias = head, vl_bias

    def forward(self, features, state, *vl_bias):
        vl = self.head.vl_tokens(features, vl_bias[0] if self.vl_bias else None)
        kv = [t for pair in self.head.cross_kv(vl) if pair is not None for t in pair]
        return (self.head.state_token(state), *kv)


class StepGraph(torch.nn.Module):
    """x [H, A], sinusoid, tau, state token, cross K/V pairs, key biases -> velocity [H, A]."""

    def __init__(self, head, cross, biased):
        super().__init__()
        self.head, self.cross, self.biased = head, cross, biased

    def forward(self, x, sinusoid, tau, state_token, *rest):
        rest = list(rest)
        cross_kv = [(rest.pop(0), rest.pop(0)) if c else None for c in self.cross]
        key_biases = [rest.pop(0) if b else None for b in self.biased]
        return self.head.velocity(x, sinusoid, tau, state_token, cross_kv, key_biases)


def export(module, args, names, path):
    """Traces `module` on `args` into path, its weights in path.data beside it (a graph may pass
    protobuf's 2 GB)."""
    import onnx
    from onnx import numpy_helper
    with torch.inference_mode():
        outputs = module(*args)
        n_out = len(outputs) if isinstance(outputs, tuple) else 1
        torch.onnx.export(module, tuple(args), str(path), opset_version=OPSET, do_constant_folding=True,
                          input_names=names, output_names=[f"out{i}" for i in range(n_out)])
    # The tracer writes the weights (tensors the module closes over) as Constant nodes; as initializers
    # the runtimes' weight quantisers see them and the external-data file can hold them.
    model = onnx.load(str(path))
    kept = []
    for node in model.graph.node:
        value = next((a.t for a in node.attribute if a.name == "value"), None) if node.op_type == "Constant" else None
        if value is not None and numpy_helper.to_array(value).size >= 1024:
            value.name = node.output[0]
            model.graph.initializer.append(value)
        else:
            kept.append(node)
    del model.graph.node[:]
    model.graph.node.extend(kept)
    onnx.save(model, str(path), save_as_external_data=True, location=path.name + ".data")


class OpenVinoGraph:
    def __init__(self, path, threads, precision):
        import openvino as ov
        core = ov.Core()
        config = {"INFERENCE_NUM_THREADS": threads, "NUM_STREAMS": 1, "PERFORMANCE_HINT": "LATENCY",
                  "INFERENCE_PRECISION_HINT": precision}
        self.compiled = core.compile_model(str(path), "CPU", config)
        self.request = self.compiled.create_infer_request()
        self.ran = self.compiled.get_property("INFERENCE_PRECISION_HINT").to_string()

    def __call__(self, inputs):
        result = self.request.infer(inputs)
        return [result[out] for out in self.compiled.outputs]


class OnnxRuntimeGraph:
    def __init__(self, path, threads, precision):
        import onnxruntime as ort
        if precision == "int8":
            from onnxruntime.quantization import QuantType, quantize_dynamic
            quantized = path.with_name(path.stem + ".int8.onnx")
            quantize_dynamic(str(path), str(quantized), weight_type=QuantType.QInt8, per_channel=True,
                             op_types_to_quantize=["MatMul", "Gemm"], use_external_data_format=True)
            path = quantized
            import onnx
            ops = [n.op_type for n in onnx.load(str(path), load_external_data=False).graph.node]
            self.quantized = sum(op in ("MatMulInteger", "DynamicQuantizeMatMul", "QGemm") for op in ops)
        options = ort.SessionOptions()
        options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # ONNX Runtime 1.32's SkipLayerNormFusion crashes the session's creation on the step graph (a
        # segmentation fault in the optimiser); every other optimisation runs.
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"],
                                            disabled_optimizers=["SkipLayerNormFusion"])
        self.names = [i.name for i in self.session.get_inputs()]
        self.ran = precision if precision != "int8" else f"int8 ({self.quantized} products quantised)"

    def __call__(self, inputs):
        return self.session.run(None, {name: inputs[name] for name in self.names})


def runtime_graph(runtime, path, threads, precision):
    return (OpenVinoGraph if runtime == "openvino" else OnnxRuntimeGraph)(path, threads, precision)


def runtime_version(runtime):
    try:
        if runtime == "openvino":
            import openvino
            return openvino.__version__.split("-")[0]
        import onnxruntime
        return onnxruntime.__version__
    except ImportError as e:
        raise gt.InputError(f"{runtime} is not installed ({e.name} missing): {INSTALL}") from None


def inputs_of(release, args):
    """The call's inputs as both processes make them: structure, features, state, VL and cross key biases."""
    s = release.structure
    release.check_embodiment(args.embodiment)
    obs = gt.load_observation(args.observation, s)
    vl_bias = pt.key_bias(gt.vl_key_mask(obs, args.mask_padding), F32)
    key_biases = [pt.key_bias(m, F32) for m in gt.cross_key_masks(s, obs, args.mask_padding)]
    features = np.ascontiguousarray(obs.features, dtype=np.float32)
    state = np.ascontiguousarray(obs.state, dtype=np.float32)
    return s, features, state, vl_bias, key_biases


def export_graphs(args):
    """Traces both graphs into args.work. Runs in a process of its own: once torch's exporter has run,
    ONNX Runtime's session creation crashes in the same process (two protobuf runtimes)."""
    torch.set_num_threads(args.threads)
    release = gt.Release(args.checkpoint)
    s, features, state, vl_bias, key_biases = inputs_of(release, args)
    head = pt.PeerActionHead(release.weights(F32, args.embodiment), s, F32)
    head.unit_scale = torch.ones(s.width)  # torch 1.13 writes LayerNormalization without a scale as invalid
    pre_args = [torch.from_numpy(features), torch.from_numpy(state)] + ([vl_bias] if vl_bias is not None else [])
    pre = PrecomputeGraph(head, vl_bias is not None)
    export(pre, pre_args, precompute_names(vl_bias is not None), args.work / "precompute.onnx")
    with torch.inference_mode():
        carried = pre(*pre_args)
    biases = [b for b in key_biases if b is not None]
    step_args = [torch.zeros(s.horizon, s.action_dim), *head.step_codes(0.0), *carried, *biases]
    export(StepGraph(head, [keys != "self" for keys in s.block_keys], [b is not None for b in key_biases]), step_args,
           step_names(len(carried) - 1, len(biases)), args.work / "step.onnx")


def precompute_names(vl_biased):
    return ["features", "state"] + (["vl_bias"] if vl_biased else [])


def step_names(n_kv, n_biases):
    return ["x", "sinusoid", "tau", "state_token"] + [f"kv{i}" for i in range(n_kv)] + [f"bias{i}" for i in range(n_biases)]


class OnnxPeer:
    """The exported head of one embodiment and observation layout, compiled by one runtime, called per
    denoise: the precompute graph once, then the step graph per Euler step."""

    def __init__(self, args, s, vl_bias, key_biases):
        self.s = s
        self.vl_bias = None if vl_bias is None else vl_bias.numpy()
        self.key_biases = [b.numpy() for b in key_biases if b is not None]
        start = time.perf_counter()
        # Graphs another peer of the same bench run exported (same release, embodiment and layout) are
        # used as they are: the export of a full-size head takes minutes.
        key = json.dumps({"checkpoint": str(args.checkpoint.resolve()), "embodiment": args.embodiment,
                          "mask_padding": args.mask_padding, "vl_bias": vl_bias is not None,
                          "key_biases": [b is not None for b in key_biases], "opset": OPSET})
        marker = args.work / "exported.json"
        self.reused = marker.exists() and marker.read_text() == key
        if not self.reused:
            marker.unlink(missing_ok=True)
            exporter = multiprocessing.get_context("spawn").Process(target=export_graphs, args=(args,))
            exporter.start()
            exporter.join()
            if exporter.exitcode != 0:
                raise gt.InputError(f"exporting the graphs to ONNX failed (exit {exporter.exitcode})")
            marker.write_text(key)
        self.export_s = time.perf_counter() - start
        start = time.perf_counter()
        self.pre = runtime_graph(args.runtime, args.work / "precompute.onnx", args.threads, args.precision)
        self.step = runtime_graph(args.runtime, args.work / "step.onnx", args.threads, args.precision)
        self.compile_s = time.perf_counter() - start
        self.codes = [tuple(c.to(F32).numpy() for c in (gt.timestep_sinusoid(t, s.temb_channels), gt.action_tau(t, s.width)))
                      for t in s.step_timesteps()]

    def __call__(self, features, state, noise):
        inputs = {"features": features, "state": state}
        if self.vl_bias is not None:
            inputs["vl_bias"] = self.vl_bias
        carried = self.pre(inputs)  # the state token, then the cross K/V
        fixed = dict(zip(step_names(len(carried) - 1, len(self.key_biases))[3:], [*carried, *self.key_biases]))
        x = noise
        for sinusoid, tau in self.codes:
            v = self.step({"x": x, "sinusoid": sinusoid, "tau": tau, **fixed})[0]
            x = (x + np.float32(self.s.dt) * v).astype(np.float32)
        return x


def main():
    parser = gt.argument_parser(PROG, __doc__.splitlines()[0])
    parser.add_argument("--runtime", required=True, choices=sorted(PRECISIONS))
    parser.add_argument("--precision", default="f32", choices=["f32", "bf16", "int8"])
    pt.add_timing_arguments(parser)
    parser.add_argument("--work", type=Path, help="folder for the exported graphs, reused when they match (default: a "
                        "temporary one)")
    args = parser.parse_args()
    pt.check_timing_arguments(args, parser)
    if args.precision not in PRECISIONS[args.runtime]:
        parser.error(f"--precision {args.precision}: {args.runtime} offers {', '.join(PRECISIONS[args.runtime])}")
    runtime_version(args.runtime)  # a missing runtime is named before minutes of export

    release = gt.Release(args.checkpoint)
    s, features, state, vl_bias, key_biases = inputs_of(release, args)
    noise = gt.load_noise(args.noise, s).astype(np.float32)
    with tempfile.TemporaryDirectory(prefix="ditmk-onnx-") as temp:
        args.work = args.work or Path(temp)
        args.work.mkdir(parents=True, exist_ok=True)
        peer = OnnxPeer(args, s, vl_bias, key_biases)
        times_ms = []
        for run in range(args.warmup + args.runs):
            start = time.perf_counter()
            actions = peer(features, state, noise)
            if run >= args.warmup:
                times_ms.append((time.perf_counter() - start) * 1e3)
    pt.report(args, times_ms, actions, runtime=args.runtime, runtime_version=runtime_version(args.runtime), opset=OPSET,
              precision=args.precision, precision_run=peer.step.ran, export_s=peer.export_s,
              export_reused=peer.reused, compile_s=peer.compile_s)
    return 0


if __name__ == "__main__":
    gt.run_main(PROG, main)
