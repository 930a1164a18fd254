"""What `boidsgen budget` says about the adaptive spawn, and the cost table
the host's modelled M4K clock runs on.

The adaptive spawn (firmware_runtime/core/adaptive_spawn.c) adds boids while a
window of frames fits ASPAWN_BUDGET_PM per mille of the frame period (the
rest is for the serial and timing threads): the flock it holds is the
largest N whose frame fits that share, not the whole period. The share is
read from adaptive_spawn.h, its one definition.

The cost table (`boidsgen budget --cost-table FILE`) is the budget's frame
time at every N from 1 to the capacity of one variant's build (its spec hash
and capacity): frame_ms_at, the one definition of how the budget reads
between its measured N (linear between them, past the last along the last
segment, below the first in proportion to N), which largest_n inverts.
`boids_host --m4k-cost FILE` only looks the time up and lets each frame
take that long in virtual time, so the firmware's own adaptive spawn
settles where the board's would (tests/test_adaptive_spawn_host.py).

    # comments (the measured N are marked "measured")
    spec_hash e99a285657ec0917
    capacity 240
    1 231005            <- N, frame time in ns; N = 1 .. capacity, in order
    ...
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from codegen.spec.runtime_files import TOOL_RUNTIME as RUNTIME_DIR

ASPAWN_H = RUNTIME_DIR / "core" / "adaptive_spawn.h"


def frame_ms_at(pts: list, n: int) -> float:
    """The frame time at N from the measured [(N, ms)] (sorted, two or more):
    linear between the two measured N around it; past the last along the
    last segment; below the first in proportion to N (the first segment
    would reach 0 ms at some N > 0)."""
    if n < pts[0][0]:
        return pts[0][1] * n / pts[0][0]
    i = 1
    while i < len(pts) - 1 and n > pts[i][0]:
        i += 1
    (n0, t0), (n1, t1) = pts[i - 1], pts[i]
    return max(0.0, t0 + (n - n0) * (t1 - t0) / (n1 - n0))


def largest_n(pts: list, period: float) -> str:
    """Largest N whose frame time (frame_ms_at) fits the period, between
    the first and the last measured N; or which side of them it lies."""
    if not pts:
        return "?"
    if pts[0][1] > period:
        return f"< {pts[0][0]}"
    if pts[-1][1] <= period:
        return f">= {pts[-1][0]} (all measured N fit)"
    return f"~{max(n for n in range(pts[0][0], pts[-1][0] + 1) if frame_ms_at(pts, n) <= period)}"


def aspawn_budget_pm() -> int:
    """ASPAWN_BUDGET_PM from adaptive_spawn.h: the per mille of the period the
    adaptive spawn lets a frame take."""
    m = re.search(r"^#define ASPAWN_BUDGET_PM (\d+)\b", ASPAWN_H.read_text(), re.M)
    if not m:
        raise RuntimeError(f"{ASPAWN_H}: no #define ASPAWN_BUDGET_PM")
    return int(m.group(1))


def aspawn_budget_ms(fps: int) -> float:
    """The frame time the adaptive spawn allows, in ms: the firmware's period
    (1000000u / BOIDS_FRAME_RATE us, integer) x ASPAWN_BUDGET_PM / 1000."""
    return (1_000_000 // fps) * aspawn_budget_pm() / 1000 / 1000


def holds_line(fits, fps: int, how: str) -> str:
    """'adaptive spawn holds ~N (...)': fits(period_ms) is the variant's
    largest_n at a period."""
    pm = aspawn_budget_pm()
    return f"adaptive spawn holds {fits(aspawn_budget_ms(fps))} ({how}; frames within {pm / 10:g} % of the period)"


@dataclass
class VariantBuild:
    """What a cost table must match: the measured variant's build."""
    spec_hash: str
    capacity: int


def cost_table_text(spec_name: str, variant: str, build: VariantBuild, how: str, pts: list, fps: int) -> str:
    """pts: [(N, frame ms)] as the budget counts the frame, two or more;
    the table holds frame_ms_at every N from 1 to the capacity."""
    if len(pts) < 2:
        raise ValueError("a cost table needs the frame time at two flock sizes or more (--boids N N ...)")
    measured = {n for n, _ in pts}
    out = ["# boidsgen cost table: the PIC32 frame time per flock size, modelled by `boidsgen budget`",
           f"# spec '{spec_name}', variant {variant}, capacity {build.capacity}; frame = {how}",
           f"# for boids_host --m4k-cost, built from this variant (same spec_hash); {fps} fps, the adaptive "
           f"spawn's share {aspawn_budget_pm()} per mille",
           f"spec_hash {build.spec_hash}",
           f"capacity {build.capacity}",
           "# N frame_ns"]
    pts = sorted(pts)
    out += [f"{n} {round(frame_ms_at(pts, n) * 1e6)}" + (" # measured" if n in measured else "")
            for n in range(1, build.capacity + 1)]
    return "\n".join(out) + "\n"


def write_cost_table(path: str | Path, *args) -> Path:
    path = Path(path)
    path.write_text(cost_table_text(*args))
    return path


def read_cost_table(path: str | Path) -> tuple[dict, list, list]:
    """({'spec_hash':, 'capacity':}, [(N, frame ms)], [measured N])."""
    meta, pts, measured = {}, [], []
    for line in Path(path).read_text().splitlines():
        line, _, note = line.partition("#")
        if not line.strip():
            continue
        k, v = line.split()
        if note.strip() == "measured":
            measured.append(int(k))
        if k in ("spec_hash", "capacity"):
            meta[k] = v if k == "spec_hash" else int(v)
        else:
            pts.append((int(k), int(v) / 1e6))
    return meta, pts, measured
