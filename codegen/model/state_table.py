"""Every piece of a simulation's state, kind by kind, computed once per spec.

Both sides print the trace from this one description, so a state variable a
rule declares, an obstacle or the target shows in the trace the frame it
differs: the firmware through the table rendered into boids_flock.c
(`boids_state_kinds`, walked by host_main.c), the simulator through
`STATE_KINDS` in the generated model (walked by pysim/trace.py). The PRNG's
state closes every frame (`rng` row), written by the runtime on both sides.
"""
from __future__ import annotations

from dataclasses import dataclass

_MOVER = (("x", "fx"), ("y", "fx"), ("vx", "fx"), ("vy", "fx"))


@dataclass(frozen=True)
class StateKind:
    kind: str  # the trace's kind column
    fields: tuple[tuple[str, str], ...]  # (name, 'fx' | 'int'), all 32-bit in C
    c_count: str | None  # flock_t member holding how many there are (None: exactly one)
    c_array: str | None  # flock_t member: the array of elements (None: fields of flock_t itself)
    c_type: str  # the element's C type
    c_prefix: str = ""  # prefix of the fields' names in C (the target's live in flock_t)

    @property
    def names(self) -> str:
        return ",".join(name for name, _ in self.fields)


def state_kinds(m) -> tuple[StateKind, ...]:
    """The kinds in trace order: boids (with their rules' state), then the
    world's entities as the spec has them."""
    s = m.spec
    kinds = [StateKind("boid", _MOVER + tuple(m.boid_state), "count", "b", "boid_t")]
    if s.predators:
        kinds.append(StateKind("predator", _MOVER, "predator_count", "predator", "mover_t"))
    if s.food:
        kinds.append(StateKind("food", _MOVER, "food_count", "food", "mover_t"))
    if s.obstacles:
        kinds.append(StateKind("obstacle", (("x", "fx"), ("y", "fx"), ("r", "fx")), "obstacle_count", "obstacle",
                               "obstacle_t"))
    if s.target:
        kinds.append(StateKind("target", (("x", "fx"), ("y", "fx"), ("on", "int")), None, None, "flock_t",
                               c_prefix="target_"))
    return tuple(kinds)
