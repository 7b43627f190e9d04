"""A client of `ditmk serve` in GR00T's inference wire format (ZeroMQ REQ/REP, one msgpack map per
message, numpy arrays as {"__ndarray_class__": True, "as_npy": np.save bytes}). Self-contained: it
needs only pyzmq, msgpack and numpy (Debian: python3-zmq, python3-msgpack, python3-numpy), so it can
be copied to a machine without ditmk.

    from ditmk.client import PolicyClient
    client = PolicyClient(port=5555)
    actions = client.get_action(backbone_features=features, state=state, embodiment="gr1")   # [1, H, A]
    actions = client.get_action(backbone_features=batch_features, state=batch_state,        # [B, H, A]
                                embodiment_id=[24, 24, 26], seed=0)   # features [B, S, 2048], B > 1
"""
import io

import msgpack
import numpy as np
import zmq


def _encode(value):
    if isinstance(value, (np.ndarray, np.generic)):  # numpy scalars travel as 0-d arrays
        buffer = io.BytesIO()
        np.save(buffer, np.asarray(value), allow_pickle=False)
        return {"__ndarray_class__": True, "as_npy": buffer.getvalue()}
    return value


def _decode(value):
    if isinstance(value, dict) and value.get("__ndarray_class__"):
        return np.load(io.BytesIO(value["as_npy"]), allow_pickle=False)
    return value


class ServerError(RuntimeError):
    """The server's {"error": ...} reply."""


class PolicyClient:
    def __init__(self, host="127.0.0.1", port=5555, api_token=None, timeout_ms=60000):
        self.context = zmq.Context.instance()
        self.address = f"tcp://{host}:{port}"
        self.api_token = api_token
        self.timeout_ms = timeout_ms
        self._connect()

    def _connect(self):
        self.socket = self.context.socket(zmq.REQ)
        self.socket.setsockopt(zmq.RCVTIMEO, self.timeout_ms)
        self.socket.setsockopt(zmq.LINGER, 0)
        self.socket.connect(self.address)

    def call(self, endpoint, data=None, raw=None):
        """One request; returns the reply map (raises ServerError on an error reply). `raw` sends
        those bytes as they are instead (to test a server)."""
        if raw is None:
            request = {"endpoint": endpoint}
            if data is not None:
                request["data"] = data
            if self.api_token is not None:
                request["api_token"] = self.api_token
            raw = msgpack.packb(request, default=_encode)
        try:
            self.socket.send(raw)
            reply = msgpack.unpackb(self.socket.recv(), object_hook=_decode)
        except zmq.Again:  # a REQ socket that missed its reply cannot send again: start afresh
            self.socket.close()
            self._connect()
            raise TimeoutError(f"{self.address}: no reply within {self.timeout_ms} ms") from None
        if isinstance(reply, dict) and "error" in reply:
            raise ServerError(reply["error"])
        return reply

    def ping(self):
        return self.call("ping")

    def get_info(self):
        return self.call("get_info")

    def get_action(self, backbone_features, backbone_attention_mask=None, image_mask=None, state=None,
                   embodiment=None, embodiment_id=None, noise=None, seed=None, action=None, options=None):
        """features [S, 2048] or [1, S, 2048]; masks [S]; state; embodiment tag or embodiment_id;
        noise [H, A] or seed; N1.7's real-time chunking: action [H_prev, A] (the previous chunk) and
        options {action_horizon, rtc_overlap_steps, rtc_frozen_steps, rtc_ramp_rate}.
        Returns action_pred [1, H, A] float32.
        A batch: features [B, S, 2048] with B > 1, every other array with the same leading B (masks
        [B, S], state [B, ...], noise [B, H, A], action [B, H_prev, A]); embodiment_id an int or B of
        them, embodiment a tag or B tags; a seed draws sample i's noise from seed + i. Returns
        action_pred [B, H, A], each sample's actions those of its own request."""
        data = dict(options or {})
        data["backbone_features"] = backbone_features
        for name, value in (("backbone_attention_mask", backbone_attention_mask), ("image_mask", image_mask),
                            ("state", state), ("embodiment", embodiment), ("embodiment_id", embodiment_id),
                            ("noise", noise), ("seed", seed), ("action", action)):
            if value is not None:
                data[name] = value
        return self.call("get_action", data)["action_pred"]

    def kill(self):
        return self.call("kill")
