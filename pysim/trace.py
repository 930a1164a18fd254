"""The trace format shared by the host firmware and the simulator.

    # boidsgen trace 2
    # spec: NAME / spec_hash / format / arith / seed / update / boids
    # param: NAME=VALUE            (raw integers in fixed, %.17g in float)
    # kind: KIND FIELD,FIELD,...   (the model's STATE_KINDS, then rng)
    frame,index,kind,values        a row per element of every kind per frame,
                                   frame 0 = spawn; the frame's last row is
                                   the PRNG's state

Every kind of state the spec declares is a row (boids with their rules'
state, predators, food, obstacles, the target), so a difference shows at the
frame it happens, named by kind, index and field.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

import numpy as np


def header(sim) -> str:
    m, A = sim.model, sim.A
    lines = [
        "# boidsgen trace 2",
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
    lines += [f"# kind: {kind} {','.join(f for f, _ in fields)}" for kind, fields in m.STATE_KINDS]
    lines += ["# kind: rng state", "frame,index,kind,values"]
    return "\n".join(lines) + "\n"


def rows(sim) -> str:
    """One frame's rows, kind by kind as the firmware writes them."""
    A, f = sim.A, sim.frame
    out = []
    for kind, fields in sim.model.STATE_KINDS:
        cols = sim.state_columns(kind, [name for name, _ in fields])
        n = len(cols[0])
        if not n:
            continue
        if A.name == "fixed":  # one % over the frame's integers: the same text as one f-string per row
            flat = np.empty((n, len(cols) + 1), dtype=np.int64)
            flat[:, 0] = np.arange(n)
            for k, c in enumerate(cols, start=1):
                flat[:, k] = c
            row = f"{f},%d,{kind}" + ",%d" * len(cols) + "\n"
            out.append((row * n) % tuple(flat.ravel().tolist()))
        else:
            fmts = [A.fmt if t == "fx" else (lambda v: str(int(v))) for _, t in fields]
            out.extend(f"{f},{i},{kind}," + ",".join(fm(c[i]) for fm, c in zip(fmts, cols)) + "\n"
                       for i in range(n))
    out.append(f"{f},0,rng,{sim.rng.s}\n")
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
    """First difference between two traces, described by frame, kind, index
    and field (the field names from the `# kind:` header lines)."""
    fields = {"rng": ["state"]}
    for ln, (la, lb) in enumerate(zip(a_lines, b_lines), start=1):
        if la.startswith("# kind: "):
            kind, _, names = la[8:].rstrip().partition(" ")
            fields[kind] = names.split(",")
        if la == lb:
            continue
        if la.startswith("#") or lb.startswith("#") or la.startswith("frame"):
            return Difference(ln, f"header line {ln} differs:\n  {a_name}: {la.rstrip()}\n  {b_name}: {lb.rstrip()}")
        fa, fb = la.rstrip().split(","), lb.rstrip().split(",")
        if fa[:3] != fb[:3]:
            return Difference(ln, f"frame {fa[0]}: {a_name} has {fa[2]} {fa[1]} where {b_name} has {fb[2]} {fb[1]}"
                                  f" (line {ln})")
        names = fields.get(fa[2], [])
        for k, (va, vb) in enumerate(zip(fa[3:], fb[3:])):
            if va != vb:
                name = names[k] if k < len(names) else f"value {k + 1}"
                return Difference(ln, f"frame {fa[0]}, {fa[2]} {fa[1]}, field {name}: {a_name} {va}, {b_name} {vb}")
        return Difference(ln, f"line {ln} differs")
    if len(a_lines) != len(b_lines):
        return Difference(min(len(a_lines), len(b_lines)) + 1,
                          f"{a_name} has {len(a_lines)} lines, {b_name} has {len(b_lines)}")
    return None
