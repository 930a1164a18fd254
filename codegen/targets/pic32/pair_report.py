"""`boidsgen check`'s lines on the pair loop's shape in the PIC32 target's
C: each pair once or why not, the ring, the zones' tests, the window's
group. It reads the fast copy as printed (codegen/targets/c/emit.py's
FlockC, which holds what the passes recorded on Lowered: `fast.plan`)."""
from __future__ import annotations

from codegen.passes.pairs_once import refusal


def report(fast, guard=None) -> list:
    """The lines for the fast copy's FlockC (`guard`: guards.py's, when that
    copy is the guarded one)."""
    if not fast.has_pairs:
        return []
    why = refusal(fast.m)  # asked in either mode: plain says why fast could not either
    if why:
        return [f"pair loop: every pair from both sides (each pair once: not for {why}; codegen/passes/pairs_once.py)"]
    if not fast.once:
        return ["pair loop: every pair from both sides (performance.optimize: plain: none of the target's passes; "
                "codegen/targets/pic32/pass_list.py)"]
    out = [f"pair loop: each pair once, the other boid's sums through a ring of {fast.ring} entries of "
           f"{fast.plan.ring.entry_bytes} B (codegen/passes/pairs_once.py)"
           + (f"; in the guarded copy ({guard.param} <= its bound)" if guard else "")
           + (("; a boid that needs more is flagged and visits back the boids that did not add into its entry"
               if fast.flagged_copy else "; a frame whose flock needs more runs the full loop") if fast.refuses else "")]
    if not fast.grid:
        return out
    if fast.apart:
        out.append(f"  pairs apart by x (the own band) or y (the band below) at least "
                   f"{fast.zone_range['protected']} skip the protected zone's test (codegen/passes/zones.py)")
    elif {"protected", "visual"} <= set(fast.zone_range):
        out.append(f"  every pair takes the protected zone's test: {fast.zone_range['protected']}'s range "
                   f"reaches below 0 (codegen/passes/zones.py)")
    g = fast.window
    if g is None:
        out.append("  the own band pair by pair: no zone group's each only adds the other boid's fields to "
                   "32-bit sums (codegen/passes/window_sums.py)")
        return out
    sums = [f"{fast.rules[p].name}.{s}" for p, s, *_ in fast.plan.window.terms]
    sums += [f"its count {g.count}"] if g.count else []
    out.append(f"  the own band by its window's sums: the {g.name} zone's {', '.join(sums)}; a pair of the "
               f"band touches them only when out of the zone, to take its terms back (codegen/passes/window_sums.py)")
    return out
