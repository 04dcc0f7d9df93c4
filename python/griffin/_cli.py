"""The `griffin` console command of the environment the package is installed
in: replaces this Python process with the bundled C++ CLI (griffin/bin/griffin),
passing the arguments through, so exit status, output and signals are the CLI's."""
from __future__ import annotations

import os
import sys


def binary_path() -> str:
    """The bundled CLI executable's path."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "griffin")


def main() -> None:
    """Exec the bundled CLI with sys.argv[1:] (never returns on success)."""
    path = binary_path()
    if not os.access(path, os.X_OK):
        sys.stderr.write("griffin: the bundled CLI is missing (%s); reinstall the package\n" % path)
        sys.exit(2)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(path, ["griffin", *sys.argv[1:]])


if __name__ == "__main__":
    main()
