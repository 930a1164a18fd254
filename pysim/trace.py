"""The trace format shared by the host firmware and the simulator.

    # boidsgen trace 1
    # spec: NAME / spec_hash / format / arith / seed / update / boids
    # param: NAME=VALUE            (raw integers in fixed, %.17g in float)
    frame,index,kind,x,y,vx,vy     one row per boid per frame, frame 0 = spawn
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

import numpy as np

FIELDS = ("frame", "index", "kind", "x", "y", "vx", "vy")


def header(sim) -> str:
    m, A = sim.model, sim.A
    lines = [
        "# boidsgen trace 1",
        f"# spec: {m.SPEC_NAME}",
        f"# spec_hash: {m.SPEC_HASH}",
        f"# format: {m.FORMAT}",
        f"# arith: {A.name}",
        f"# seed: {sim.seed}",
        f"# update: {sim.order}",
        f"# boids: {sim.count}",
    ]
    P = sim.params.for_arith(A)
    for p in m.PARAMS:
        v = getattr(P, p.name)
        lines.append(f"# param: {p.name}={A.fmt(v) if p.type == 'fixed' else int(v)}")
    lines.append(",".join(FIELDS))
    return "\n".join(lines) + "\n"


def rows(sim) -> str:
    """One frame's rows: boids, then predators and food (as the firmware writes them)."""
    A, f = sim.A, sim.frame
    W = sim.W
    groups = [("boid", (sim.x, sim.y, sim.vx, sim.vy)), ("predator", (W.px, W.py, W.pvx, W.pvy)),
              ("food", (W.fx, W.fy, W.fvx, W.fvy))]
    out = []
    for kind, cols in groups:
        n = len(cols[0])
        if not n:
            continue
        if A.name == "fixed":  # one % over the frame's integers: the same text as one f-string per row
            flat = np.empty((n, 5), dtype=np.int64)
            flat[:, 0] = np.arange(n)
            for k, c in enumerate(cols, start=1):
                flat[:, k] = c
            out.append((f"{f},%d,{kind},%d,%d,%d,%d\n" * n) % tuple(flat.ravel().tolist()))
        else:
            fmt = A.fmt
            out.extend(f"{f},{i},{kind},{fmt(x)},{fmt(y)},{fmt(vx)},{fmt(vy)}\n"
                       for i, (x, y, vx, vy) in enumerate(zip(*cols)))
    return "".join(out)


def write_run(sim, frames: int, out: TextIO) -> None:
    out.write(header(sim))
    sim.run(frames, on_frame=lambda s: out.write(rows(s)))


@dataclass
class Difference:
    line: int
    what: str

    def __str__(self) -> str:
        return self.what


def compare(a_lines: list[str], b_lines: list[str], a_name: str = "firmware", b_name: str = "simulator") -> Difference | None:
    """First difference between two traces, described by frame, boid and field."""
    for ln, (la, lb) in enumerate(zip(a_lines, b_lines), start=1):
        if la == lb:
            continue
        if la.startswith("#") or lb.startswith("#") or la.startswith("frame"):
            return Difference(ln, f"header line {ln} differs:\n  {a_name}: {la.rstrip()}\n  {b_name}: {lb.rstrip()}")
        fa, fb = la.rstrip().split(","), lb.rstrip().split(",")
        for name, va, vb in zip(FIELDS, fa, fb):
            if va != vb:
                return Difference(
                    ln, f"frame {fa[0]}, boid {fa[1]} ({fa[2]}), field {name}: {a_name} {va}, {b_name} {vb}"
                )
        return Difference(ln, f"line {ln} differs")
    if len(a_lines) != len(b_lines):
        return Difference(min(len(a_lines), len(b_lines)) + 1,
                          f"{a_name} has {len(a_lines)} lines, {b_name} has {len(b_lines)}")
    return None
