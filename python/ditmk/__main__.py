"""`ditmk` (the console script of the installed package) and `python -m ditmk`: the ditmk command,
the binary the wheel carries in ditmk/bin, run in place of this process (same arguments, output and
exit status). `ditmk ray-serve` is the Python command of ditmk.ray (the head on a Ray cluster behind
`ditmk serve`'s protocol, docs/serve.md)."""
import os
import sys


def main():
    if sys.argv[1:2] == ["ray-serve"]:
        try:
            from .ray import main as ray_serve
        except ImportError as e:
            sys.exit(f"ditmk ray-serve: error: {e} (install the extra: pip install 'ditmk[ray]')")
        ray_serve(sys.argv[2:])
        return
    binary = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "ditmk")
    if not os.access(binary, os.X_OK):
        sys.exit(f"ditmk: error: {binary}: the command is not part of this package (a build tree: run build/release/ditmk)")
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
