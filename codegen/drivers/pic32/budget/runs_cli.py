"""`boidsgen budget` on the PIC32 (the default: every frame of whole runs):
measure the runs (runs.py), the reserve (reserve.py) and print the report
(runs_report.py)."""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from codegen.drivers.pic32.budget.m4k_cycles import CycleModel
from codegen.drivers.pic32.budget.measure import BudgetError, render_variant
from codegen.drivers.pic32.budget.reserve import isr_cycles, reserve
from codegen.drivers.pic32.budget.runs import measure_runs
from codegen.drivers.pic32.budget.runs_report import report


def runs_cli(a, boids: list[int], err) -> int:
    """`boidsgen budget` (PIC32, the default): whole runs, every frame."""
    frames = a.frames or 3000
    seeds = list(dict.fromkeys(a.seeds or [1, 2, 3, 4, 5]))
    model = CycleModel()
    try:
        spec, rows = measure_runs(a.spec, boids, frames, seeds, a.variant, model=model, optimize=a.optimize or "spec",
                                  progress=lambda r, s: print(f"  ran {r.variant} N={r.n} seed {s}",
                                                              file=sys.stderr, flush=True))
        with tempfile.TemporaryDirectory(prefix="boids-reserve-") as tmp:
            fw = Path(tmp) / "spec"
            render_variant(spec, a.spec, fw)
            isr = isr_cycles(fw / "firmware", Path(tmp), model)
    except BudgetError as e:
        err(str(e))
        return 1
    reserves = {}
    for row in rows:
        worst_digest = max(int(run.digest_cycles.max()) for run in row.seeds)
        st = max(row.seeds, key=lambda run: run.status_cycles)
        reserves[(row.variant, row.n)] = reserve(isr, spec.frame_rate, spec.serial.baud, st.status_cycles,
                                                 st.status_bytes, spec.board.spi_hz, worst_digest, row.n,
                                                 row.commands)
    print(report(spec, rows, frames, seeds, reserves))
    return 0
