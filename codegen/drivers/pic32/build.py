"""The PIC32's part of `boidsgen build` (codegen/boards/registry.py names it)."""
from __future__ import annotations

import shutil
from pathlib import Path

from codegen.targets.host.make_run import BuildError, make


def report(spec_path, m, out: Path, bdir: Path, run_demo: bool = True) -> None:
    """`boidsgen build`'s PIC32 part (its record's `build`): the compile check with mipsel gcc, the image
    with xc32-gcc, each where its compiler is (no demo run: the host build's is the PIC32 firmware's)."""
    if shutil.which("mipsel-linux-gnu-gcc"):
        from codegen.drivers.pic32.compile_check import Pic32CheckError, check_image

        try:
            r = check_image(spec_path)
        except Pic32CheckError as e:
            raise BuildError(str(e)) from None
        print(f"PIC32 compile check (mipsel-linux-gnu-gcc -march=m4k): flash {r['flash']} of {r['flash_max']} B, "
              f"RAM {r['ram']} of {r['ram_max']} B at {r['capacity']} boids")
    else:  # every step says what became of it (issue 33: this line once just vanished)
        print("PIC32 compile check: skipped (mipsel-linux-gnu-gcc is not on PATH; tools/setup.sh installs "
              "gcc-mipsel-linux-gnu)")
    if shutil.which("xc32-gcc"):
        make(out / "firmware", "pic32", bdir)
        print(f"PIC32 image: {bdir / 'boids.hex'}")
    else:
        print("PIC32 image: skipped (xc32-gcc is not on PATH; install MPLAB XC32 to build the .hex)")
