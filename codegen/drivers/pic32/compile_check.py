"""The PIC32 compile/link check without XC32 or a board: render a spec,
build the whole board firmware (PIC32 layer included) with
mipsel-linux-gnu-gcc -march=m4k through the generated Makefile's `m4k-check`
target, and report flash and RAM use against the PIC32MX250F128B's
128 KB / 32 KB.

    python3 -m codegen.drivers.pic32.compile_check [SPEC ...]
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from codegen.boards.registry import PIC32
from codegen.targets.host.make_run import BuildError, make

FLASH_MAX = PIC32.flash_bytes
RAM_MAX = PIC32.ram_bytes
MIPS_CC = "mipsel-linux-gnu-gcc"
MIPS_SIZE = "mipsel-linux-gnu-size"


class Pic32CheckError(RuntimeError):
    """The firmware did not compile or link for the m4k, or does not fit."""


def parse_size(text: str) -> dict:
    """Berkeley output of `size`: a header line, then text data bss dec hex name."""
    lines = [ln.split() for ln in text.strip().splitlines()]
    if len(lines) < 2 or lines[0][:3] != ["text", "data", "bss"]:
        raise Pic32CheckError(f"unexpected {MIPS_SIZE} output:\n{text}")
    text_b, data_b, bss_b = (int(v) for v in lines[1][:3])
    return {"text": text_b, "data": data_b, "bss": bss_b}


def check_image(spec_path: str, build_dir: str | Path | None = None) -> dict:
    """Build the m4k image of spec_path; return its sizes, raise Pic32CheckError
    if it does not build or exceeds the part. flash = text + data (initialised
    data is stored in flash); ram = data + bss (bss includes the 1 KB stack
    the linker script reserves)."""
    for tool in (MIPS_CC, MIPS_SIZE, "make"):
        if shutil.which(tool) is None:
            raise Pic32CheckError(f"{tool} is not installed (apt-get install gcc-mipsel-linux-gnu make)")
    from codegen.output.pipeline import checked_model, emit

    m = checked_model(spec_path)
    spec = m.spec
    with tempfile.TemporaryDirectory(prefix="boids-m4k-") as tmp:
        out = Path(tmp) / m.name
        emit(spec_path, m, out, gated=True)
        bdir = Path(build_dir) if build_dir else Path(tmp) / "build"
        bdir.mkdir(parents=True, exist_ok=True)
        try:  # make_run: no folder name reaches make or the shell (issue 32)
            res = make(out / "firmware", "m4k-check", bdir, check=False)
        except BuildError as e:
            raise Pic32CheckError(f"{spec_path}: {e}") from None
        elf = bdir / "m4k" / "boids_m4k.elf"
        if not elf.exists():
            log = res.stdout + res.stderr
            if "overflowed" in log:  # the linker script's 128 KB / 32 KB regions
                raise Pic32CheckError(f"{spec_path}: does not fit a PIC32MX250F128B at capacity "
                                      f"{spec.flock.capacity} (flash {FLASH_MAX} B, RAM {RAM_MAX} B):\n{log}")
            raise Pic32CheckError(f"{spec_path}: m4k build failed:\n{log}")
        sz = subprocess.run([MIPS_SIZE, str(elf)], capture_output=True, text=True, check=True,
                            timeout=60).stdout
    r = parse_size(sz)
    r.update(spec=str(spec_path), name=m.name, capacity=spec.flock.capacity,
             flash=r["text"] + r["data"], ram=r["data"] + r["bss"], flash_max=FLASH_MAX, ram_max=RAM_MAX)
    if r["flash"] > FLASH_MAX or r["ram"] > RAM_MAX or res.returncode != 0:
        raise Pic32CheckError(f"{spec_path}: does not fit a PIC32MX250F128B: flash {r['flash']} / {FLASH_MAX} B, "
                              f"RAM {r['ram']} / {RAM_MAX} B at capacity {r['capacity']}\n{res.stdout}{res.stderr}")
    return r


SIZE_HEADER = ("| spec | capacity | text | data | bss | flash (text+data) of 131072 B | RAM (data+bss) of 32768 B |\n"
               "| --- | --- | --- | --- | --- | --- | --- |")


def size_row(r: dict) -> str:
    """One spec's row of docs/flashing.md's size table (test_pic32_build keeps it current)."""
    return (f"| {r['spec']} | {r['capacity']} | {r['text']} | {r['data']} | {r['bss']} | "
            f"{r['flash']} ({100 * r['flash'] / r['flash_max']:.1f} %) | {r['ram']} ({100 * r['ram'] / r['ram_max']:.1f} %) |")


def main(argv: list[str] | None = None) -> int:
    specs = (argv if argv is not None else sys.argv[1:]) or ["spec/boids.yaml"]
    status = 0
    for s in specs:
        try:
            r = check_image(s)
        except Pic32CheckError as e:
            print(f"FAIL {e}", file=sys.stderr)
            status = 1
            continue
        print(f"{s}: flash {r['flash']} / {r['flash_max']} B ({100 * r['flash'] / r['flash_max']:.1f} %), "
              f"RAM {r['ram']} / {r['ram_max']} B ({100 * r['ram'] / r['ram_max']:.1f} %) "
              f"[text {r['text']} data {r['data']} bss {r['bss']}] at capacity {r['capacity']}")
    return status


if __name__ == "__main__":
    sys.exit(main())
