"""The Delta kernel shim's archive (rust/delta_kernel_shim, as cmake/DeltaKernelShim.cmake
links it) defines no global symbol but the shim's own C functions: the Rust standard
library, zstd, aws-lc and the rest of the crates it carries stay local, so they cannot
clash with Arrow's or Debian's copies in griffin."""
import pathlib
import subprocess

import pytest

from griffin_cli import binary_path

HEADER = pathlib.Path(__file__).resolve().parents[2] / "rust/delta_kernel_shim/include/delta_kernel_shim.h"


def test_only_the_shims_functions_are_global():
    archive = binary_path().parent / "delta_kernel_shim" / "libgriffin_delta_kernel_shim.a"
    if not archive.exists():
        pytest.fail(f"{archive} not built (cmake --build build)")
    # readelf, not nm: GNU nm's LLVM plugin trips on the Rust objects' embedded bitcode.
    listing = subprocess.run(["readelf", "-sW", str(archive)], capture_output=True, text=True, check=True).stdout
    symbols = [line.split() for line in listing.splitlines() if len(line.split()) == 8]
    defined = sorted({s[7] for s in symbols if s[4] in ("GLOBAL", "WEAK", "UNIQUE") and s[6] != "UND"})
    declared = sorted({word.split("(")[0] for word in HEADER.read_text().split() if word.startswith("griffin_delta_")
                       and "(" in word})
    assert defined == declared
    assert "griffin_delta_open" in defined
    assert any(s[7] == "ZSTD_compress" and s[4] == "LOCAL" for s in symbols)  # carried, but local
