"""`ditmk` (the console script of the installed package) and `python -m ditmk`: the ditmk command,
the binary the wheel carries in ditmk/bin, run in place of this process (same arguments, output and
exit status)."""
import os
import sys


def main():
    binary = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "ditmk")
    if not os.access(binary, os.X_OK):
        sys.exit(f"ditmk: error: {binary}: the command is not part of this package (a build tree: run build/release/ditmk)")
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
