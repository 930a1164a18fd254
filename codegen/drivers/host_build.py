"""Compile generated firmware: the host build with gcc (and its demo run),
then each board's own build as its record names it (codegen/boards/).
make itself is run by make_run.py (no project path ever reaches make or the
shell)."""
from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

from codegen.targets.host.make_run import BuildError, make, make_relative  # noqa: F401 - the build's names, used by its callers
from codegen.boards import registry
from pysim.one_line import one_line

DEMO_TIMEOUT = 120  # seconds for the 300-frame demo run (well under one)


def build_host(spec_path, m, outdir: Path, build: Path, *, gated: bool = False) -> Path:
    """Write m's files into outdir through the pipeline (gate, claim, atomic
    write; only changed files) and compile the host firmware."""
    from codegen.output.pipeline import emit
    from codegen.spec.project import project_root
    from codegen.spec.safe_paths import check_folder, prepare_folder

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
    boards = [registry.target(name) for name in dict.fromkeys(targets or m.spec.board.targets)]
    for board in boards:  # their folders refused before anything is written
        if board.check_folders:
            board.check_folders.load()(spec_path, out, bdir)
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
    for board in boards:
        board.build.load()(spec_path, m, out, bdir, run_demo=run_demo)
    return 0
