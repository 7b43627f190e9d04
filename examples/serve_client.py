#!/usr/bin/env python3
"""Talks to `ditmk serve` in GR00T's inference wire format: ping, the server's facts, one action chunk.

    ditmk serve --version n15 &                       # or --checkpoint RELEASE_DIR
    PYTHONPATH=build/release/python /usr/bin/python3 examples/serve_client.py --port 5555

The client (python/ditmk/client.py) needs only pyzmq, msgpack and numpy.
"""
import argparse

import numpy as np

from ditmk.client import PolicyClient


def main():
    parser = argparse.ArgumentParser(description="ping a ditmk server, print its facts and one action chunk")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=5555)
    parser.add_argument("--api-token")
    args = parser.parse_args()
    client = PolicyClient(args.host, args.port, args.api_token)
    print(client.ping())
    info = client.get_info()
    print({k: info[k] for k in ("version", "horizon", "action_dim", "state_dim", "backend", "dtype")})
    rng = np.random.default_rng(0)
    features = rng.standard_normal((64, info["context_dim"]), dtype=np.float32)
    image_mask = np.zeros(64, bool)
    image_mask[8:40] = info["version"] != "n15"
    state = np.zeros((info["state_history"], info["state_dim"]), np.float32)
    actions = client.get_action(features, image_mask=image_mask, state=state, seed=0)
    print("action_pred", actions.shape, actions.dtype)


if __name__ == "__main__":
    main()
