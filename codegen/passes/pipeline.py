"""Passes: the Pass type, what they leave (Lowered), and running a list.

Two kinds, by what they change:

  stage "ir"  rewrites the rules' IR. The shared ones (offsets, roots,
              widths: codegen/passes/shared.py) fix the bits both targets
              compute, so every target runs them, in that order, whatever
              the spec's `performance.optimize`: the simulator's kernel
              reads the same IR in either mode (it does not know the mode).
  stage "c"   the C target's own: a lowering of the rules the simulator
              never sees (c_positions), a second copy of the step
              (guards), or a layout of the printed loop (pairs_once,
              zones, window sums, mean table, GCC -O1 scheduling). Each
              preserves every bit the step computes; a target lists the
              ones it wants (codegen/targets/pic32/pass_list.py).

A pass's `run` takes a Lowered and returns the next one; what it decided
is recorded there (the ring's layout, the window's group and terms, the
mean table, the zones' choice; `on`: the names of the passes that ran)
before the C emitter prints, and the emitter reads only that: it imports
no pass module but this one. A target's scheduling that rewrites printed
lines (codegen/targets/pic32/ring_sched.py) is recorded as the function
to apply (mirror_sched, hints), so the printer calls what the target
handed it, not a pass.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the stages below: types only, no import at run time
    from codegen.analysis.ranges import Result
    from codegen.analysis.roots_rewrite import Rooted
    from codegen.model.gen_model import GenModel


@dataclass(frozen=True)
class Lowered:
    """What the passes have left so far for one spec.

    source     the model as built (codegen/model/gen_model.py), rules as written
    m          the model whose rules' IR the full (wide) copy prints
    written    `m` before roots: the shared stage's IR with the magnitudes
               as the rules write them (for a target without the roots pass)
    rooted     the IR after offsets and roots, before widths (guards
               narrows it again under a narrower parameter range)
    res        the range analysis of `rooted` (ranges.py)
    found      roots.py's Rooted records (the magnitudes rewritten)
    guard      guards.Guard, and `guarded`, the guarded copy's model
    once       pairs_once ran: the fast copy is to visit each pair once
    refusal    why the rules do not allow it (None: they do; pairs_once.refusal)
    ring       pairs_once's RingPlan: the ring's size and entry layout (None: no ring)
    zones_hilo the seed's zone chain tests through fx_d2_zones (zones.ZonesHiLo)
    zone_apart pairs apart by |dx| or |dy| skip the protected test (zones.ZoneApart)
    window     window_sums' WindowPlan: the group and its terms (None: none)
    mean_entries  mean_table's table length (None: the means divide)
    mirror_sched  a target's scheduling of the mirror's lines (ring_sched), or None
    hints         a target's scheduling hints where the printer places them (gcc_o1_hints), or None
    on         names of the passes that ran, in order
    shared     the model after the last "ir" pass: what the simulator's kernel
               prints (the shared passes' result, whatever the C's list adds)
    """
    source: GenModel
    m: GenModel
    written: GenModel | None = None
    rooted: GenModel | None = None
    res: Result | None = None
    found: tuple[Rooted, ...] = ()
    guard: object = None                  # guards.Guard (the pass modules import this one, not back)
    guarded: GenModel | None = None
    once: bool = False
    refusal: str | None = None
    ring: object = None                   # pairs_once.RingPlan
    zones_hilo: bool = False
    zone_apart: bool = False
    window: object = None                 # window_sums.WindowPlan
    mean_entries: int | None = None
    mirror_sched: Callable | None = None  # a target's own: the printer calls it on the mirror's lines
    hints: object = None                  # a target's own hints object (the PIC32's O1Hints), opaque here
    on: tuple[str, ...] = field(default_factory=tuple)
    shared: GenModel | None = None

    def ran(self, name: str) -> bool:
        return name in self.on

    @property
    def fast_m(self):
        """The model the fast copy prints: the guarded one where there is a guard."""
        return self.guarded if self.guard is not None else self.m


class PassOrderError(ValueError):
    """A pass list that breaks a pass's contract; str() is one line naming the pass and what it needs."""


class Pass:
    """One named optimisation. A subclass's docstring says what it assumes
    and what it preserves; `stage` is "ir" or "c" (see the module's
    docstring); `requires` names the passes whose results it reads, which
    must have run before it (checked at run: PassOrderError); `only_for`
    names the compiler whose scheduling alone it exists for (None: any): a
    board whose record names another compiler refuses it
    (codegen/targets/c/lowering.py)."""
    name = ""
    stage = "c"
    requires: tuple[str, ...] = ()
    only_for: str | None = None

    def apply(self, low: Lowered) -> Lowered:
        """The pass's own change (default: none; the printer reads `on`)."""
        return low

    def run(self, low: Lowered) -> Lowered:
        missing = [r for r in self.requires if not low.ran(r)]
        if missing:
            raise PassOrderError(f"pass {self.name} reads what {', '.join(missing)} leaves, which did not run before "
                                 f"it (ran: {', '.join(low.on) or 'none'})")
        out = self.apply(low)
        return replace(out, on=out.on + (self.name,))

    def __repr__(self) -> str:
        return f"<pass {self.name}>"


def run(m, passes) -> Lowered:
    """The passes run in order over m (a GenModel): every "ir" pass before any "c" pass (the
    simulator's kernel reads the IR the last "ir" pass leaves), each after those it requires."""
    low = Lowered(source=m, m=m, written=m, rooted=m, shared=m)
    c_ran = None
    for p in passes:
        if p.stage == "ir" and c_ran:
            raise PassOrderError(f"pass {p.name} rewrites the shared IR after the C pass {c_ran}: the simulator "
                                 "would not read what the C prints")
        c_ran = c_ran or (p.name if p.stage == "c" else None)
        low = p.run(low)
        if p.stage == "ir":
            low = replace(low, shared=low.m)
    return low


def contract(p: Pass) -> str:
    """A pass's docstring's first paragraph, one line (for `boidsgen check` and docs)."""
    doc = (type(p).__doc__ or "").strip().split("\n\n")[0]
    return " ".join(doc.split())
