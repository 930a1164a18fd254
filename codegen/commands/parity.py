"""Run the host firmware and the Python simulator on the same spec, seed and
parameters, and compare their traces bit for bit."""
from __future__ import annotations

import io
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from codegen.boards import registry
from codegen.drivers.host_build import BuildError, build_host
from codegen.model.gen_model import build_model
from codegen.spec.variants import spec_variant
from codegen.output.render import load_generated_model
from codegen.spec.project import build_dir, output_dir
from codegen.output.pipeline import load
from codegen.commands.numbers import boids_within


FIRMWARE_TIMEOUT = 600  # seconds: far above any trace run (2000 frames take well under one)


@dataclass
class ParityResult:
    ok: bool
    summary: str
    c_seconds: float = 0.0
    py_seconds: float = 0.0


def variant(spec, order: str | None, fmt: str | None):
    """(spec, tag): the spec with a structural override (update order, Q
    format) and a folder tag naming it, or the spec itself and ''."""
    order = order if order and order != spec.update_order else None
    fmt = fmt if fmt and fmt != spec.fixed_point.format else None
    tag = "-".join(f"{k}={v}" for k, v in (("update_order", order), ("fixed_point", fmt)) if v)
    return spec_variant(spec, order=order, fmt=fmt), tag


def prepare(spec_path: str, order: str | None = None, fmt: str | None = None, target: str | None = None,
            boids: int | None = None):
    """Generate and compile what a parity run needs; returns (model, firmware, model module): the host
    exe, or the program the target's record names as its parity image (the RP2040's headless image, run
    in rp2040js; the host build on two threads)."""
    m = load(spec_path)
    boids_within(boids, m.spec.flock.capacity)  # before anything is built
    spec, tag = variant(m.spec, order, fmt)
    if tag:
        m = build_model(spec, spec_path, m.locator)
    bdir = build_dir(spec_path, spec.name)
    if tag:
        out = bdir / "variants" / tag
        bdir = out / "build"
    else:
        out = output_dir(spec_path, spec.name)
    t = registry.target(target or registry.HOST.name)
    if t.check_folders:  # its folders refused before anything is written (its build checks them too)
        t.check_folders.load()(spec_path, out, bdir)
    exe = build_host(spec_path, m, out, bdir)
    if t.image:
        exe = t.image.load()(spec_path, m, out, bdir)
    return m, exe, load_generated_model(spec_path, m, out)


THREADS_FLAGS = "-O2 -DBOIDS_SPLIT_THREADS=1 -pthread"  # split.h: the update's second part on a thread


def threads_image(spec_path, m, out: Path, bdir: Path) -> Path:
    """host-threads' parity image (its record's `image`): the host firmware with the split update's two
    parts on two threads (split.h), in bdir/threads/."""
    from codegen.spec.safe_paths import prepare_folder
    from codegen.spec.project import project_root
    from codegen.targets.host.make_run import make

    if '#include "split.h"' not in (out / "firmware" / "boids_flock.c").read_text():
        raise BuildError("--target host-threads: this spec's update is not split in two (only a spec whose "
                         "board.target names the RP2040, in synchronous order with performance.grid, is)")
    build = prepare_folder(bdir / "threads", project_root(spec_path))
    make(out / "firmware", "host", build, [f"HOST_CFLAGS={THREADS_FLAGS}"])
    return build / "boids_host"


def firmware_trace(exe: Path, frames: int, seed: int, boids: int | None, sets, _flock_size: int | None = None) -> str:
    """The host build's trace (the host targets' `trace`; the flock size is the program's own)."""
    cmd = [str(exe), "--frames", str(frames), "--seed", str(seed), "--trace", "-"]
    if boids is not None:
        cmd += ["--boids", str(boids)]
    for k, v in sets:
        cmd += ["--set", f"{k}={v}"]
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=FIRMWARE_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise BuildError(f"host firmware did not finish {frames} frames within {FIRMWARE_TIMEOUT} s: "
                         f"{' '.join(cmd)}") from None
    if res.returncode != 0:
        raise BuildError(f"host firmware failed ({res.returncode}): {res.stderr.strip()}")
    return res.stdout


def simulator_trace(model, frames: int, seed: int, boids: int | None, sets, arith: str = "fixed") -> str:
    from pysim import trace
    from pysim.engine import Simulation

    sim = Simulation(model, arith, seed=seed, boids=boids)
    for k, v in sets:
        sim.params.set(k, v)
    sim.reset(seed, boids)
    buf = io.StringIO()
    trace.write_run(sim, frames, buf)
    return buf.getvalue()


def run_parity(spec_path: str, frames: int, seed: int | None = None, boids: int | None = None,
               sets=(), order: str | None = None, fmt: str | None = None,
               target: str | None = None) -> ParityResult:
    """target None or 'host': the host build; any target whose record has a `trace`
    (boidsgen parity --help lists them)."""
    from pysim.trace import compare

    m, exe, model = prepare(spec_path, order, fmt, target, boids)
    seed = m.spec.seed if seed is None else seed
    n = m.spec.flock.size if boids is None else boids
    t = registry.target(target or registry.HOST.name)
    t0 = time.perf_counter()
    c = t.trace.load()(exe, frames, seed, boids, sets, m.spec.flock.size)
    t1 = time.perf_counter()
    p = simulator_trace(model, frames, seed, boids, sets)
    t2 = time.perf_counter()
    board = t.ran_where
    where = f"{m.name}, {m.spec.update_order}, {m.spec.fixed_point.format}, seed {seed}{board}"
    diff = compare(c.splitlines(), p.splitlines())
    times = f"firmware {t1 - t0:.2f} s, simulator {t2 - t1:.2f} s"
    if diff is None:
        return ParityResult(True, f"parity: {frames} frames x {n} boids bit-exact ({where}; {times})", t1 - t0, t2 - t1)
    return ParityResult(False, f"parity: FAILED ({where}): {diff}", t1 - t0, t2 - t1)
