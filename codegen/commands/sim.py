"""boidsgen sim: run the generated simulator on a spec."""
from __future__ import annotations

import sys

from codegen.commands.messages import err
from codegen.commands.numbers import boids_within
from codegen.output.pipeline import checked_model


def sets_of(pairs: list[str]) -> list[tuple[str, str]]:
    out = []
    for s in pairs or []:
        if "=" not in s:
            raise SystemExit(f"boidsgen: --set wants NAME=VALUE, got '{s}'")
        k, v = s.split("=", 1)
        out.append((k, v))
    return out


def cmd_sim(a) -> int:
    from pysim import trace
    from pysim.params import ParamError

    from codegen.output.render import load_generated_model

    m = checked_model(a.spec)
    boids_within(a.boids, m.spec.flock.capacity)
    model = load_generated_model(a.spec, m)
    from pysim.engine import Simulation

    if a.check_overflow and a.arith != "fixed":
        err("--check-overflow checks the fixed-point arithmetic (drop --arith float)")
        return 2
    sim = Simulation(model, a.arith, seed=a.seed, order=a.order, boids=a.boids)
    if a.check_overflow:
        from pysim.checked_arith import checked_arith_for

        sim.A = checked_arith_for(model)
        sim.A.frame_of = lambda: sim.frame
    try:
        for k, v in sets_of(a.set):
            sim.params.set(k, v)
    except ParamError as e:
        err(f"--set: {e}")
        return 2
    sim.reset(a.seed, a.boids)
    if a.trace:
        out = sys.stdout if a.trace == "-" else open(a.trace, "w", encoding="utf-8")
        from pysim.checked_arith import OverflowFound

        try:
            trace.write_run(sim, a.frames, out)
        except OverflowFound as e:
            err(str(e))
            return 1
        finally:
            if out is not sys.stdout:
                out.close()
        if out is not sys.stdout:  # say what was written (stdout is the trace itself with '-')
            print(f"sim: {a.frames} frames x {sim.count} boids ({a.arith}, {sim.order}): trace written to {a.trace}")
    else:
        import time

        from pysim.checked_arith import OverflowFound

        t0 = time.perf_counter()
        try:
            sim.run(a.frames)
        except OverflowFound as e:
            err(str(e))
            return 1
        dt = time.perf_counter() - t0
        if a.check_overflow:
            print(f"check-overflow: {a.frames} frames x {sim.count} boids, every value within 32 bits")
        print(f"sim: {a.frames} frames x {sim.count} boids ({a.arith}, {sim.order}) in {dt:.2f} s "
              f"({dt / max(a.frames, 1) * 1000:.2f} ms/frame)")
    return 0
