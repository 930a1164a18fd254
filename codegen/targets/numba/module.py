"""The generated kernel module (python/boids_kernel.py): what its template renders.

One step function per arithmetic (`step_fixed`, `step_float`,
`step_checked`), each its own text emitted from the same IR: numba compiles
a function the first time it runs and caches it (cache=True) in the
module's __pycache__, keyed by the file's time and size and the function's
bytecode, so each arithmetic costs its compile only when first used, once.
Not one function parameterised at import time: numba's cache does not see a
changed global (an arithmetic chosen by a module variable would reuse the
other arithmetic's machine code), and the checked arithmetic takes two more
arguments per call (st, site).

Cache key. numba keys its cache by the source file (time, size) and the
function's bytecode, and does not notice a change in a module the kernel
calls (pysim/fxops.py; issues #1833, #9483). The module carries FXOPS_HASH
(fxops.SOURCE_HASH when generated), GENERATOR and KERNEL_HASH (a hash of
its own text, pysim.model_support.seal; the model names it too, and the
engine runs a kernel only if its text hashes to it), and the engine runs it
from a copy in a private folder named by the hash of its whole text, the
running fxops and the tool's version (pysim/kernel_cache.py): a changed
runtime, generator or spec is another folder, hence a fresh compile, and
identical kernels (a spec's variants in another order or capacity, a test's
copy) share one cache.
The text holds nothing that differs between such variants (no spec hash,
no output folder).
"""
from __future__ import annotations

from pysim.model_support import HASH_MARK, seal  # noqa: F401  (seal: for render.py)

from codegen.targets.numba.kernel import StepBuilder, boid_groups
from codegen.targets.numba.world import state_vars
from codegen.targets.numba.emit import ARITHS, Sites
from codegen.targets.numba.world import init_function

def kernel_context(m, ir=None) -> dict:
    """Template values for codegen/targets/numba/templates/python/boids_kernel.py.j2.
    `ir`: m as the shared passes left it (pipeline.Lowered.shared), if they
    already ran for this model (render.py: once for both targets)."""
    from pysim import fxops

    from codegen.passes.pipeline import run
    from codegen.passes.shared import SHARED

    ir = ir if ir is not None else run(m, SHARED).m  # the simulator's pass list: the shared passes alone
    sites = Sites()
    steps, used = {}, set()
    for arith in ARITHS:
        b = StepBuilder(ir, arith, sites if arith == "checked" else None)
        steps[arith] = b.build()
        draws = b.draws
        used |= b.used
    inits, tables = {}, {}
    for kind, rules in (("boids", m.rules), ("predators", m.predator_motion), ("food", m.food_motion)):
        sv = state_vars(rules)
        tables[kind] = [(name, "fx" if t.value == "fixed" else "int") for name, t, _, _ in sv]
        for arith in ("fixed", "float") if sv else ():
            inits[(kind, arith)], u = init_function(m, arith, kind)
            used |= u
    seed, groups = boid_groups(m.rules)
    return dict(
        steps=steps, inits=inits, imports=sorted(used), sites=sites.rows,
        state=tables["boids"], predator_state=tables["predators"], food_state=tables["food"],
        has_pairs=bool(seed or groups), draws=draws, fxops_hash=fxops.SOURCE_HASH, hash_mark=HASH_MARK,
        width_fx=m.spec.display.width << m.frac_bits, height_fx=m.spec.display.height << m.frac_bits,
    )

