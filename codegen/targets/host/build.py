"""Compile generated firmware: the host build with gcc, the PIC32 image with
xc32-gcc when it is on PATH. make itself is run by make_run.py (no project
path ever reaches make or the shell)."""
from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

from codegen.targets.host.make_run import BuildError, make, make_relative  # noqa: F401 - the build's names, used by its callers
from pysim.one_line import one_line

DEMO_TIMEOUT = 120  # seconds for the 300-frame demo run (well under one)


def build_host(spec_path, m, outdir: Path, build: Path, *, gated: bool = False) -> Path:
    """Write m's files into outdir through the pipeline (gate, claim, atomic
    write; only changed files) and compile the host firmware."""
    from codegen.output.pipeline import emit
    from codegen.spec.project import project_root
    from codegen.output.safe_paths import check_folder, prepare_folder

    root = project_root(spec_path)
    check_folder(build, root)  # refused before anything is written
    emit(spec_path, m, outdir, gated=gated)
    if shutil.which("gcc") is None and shutil.which("cc") is None:
        raise BuildError("no C compiler: install gcc (apt-get install gcc)")
    build = prepare_folder(build, root)
    make(outdir / "firmware", "host", build)
    return build / "boids_host"


def build(spec_path: str, verbose: bool = True, run_demo: bool = True, targets: list[str] | None = None) -> int:
    """The host firmware (and its demo run), then each board of targets (None: the spec's board.target)."""
    from codegen.output.pipeline import checked_model
    from codegen.spec.project import build_dir, output_dir

    m = checked_model(spec_path)
    spec = m.spec
    out = output_dir(spec_path, m.name)
    bdir = build_dir(spec_path, m.name)
    if "rp2040" in (targets or m.spec.board.targets):  # its folders refused before anything is written
        from codegen.targets.rp2040.build import check_build

        check_build(spec_path, out, bdir)
    t0 = time.perf_counter()
    exe = build_host(spec_path, m, out, bdir, gated=True)
    dt = time.perf_counter() - t0
    print(f"generated {out} (spec '{m.name}', hash {m.hash})")
    print(f"host firmware: {exe} ({exe.stat().st_size} bytes, built in {dt:.2f} s)")
    if run_demo:
        frames = 300
        shot = bdir / "frame.ppm"
        png = bdir / "frame.png"
        t1 = time.perf_counter()
        try:
            res = subprocess.run([str(exe), "--frames", str(frames), "--screenshot", str(shot), "--png", str(png)],
                                 capture_output=True, text=True, timeout=DEMO_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise BuildError(f"{one_line(exe)} did not finish {frames} frames within {DEMO_TIMEOUT} s") from None
        if res.returncode != 0:
            raise BuildError(f"{one_line(exe)} failed: {res.stderr}")
        run = time.perf_counter() - t1
        print(f"host run: {frames} frames x {spec.flock.size} boids in {run:.3f} s "
              f"({run / frames * 1000:.3f} ms/frame); the TFT's last frame: {png}")
    for target in dict.fromkeys(targets or m.spec.board.targets):
        if target == "pic32":
            build_pic32(spec_path, out, bdir)
        else:
            from codegen.targets.rp2040.build import report

            report(spec_path, m, out, bdir, run_demo=run_demo)
    return 0


def build_pic32(spec_path, out: Path, bdir: Path) -> None:
    """The PIC32 compile check with mipsel gcc, the image with xc32-gcc: each where its compiler is."""
    if shutil.which("mipsel-linux-gnu-gcc"):
        from codegen.targets.pic32.compile_check import Pic32CheckError, check_image

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
