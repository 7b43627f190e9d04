"""Runs the Python form of an example (NAME/program.py) on an emulated device and checks it.

Each program.py builds its io tensors and its ttnn.ProgramDescriptor; this runs them with
ttnn.generic_op, as ttnn runs any program, and compares the outputs with example.py's numpy
reference for the same inputs. It prints one line; the exit status is 0 when everything matches."""
import example
import ditmk.ttnn as ttnn


def run_and_check(name, build, tensor_names, input_shapes, label=None, **build_options):
    """Makes example `name`'s inputs of `input_shapes` ({tensor name: shape}) and runs
    `build(device, **inputs, **build_options)`, which returns (io_tensors, program) with the io
    tensors in the order of `tensor_names` (inputs first, the output last, as generic_op expects)."""
    label = label or name
    device = ttnn.open_device(device_id=0)
    try:
        inputs = example.make_inputs(name, input_shapes)
        io_tensors, program = build(device, **inputs, **build_options)
        ttnn.generic_op(io_tensors, program)
        tensors = {n: {"shape": list(t.shape), "data_format": t.dtype.name.lower()}
                   for n, t in zip(tensor_names, io_tensors)}
        outputs = {n: ttnn.to_numpy(t) for n, t in zip(tensor_names, io_tensors) if n not in inputs}
        results = example.check_outputs(label, name, tensors, inputs, outputs)
    finally:
        ttnn.close_device(device)
    print(f"{label}: ok ({'; '.join(results)})")
    return 0
