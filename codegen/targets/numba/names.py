"""How the simulator kernel spells the IR's names (codegen/targets/numba/kernel.py).

Everything a rule defines gets its rule's prefix, so two rules' locals or
sums never meet in the fused pair loop; everything else is a fixed name of
the generated code:

  p_<param>          a parameter's value, read from PF (fixed) / PI (int) once per frame
  s_<state>          a boid's state while it is updated; a_<state> the array
  r<k>_<sum>         rule k's neighbour sum (64-bit, exact), r<k>_count its count
                     over predators, obstacles or food
  r<k><b>_<local>    rule k's local of block b (b: before, each, apply)
  n_protected n_visual n_g<g>   the boid zones' counts
  bx by bvx bvy      the boid (position at the frame's start, velocity as it changes)
  dx dy d2 dist      the pair (self - other)
  ox oy ovx ovy [s]  the other boids (slot s); px.. fdx.. obx.. [q] the other entities
  o_<state>[order[s]]  a neighbour's state (a_<state>, or its copy at the frame's start)
  tx ty ton          the target; i the boid's index
"""
from __future__ import annotations

from pathlib import Path

from codegen.lang.ir import Ref, Type

ROOT = Path(__file__).resolve().parents[3]

SELF = {"x": "bx", "y": "by", "vx": "bvx", "vy": "bvy"}
PAIR = {"dx": "dx", "dy": "dy", "d2": "d2", "dist": "dist"}
OTHER = {
    "boids": {"x": "ox[s]", "y": "oy[s]", "vx": "ovx[s]", "vy": "ovy[s]"},
    "flock": {"x": "x[q]", "y": "y[q]", "vx": "vx[q]", "vy": "vy[q]"},  # the boids, from a predator's rule
    "predators": {"x": "px[q]", "y": "py[q]", "vx": "pvx[q]", "vy": "pvy[q]"},
    "food": {"x": "fdx[q]", "y": "fdy[q]", "vx": "fdvx[q]", "vy": "fdvy[q]"},
    "obstacles": {"x": "obx[q]", "y": "oby[q]", "r": "obr[q]"},
}
# the entity arrays of each kind, as the kernel's parameters name them
ENTITY = {"predators": ("px", "py"), "food": ("fdx", "fdy"), "obstacles": ("obx", "oby")}
BLOCK_LETTER = {"before": "b", "each": "e", "apply": "a", "init": "i"}


def screen(arith: str) -> dict:
    fl = arith == "float"
    return {"width": "W_FL" if fl else "W_FX", "height": "H_FL" if fl else "H_FX"}


def world(spec) -> dict:
    """Section fields -> kernel text (target: run-time state; ledge, scouts: parameters)."""
    out = {"target.x": "tx", "target.y": "ty", "target.on": "(ton != 0)"}
    if spec.ledge:
        out.update({f"ledge.{f}": f"p_{getattr(spec.ledge, f)}" for f in ("y", "left", "right")})
    if spec.scouts:
        out.update({f"scouts.{f}": f"p_{getattr(spec.scouts, f)}" for f in ("group1", "group2")})
    return out


def source_path(path: str, spec_source: str, spec_path: str | None = None) -> str:
    """A rule's file as the generated code names it: relative to the project
    for the library, the spec's own name for rules defined in the spec."""
    p = Path(path)
    try:
        return p.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return spec_source


class Names:
    """Ref -> text for one rule's block. `refs`: role -> parameter name;
    `count`: the text of the rule's neighbour count; `self_names` replaces
    SELF (the predators borrow rules with their own variables)."""

    def __init__(self, index: int, refs: dict, role_types: dict, arith: str, spec, *, count: str = "",
                 kind: str | None = None, self_names: dict | None = None, prefix: str | None = None,
                 state_prefix: str = "s_") -> None:
        self.prefix = f"r{index}" if prefix is None else prefix
        self.refs, self.role_types, self.count, self.kind = refs, role_types, count, kind
        self.self_names = self_names or SELF
        self.screen, self.world = screen(arith), world(spec)
        self.block = "apply"
        self.state_prefix = state_prefix  # s_<state> a boid's; ps_, fs_ a predator's, a food source's

    def __call__(self, r: Ref) -> str:
        k = r.kind
        if k == "role":
            p = f"p_{self.refs[r.name]}"
            return f"({p} != 0)" if self.role_types.get(r.name) == Type.BOOL else p
        if k == "param":
            return f"p_{r.name}"
        if k == "state":
            return f"{self.state_prefix}{r.name}"
        if k == "local":
            return f"{self.prefix}{BLOCK_LETTER[self.block]}_{r.name}"
        if k == "sum":
            return f"{self.prefix}_{r.name}"
        if k == "count":
            return self.count
        if k == "self":
            return self.self_names[r.name]
        if k == "index":
            return "i"
        if k == "screen":
            return self.screen[r.name]
        if k == "pair":
            return PAIR[r.name]
        if k == "other":
            if self.kind == "boids" and r.name not in OTHER["boids"]:  # a neighbour's state: its boid, order[s]
                return f"o_{r.name}[order[s]]"
            return OTHER[self.kind][r.name]
        if k == "world":
            return self.world[r.name]
        if k == "draw":  # the boid's draws of the frame, drawn at its turn (kernel.py)
            return f"{self.prefix}_d{r.name}"
        raise KeyError(f"unknown ref kind {k}")
