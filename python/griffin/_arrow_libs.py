"""The pyarrow libraries the extension links (libarrow, libparquet,
libarrow_s3 .so.<version>), found wherever pyarrow is installed.

The extension's RPATH finds them beside the package (site-packages/griffin
-> site-packages/pyarrow), where pip puts them. Installed apart (pip install
--user or --target beside a system pyarrow, a PYTHONPATH of several
directories), the loader would miss them: `import pyarrow` loads libarrow but
not libarrow_s3 or libparquet. Then they are loaded here first, from
pyarrow's directory, so the extension's import finds them by soname."""
from __future__ import annotations

import glob
import os

# The libraries griffin/_griffin*.so needs (readelf -d: NEEDED), in load order.
_NEEDED = ("libarrow", "libparquet", "libarrow_s3")


def load_pyarrow_libraries() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    if os.path.isdir(os.path.join(os.path.dirname(here), "pyarrow")):
        return   # beside the package: the RPATH finds them
    import ctypes

    import pyarrow
    for directory in pyarrow.get_library_dirs():
        for stem in _NEEDED:
            for path in sorted(glob.glob(os.path.join(directory, stem + ".so.[0-9]*"))):
                if path.count(".so.") == 1 and path.rsplit(".so.", 1)[1].isdigit():   # the soname, libarrow.so.2600
                    ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
