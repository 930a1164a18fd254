"""The predators' and the food's rules' state in the simulator (twin of the
firmware's flock_t arrays `predator_st_<name>`, `food_st_<name>`): one array
per name in the world (W.pstate, W.fstate), resized with the movers (the
newest dropped first, new ones at their initial value as the spawn sets it:
the kernel's init_pstate_* / init_fstate_*), and passed to the step
functions after the boids' state, predators first (codegen/targets/numba/world.py)."""
from __future__ import annotations

import numpy as np

# mover kind -> (the world's arrays of position it follows, W's dict, the kernel's table, its init function)
KINDS = {"predators": ("px", "pstate", "PREDATOR_STATE", "init_pstate"),
         "food": ("fx", "fstate", "FOOD_STATE", "init_fstate")}


def table(kernel, kind: str) -> tuple:
    return getattr(kernel, KINDS[kind][2], ())


def empty(sim) -> dict:
    """W's state dicts at reset: every array empty."""
    return {KINDS[kind][1]: {name: np.zeros(0, dtype=_dtype(sim, t)) for name, t in table(sim.kernel, kind)}
            for kind in KINDS}


def _dtype(sim, t: str):
    return np.int64 if t == "int" else sim.A.dtype


def follow(sim, kind: str) -> None:
    """The kind's state arrays follow its count: truncated, or grown with
    the new movers' initial values."""
    rows = table(sim.kernel, kind)
    if not rows:
        return
    W = sim.W
    arrays = getattr(W, KINDS[kind][1])
    want = len(getattr(W, KINDS[kind][0]))
    have = len(next(iter(arrays.values())))
    for name, t in rows:
        a = arrays[name]
        arrays[name] = a[:want].copy() if want < have else np.concatenate([a, np.zeros(want - have, dtype=_dtype(sim, t))])
    if want > have:
        A, K = sim.A, sim.kernel
        init = getattr(K, f"{KINDS[kind][3]}_{'float' if A.name == 'float' else 'fixed'}")
        PF, PI = sim._param_arrays()
        init(have, want, *[arrays[name] for name, _ in rows], PF, PI, A.dtype(W.target_x), A.dtype(W.target_y),
             int(bool(W.target_on)))


def arrays(sim) -> list:
    """Every mover state array, in the step functions' order."""
    out = []
    for kind in KINDS:
        holder = getattr(sim.W, KINDS[kind][1])
        out += [_contiguous(sim, holder, name, t) for name, t in table(sim.kernel, kind)]
    return out


def _contiguous(sim, holder: dict, name: str, t: str):
    c = np.ascontiguousarray(holder[name], dtype=_dtype(sim, t))
    holder[name] = c
    return c
