"""`boidsgen budget SPEC --target rp2040`: the frame's cost measured by
execution in rp2040js, Cortex-M0+ cycles as the emulator counts them (its
timing table; XIP cache misses and bus contention not modelled), at 125 MHz.

The headless image runs `bench FRAMES SEED N` (frames in virtual time, no
trace) once per flock size and seed; the frame marks (BKPT #1..#4 in
flock_draw.h) split each frame into the erase, the update (boids_step) and
the drawing; a split update (split.h) marks its two parts too (BKPT #5..#7).
The serial thread's share is the cycles the PC spends in its functions
(SERIAL_FUNCS; the thread's own loop is inlined into boids_app_run) over
the run, a frame's worth: its polling once a ms, with no input.

One core is emulated (rp2040js). The two-core frame is computed, not
emulated: the one-core update less its two parts plus the longer part
(core 1 runs the other meanwhile) plus HANDOFF for the FIFO's hand-over.
Beside it, the lower bound on the update (bound.py), from the pairs in
range of the same frames in the simulator."""
from __future__ import annotations

import statistics
import tempfile
from dataclasses import dataclass
from pathlib import Path

from codegen.boards.registry import RP2040
from codegen.targets.host.make_run import BuildError

CLOCK_HZ = RP2040.clock_hz
HANDOFF = 200  # cycles allowed a frame for the hand-over to core 1 and back (two FIFO words, a wake from WFE)
SERIAL_FUNCS = ("plat_serial_getc", "serial_cmd_feed", "serial_cmd_tick")  # the serial thread itself: inlined


@dataclass(frozen=True)
class Frame:
    update: int  # cycles, one core
    draw: int  # erase + draw
    parts: tuple[int, int] | None  # the split update's two parts, if split

    @property
    def update_two(self) -> int:
        """The update with part 1 on core 1 (computed)."""
        if self.parts is None:
            return self.update
        p0, p1 = self.parts
        return self.update - p0 - p1 + max(p0, p1) + HANDOFF


@dataclass(frozen=True)
class Row:
    boids: int
    frames: int  # measured, over all seeds
    update_med: int  # cycles
    update_max: int
    draw_med: int  # erase + draw
    draw_max: int
    serial: int  # the serial thread's cycles a frame (mean)
    total_med: int  # update + drawing + serial, one core
    total_max: int
    two_med: int | None  # the same with the split's part 1 on core 1 (computed); None: not split
    two_max: int | None


def frame_parts(marks_text: str) -> list[Frame]:
    """Each frame's parts from the runner's marks ("N CYCLE" lines)."""
    out, seen = [], {}
    pairs = [tuple(int(v) for v in ln.split()) for ln in marks_text.splitlines() if ln.strip()]
    for code, cyc in pairs:
        seen[code] = cyc
        if code == 4:
            if not {1, 2, 3, 4} <= set(seen) or not set(seen) <= set(range(1, 8)):
                raise BuildError(f"frame marks out of order near cycle {cyc}: {sorted(seen)}")
            split = {5, 6, 7} <= set(seen)
            parts = (seen[6] - seen[5], seen[7] - seen[6]) if split else None
            out.append(Frame(seen[3] - seen[2], (seen[2] - seen[1]) + (seen[4] - seen[3]), parts))
            seen = {}
    return out


def _ranges(elf: Path) -> tuple[tuple[str, int, int], ...]:
    from codegen.targets.rp2040.emulator import symbols

    syms = symbols(elf)
    missing = [n for n in SERIAL_FUNCS if n not in syms]
    if missing:
        raise BuildError(f"{elf}: no {', '.join(missing)} to time the serial thread by")
    return tuple((n, syms[n][0], syms[n][0] + syms[n][1]) for n in SERIAL_FUNCS)


def build_for(spec_path, boids: list[int], grid: bool):
    """(model, the RP2040 build, the generated folder) of the spec with capacity max(boids) (a variant in
    build/<name>/variants/); grid: the grid variant (synchronous order + performance.grid), as the PIC32 budget's."""
    from codegen.output.pipeline import checked_model, emit
    from codegen.drivers.pic32.budget.measure import render_variant  # the what-if variant, not gated
    from codegen.model.gen_model import build_model
    from codegen.model.spec_load import load_spec
    from codegen.spec.project import build_dir, output_dir
    from codegen.spec.variants import spec_variant
    from codegen.targets.rp2040.build import build_rp2040, check_build

    spec, _ = load_spec(spec_path)
    checked_model(spec_path)  # the spec as written passes the range gate; a larger capacity is a what-if
    cap = max(max(boids), spec.flock.capacity)
    own = cap == spec.flock.capacity and not grid  # the spec's own build, else a variant
    if own:
        out, bdir = output_dir(spec_path, spec.name), build_dir(spec_path, spec.name)
    else:
        out = build_dir(spec_path, spec.name) / "variants" / (f"capacity={cap}" + ("-grid" if grid else ""))
        bdir = out / "build"
    check_build(spec_path, out, bdir)  # before anything is written (build_rp2040 checks it too)
    if own:
        m = build_model(spec, spec_path)
        emit(spec_path, m, out, gated=True)
    else:
        over = dict(order="synchronous", grid=True) if grid else {}
        m = render_variant(spec_variant(spec, capacity=cap, **over), spec_path, out)
    return m, build_rp2040(spec_path, m, out, bdir), out


