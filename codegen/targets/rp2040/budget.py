"""`boidsgen budget SPEC --target rp2040`: the frame's cost measured by
execution in rp2040js, Cortex-M0+ cycles as the emulator counts them (its
timing table; XIP cache misses and bus contention not modelled), at 125 MHz.

The headless image runs `bench FRAMES SEED N` (frames in virtual time, no
trace) once per flock size and seed; the frame marks (BKPT #1..#4 in
flock_draw.h) split each frame into the erase, the update (boids_step) and
the drawing. One core: the second is not emulated (rp2040js)."""
from __future__ import annotations

import statistics
import tempfile
from dataclasses import dataclass
from pathlib import Path

from codegen.targets.host.make_run import BuildError

CLOCK_HZ = 125_000_000


@dataclass(frozen=True)
class Row:
    boids: int
    frames: int  # measured, over all seeds
    update_med: int  # cycles
    update_max: int
    draw_med: int  # erase + draw
    draw_max: int
    total_med: int
    total_max: int


def frame_parts(marks_text: str) -> list[tuple[int, int]]:
    """(update, drawing) cycles of each frame from the runner's marks ("N CYCLE" lines)."""
    out, seen = [], {}
    pairs = [tuple(int(v) for v in ln.split()) for ln in marks_text.splitlines() if ln.strip()]
    for code, cyc in pairs:
        seen[code] = cyc
        if code == 4:
            if set(seen) != {1, 2, 3, 4}:
                raise BuildError(f"frame marks out of order near cycle {cyc}: {sorted(seen)}")
            out.append((seen[3] - seen[2], (seen[2] - seen[1]) + (seen[4] - seen[3])))
            seen = {}
    return out


def measure(spec_path, boids: list[int], frames: int, seeds: list[int], grid: bool = False) -> tuple[object, list[Row]]:
    """The spec built with capacity max(boids) (a variant in build/<name>/variants/), each N run;
    grid: the grid variant (synchronous order + performance.grid), as the PIC32 budget's."""
    from codegen.output.pipeline import checked_model, emit
    from codegen.targets.pic32.budget.measure import render_variant  # the what-if variant, not gated
    from codegen.model.gen_model import build_model
    from codegen.spec.loader import load_spec
    from codegen.spec.project import build_dir, output_dir
    from codegen.spec.variants import spec_variant
    from codegen.targets.rp2040.build import build_rp2040
    from codegen.targets.rp2040.emulator import run_image

    spec, _ = load_spec(spec_path)
    checked_model(spec_path)  # the spec as written passes the range gate; a larger capacity is a what-if
    cap = max(max(boids), spec.flock.capacity)
    if cap == spec.flock.capacity and not grid:  # the spec's own build
        out, bdir = output_dir(spec_path, spec.name), build_dir(spec_path, spec.name)
        m = build_model(spec, spec_path)
        emit(spec_path, m, out, gated=True)
    else:
        out = build_dir(spec_path, spec.name) / "variants" / (f"capacity={cap}" + ("-grid" if grid else ""))
        bdir = out / "build"
        over = dict(order="synchronous", grid=True) if grid else {}
        m = render_variant(spec_variant(spec, capacity=cap, **over), spec_path, out)
    b = build_rp2040(spec_path, m, out, bdir)
    rows = []
    for n in boids:
        parts = []
        for seed in seeds:
            with tempfile.TemporaryDirectory(prefix="boidsgen-budget-") as tmp:
                marks = Path(tmp) / "marks"
                run = run_image(b.headless_elf, f"bench {frames} {seed} {n}\n",
                                max_cycles=10_000_000 + (frames + 1) * max(n, 10) ** 2 * 2_000, marks=marks)
                if run.end != "bkpt":
                    raise BuildError(f"RP2040 budget: {n} boids did not finish {frames} frames (rp2040js)")
                parts += frame_parts(marks.read_text())
        up = [u for u, _ in parts]
        dr = [d for _, d in parts]
        tot = [u + d for u, d in parts]
        rows.append(Row(n, len(parts), int(statistics.median(up)), max(up), int(statistics.median(dr)), max(dr),
                        int(statistics.median(tot)), max(tot)))
    return m, rows


def table(m, rows: list[Row], seeds: list[int]) -> list[str]:
    ms = lambda c: f"{c / CLOCK_HZ * 1000:7.2f}"  # noqa: E731
    budget = CLOCK_HZ // m.spec.frame_rate
    grid = ", grid" if m.spec.performance.grid else ""
    lines = [f"budget: {m.name} on the RP2040 (one Cortex-M0+ core at 125 MHz, cycles counted by rp2040js), "
             f"{m.spec.update_order}{grid}, seeds {', '.join(map(str, seeds))}; ms a frame, median / worst",
             "     N  frames   update med/max    drawing med/max    frame med/max   30 fps in every frame"]
    for r in rows:
        ok = "yes" if r.total_max <= budget else "no"
        lines.append(f"{r.boids:6d} {r.frames:7d}  {ms(r.update_med)} {ms(r.update_max)}  {ms(r.draw_med)} "
                     f"{ms(r.draw_max)}  {ms(r.total_med)} {ms(r.total_max)}   {ok}")
    fit = [r.boids for r in rows if r.total_max <= budget]
    lines.append(f"largest N measured at {m.spec.frame_rate} fps in every frame on one core: "
                 f"{max(fit) if fit else 'none'} (frame budget {budget} cycles; the serial thread's share and "
                 f"the second core are not measured yet)")
    return lines
