"""The `griffin` console command of the environment the package is installed
in: replaces this Python process with the bundled C++ CLI (griffin/bin/griffin),
passing the arguments through, so exit status, output and signals are the CLI's."""
from __future__ import annotations

import os
import sys


def binary_path() -> str:
    """The bundled CLI executable's path."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "griffin")


def pyarrow_dir() -> "str | None":
    """The installed pyarrow package's directory (its libarrow*.so), found
    without importing it (an import costs the CLI's start a tenth of a second)."""
    import importlib.util
    spec = importlib.util.find_spec("pyarrow")
    locations = list(spec.submodule_search_locations or []) if spec else []
    return locations[0] if locations else None


def main() -> None:
    """Exec the bundled CLI with sys.argv[1:] (never returns on success).
    The CLI's RPATH finds pyarrow's libraries beside the package; when pyarrow
    is installed in another site directory (a --user install beside a
    system pyarrow), its directory on LD_LIBRARY_PATH finds them (an RPATH
    still comes first)."""
    path = binary_path()
    if not os.access(path, os.X_OK):
        sys.stderr.write("griffin: the bundled CLI is missing (%s); reinstall the package\n" % path)
        sys.exit(2)
    arrow = pyarrow_dir()
    if arrow:
        os.environ["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (os.environ.get("LD_LIBRARY_PATH"), arrow) if p)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(path, ["griffin", *sys.argv[1:]])


if __name__ == "__main__":
    main()
