"""`boidsgen budget` for the PIC32 (its record's `budget`, codegen/boards/registry.py): every frame of
whole runs (runs_cli.py), one frame's table, --profile or --cost-table."""
from __future__ import annotations

import sys
from pathlib import Path


def budget_cli(a, err, failed) -> int:
    from codegen.drivers.pic32.budget.measure import BudgetError, run_budget

    boids = a.boids or [100, 200, 500]  # each fits the part (RAM: BENCHMARKS.md)
    if a.cost_table:  # refused before measuring anything
        where = Path(a.cost_table)
        if len(set(boids)) < 2:
            err("--cost-table needs the frame time at two flock sizes or more (--boids N N ...)")
            return 2
        if where.is_dir() or not where.parent.is_dir():
            err(f"--cost-table {a.cost_table}: " + ("a folder" if where.is_dir() else "no such folder"))
            return 2
    if not (a.profile or a.cost_table or a.warmup is not None):  # every frame of whole runs: runs.py
        from codegen.drivers.pic32.budget.runs_cli import runs_cli
        return runs_cli(a, boids, failed)
    a.warmup = 300 if a.warmup is None else a.warmup
    if a.profile:  # where the frame's instructions and cycles go: codegen/drivers/pic32/budget/profile.py
        from codegen.drivers.pic32.budget.profile import profile_cli
        return profile_cli(a, boids, failed)
    try:
        b = run_budget(a.spec, boids, warmup=a.warmup, seed=a.seed, cpi=a.cpi, which=a.variant, optimize=a.optimize or "both",
                       progress=lambda r: print(f"  measured {r.variant} N={r.n}", file=sys.stderr, flush=True))
    except BudgetError as e:
        failed(str(e))
        return 1
    print(b.table())
    if a.cost_table:
        print(f"cost table (-O1, CPI {b.cpi}, {b.rows[0].variant}): {b.cost_table(a.cost_table)}")
    return 0