def measure(spec_path, boids: list[int], frames: int, seeds: list[int], grid: bool = False, bound: bool = False):
    """(model, the build, a Row per N, and with `bound` the lower bound's lines: bound.py)."""
    from codegen.targets.rp2040.emulator import run_image

    m, b, out = build_for(spec_path, boids, grid)
    ranges = _ranges(b.headless_elf)
    rows, measured = [], {}
    for n in boids:
        parts, serial = [], 0
        for seed in seeds:
            with tempfile.TemporaryDirectory(prefix="boidsgen-budget-") as tmp:
                marks = Path(tmp) / "marks"
                run = run_image(b.headless_elf, f"bench {frames} {seed} {n}\n",
                                max_cycles=10_000_000 + (frames + 1) * max(n, 10) ** 2 * 2_000, marks=marks,
                                pc_counts=ranges)
                if run.end != "bkpt":
                    raise BuildError(f"RP2040 budget: {n} boids did not finish {frames} frames (rp2040js)")
                got = frame_parts(marks.read_text())
                parts += got
                serial += sum(run.pc.get(name, 0) for name in SERIAL_FUNCS)
        if not parts:
            raise BuildError(f"RP2040 budget: no frame marks at {n} boids")
        measured[n] = parts
        share = serial // len(parts)
        up, dr = [f.update for f in parts], [f.draw for f in parts]
        tot = [f.update + f.draw + share for f in parts]
        split = all(f.parts is not None for f in parts)
        two = [f.update_two + f.draw + share for f in parts] if split else None
        rows.append(Row(n, len(parts), int(statistics.median(up)), max(up), int(statistics.median(dr)), max(dr),
                        share, int(statistics.median(tot)), max(tot),
                        int(statistics.median(two)) if two else None, max(two) if two else None))
    return m, b, rows, (bound_table(spec_path, m, out, rows, measured, frames, seeds) if bound else [])


def bound_table(spec_path, m, out: Path, rows: list[Row], measured: dict, frames: int, seeds: list[int]) -> list[str]:
    """The lower bound's lines (bound.py) for the measured rows: pairs counted on the simulator's frames."""
    from codegen.output.render import load_generated_model
    from codegen.targets.rp2040 import bound

    model = load_generated_model(spec_path, m, out)
    visits = 1 if m.spec.update_order == "synchronous" else 2  # sequential: no pair is visited once for both
    got = [bound.bound_of(r.boids, [p for s in seeds for p in bound.frame_pairs(model, m, r.boids, frames, s)],
                          measured[r.boids], visits) for r in rows]
    rest = {r.boids: r.draw_max + r.serial for r in rows}
    return bound.bound_lines(got, CLOCK_HZ // m.spec.frame_rate, rest, visits)


def table(m, rows: list[Row], seeds: list[int]) -> list[str]:
    ms = lambda c: f"{c / CLOCK_HZ * 1000:6.2f}"  # noqa: E731
    budget = CLOCK_HZ // m.spec.frame_rate
    grid = ", grid" if m.spec.performance.grid else ""
    fps = m.spec.frame_rate
    split = all(r.two_med is not None for r in rows)
    lines = [f"budget: {m.name} on the RP2040 (Cortex-M0+ at 125 MHz, cycles counted by rp2040js), "
             f"{m.spec.update_order}{grid}, seeds {', '.join(map(str, seeds))}; ms a frame, median / worst",
             "     N  frames  update med/max  drawing med/max  serial (cycles)  frame med/max  "
             f"{fps} fps  2 cores (computed) med/max  {fps} fps"]
    for r in rows:
        ok = "yes" if r.total_max <= budget else "no "
        two = (f"{ms(r.two_med)} {ms(r.two_max)}  {'yes' if r.two_max <= budget else 'no'}" if r.two_med is not None
               else "    -      -    -")
        lines.append(f"{r.boids:6d} {r.frames:7d}  {ms(r.update_med)} {ms(r.update_max)}   {ms(r.draw_med)} "
                     f"{ms(r.draw_max)}  {r.serial:15,d}  {ms(r.total_med)} {ms(r.total_max)}   {ok}   "
                     f"               {two}")
    fit = [r.boids for r in rows if r.total_max <= budget]
    lines.append(f"largest N measured at {fps} fps in every frame on one core: {max(fit) if fit else 'none'} "
                 f"(frame budget {budget:,} cycles; a frame: update + drawing + the serial thread's share)")
    if split:
        fit2 = [r.boids for r in rows if r.two_max <= budget]
        lines.append(f"largest N at {fps} fps in every frame with both cores, computed (core 1 not emulated): "
                     f"{max(fit2) if fit2 else 'none'} (each frame's update less its two parts plus the longer "
                     f"part plus {HANDOFF} cycles for the FIFO's hand-over)")
    else:
        lines.append("both cores: this update is not split (sequential order, or no grid): core 0 alone "
                     "(split.h; --variant grid is split)")
    lines.append(f"serial: the serial thread's share a frame ({', '.join(SERIAL_FUNCS)}; polled once a ms, no "
                 "input: a command's own cost comes on top)")
    return lines
