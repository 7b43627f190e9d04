#!/usr/bin/env python3
"""The resident action head from Python, side by side with `ditmk bench` in one run.

  PYTHONPATH=build/release/python /usr/bin/python3 bench/python_resident.py [--version n15] [--dtype bf16]
      [--threads 2] [--calls 10] [--ditmk build/release/ditmk]

Measures on the built-in full-size model (generated on first use): the open time (map + pack), the
first call and the median of --calls further get_action calls; `ditmk bench`'s median per denoise on
the same model, observation, threads and weight format, right after; and two heads of one thread each
called at once from two Python threads against one such call alone (the GIL is released during a
call). Prints one JSON object.
"""
import argparse
import json
import statistics
import subprocess
import threading
import time

import ditmk


def timed(fn):
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default="n15")
    parser.add_argument("--dtype", default="bf16")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--ditmk", default="build/release/ditmk")
    args = parser.parse_args()

    opened = time.perf_counter()
    head = ditmk.ActionHead(version=args.version, dtype=args.dtype, threads=args.threads)
    open_ms = (time.perf_counter() - opened) * 1e3
    obs = head.synthetic_observation(0)  # the one `ditmk bench` uses
    first_ms = timed(lambda: head.get_action(**obs))
    calls_ms = [timed(lambda: head.get_action(**obs)) for _ in range(args.calls)]
    del head

    bench = json.loads(subprocess.run(
        [args.ditmk, "bench", "--version", args.version, "--dtype", args.dtype, "--threads", str(args.threads),
         "--runs", str(args.calls), "--json"], check=True, capture_output=True, text=True).stdout)
    bench_ms = bench["median_ms_per_denoise"]

    heads = [ditmk.ActionHead(version=args.version, dtype=args.dtype, threads=1) for _ in range(2)]
    for h in heads:
        h.get_action(**obs)
    alone_ms = statistics.median(timed(lambda: heads[0].get_action(**obs)) for _ in range(3))

    def together():
        workers = [threading.Thread(target=h.get_action, kwargs=obs) for h in heads]
        for w in workers:
            w.start()
        for w in workers:
            w.join()

    together_ms = statistics.median(timed(together) for _ in range(3))
    median_ms = statistics.median(calls_ms)
    print(json.dumps({
        "version": args.version, "dtype": args.dtype, "threads": args.threads,
        "open_ms": open_ms, "first_call_ms": first_ms, "median_call_ms": median_ms, "calls_ms": calls_ms,
        "bench_median_ms_per_denoise": bench_ms, "python_over_bench": median_ms / bench_ms,
        "first_over_median": first_ms / median_ms,
        "one_thread_call_alone_ms": alone_ms, "two_heads_two_threads_ms": together_ms,
        "two_threads_over_alone": together_ms / alone_ms,
    }, indent=1))


if __name__ == "__main__":
    main()
