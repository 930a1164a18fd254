"""`boidsgen experiment`'s speed, measured in one run (issue 17's targets):

    python3 bench/bench_experiment.py [--trials 120] [--frames 1000] [--boids 100]

The default scout spec (spec/scouts_vga.yaml as written: 100 boids, two
scout groups of 10, bias 0.001), 1,000-frame trials, every metric sampled
every 10th frame after a 100-frame warm-up. The same trials (same seeds)
run three ways, through the code `boidsgen experiment` runs:

  in-process   pysim.experiments.runner.run(workers=0): no Dask, one core
  1 worker     a LocalCluster of 1 worker process
  2 workers    a LocalCluster of 2 worker processes

  2 processes  the control: the same trials split over 2 plain processes
               (multiprocessing, no Dask): what the machine gives two
               processes now (its cores are shared with other work)

Printed: trials/s per core (in-process, and the simulator alone with only
the decision metric), the 1 -> 2 worker speed-up (target >= 1.7x) beside
the control's, and the Dask overhead, 1 worker against in-process (target
< 10 %), each with and without the cluster's start-up (starting processes,
importing numba, loading the cached kernel). Each way runs --repeat times;
the best time counts. Every way's rows must be equal, or it fails.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from codegen.experiments.file import load_experiment  # noqa: E402
from codegen.experiments.plan import make_plan  # noqa: E402
from pysim.experiments.runner import RowFile, batch_size, make_batches, run  # noqa: E402
from pysim.experiments.trials import run_batch, warm  # noqa: E402

FILE = """\
spec: {spec}
seed: 17
trials: {trials}
frames: {frames}
warmup: 100
sample_every: 10
boids: {boids}
metrics: {metrics}
"""


def plan_for(folder: Path, args, metrics: str):
    f = folder / f"bench_{len(metrics)}.yaml"
    # an experiment's spec: must be inside its project (issue 32): a copy beside the file
    shutil.copy(ROOT / "spec" / "scouts_vga.yaml", folder / "scouts_vga.yaml")
    f.write_text(FILE.format(spec="scouts_vga.yaml", trials=args.trials, frames=args.frames,
                             boids=args.boids, metrics=metrics), encoding="utf-8")
    return make_plan(load_experiment(f))


def timed(plan, folder: Path, name: str, workers: int, size: int):
    (folder / f"{name}.jsonl").unlink(missing_ok=True)
    sink = RowFile(folder / f"{name}.jsonl")
    clock: dict = {}
    t0 = time.perf_counter()
    run(plan.job, make_batches(plan.todo(), size), sink, workers=workers, clock=clock)
    total = time.perf_counter() - t0
    rows = sorted(sink.done().values(), key=lambda r: (r["point"], r["trial"]))
    return {"total": total, "steady": clock["end"] - clock["ready"], "rows": rows}


def _half(args) -> float:
    job, point, trials = args
    warm(job)
    t = time.perf_counter()
    run_batch(job, point, trials)
    return time.perf_counter() - t


def control(plan) -> float:
    """Seconds for 2 plain processes to run half the trials each (the slower)."""
    import multiprocessing as mp

    todo = plan.todo()
    point, trials = todo[0][0], [(t, s) for _, t, s in todo]
    half = len(trials) // 2
    with mp.get_context("spawn").Pool(2) as pool:
        return max(pool.map(_half, [(plan.job, point, trials[:half]), (plan.job, point, trials[half:])]))


def best(fn, repeat: int) -> dict:
    runs = [fn() for _ in range(repeat)]
    return min(runs, key=lambda w: w["steady"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=120)
    ap.add_argument("--frames", type=int, default=1000)
    ap.add_argument("--boids", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-exp-") as tmp:
        folder = Path(tmp)
        full = plan_for(folder, args, "[decision, side_time, polarisation, speed, groups, nn_dist, centroid_x, "
                                      "centroid_y, velocity_x, velocity_y]")
        bare = plan_for(folder, args, "[decision]")
        warm(full.job)  # compile or load the kernel first (cached for the workers too)
        size = batch_size(args.trials, 2)
        n = args.trials
        ways, r = {}, args.repeat
        ways["sim"] = best(lambda: timed(bare, folder, "sim", 0, size), r)
        ways["in-process"] = best(lambda: timed(full, folder, "inproc", 0, size), r)
        ways["1 worker"] = best(lambda: timed(full, folder, "w1", 1, size), r)
        ways["2 workers"] = best(lambda: timed(full, folder, "w2", 2, size), r)
        ctl = min(control(full) for _ in range(r))
    for k in ("1 worker", "2 workers"):
        if ways[k]["rows"] != ways["in-process"]["rows"]:
            print(f"FAIL: {k} gave other rows than in-process", file=sys.stderr)
            return 1
    print(f"bench_experiment: {n} trials of spec/scouts_vga.yaml ({args.boids} boids, {args.frames} frames, "
          f"fixed point), {size} trials per task; {os.cpu_count()} cores")
    print("| way | wall s (with start-up) | s running | trials/s running |")
    print("| --- | ---: | ---: | ---: |")
    for k, w in ways.items():
        label = "in-process, decision metric only" if k == "sim" else k
        print(f"| {label} | {w['total']:.2f} | {w['steady']:.2f} | {n / w['steady']:.2f} |")
    ip, w1, w2 = ways["in-process"], ways["1 worker"], ways["2 workers"]
    print(f"trials/s per core: {n / ip['steady']:.2f} with every metric, {n / ways['sim']['steady']:.2f} "
          f"with the decision metric only")
    print(f"speed-up 1 -> 2 workers: {w1['steady'] / w2['steady']:.2f}x running, "
          f"{w1['total'] / w2['total']:.2f}x with start-up (target >= 1.7x); the control, 2 plain processes "
          f"against in-process: {ip['steady'] / ctl:.2f}x ({ctl:.2f} s)")
    print(f"Dask overhead, 1 worker vs in-process: {100 * (w1['steady'] / ip['steady'] - 1):+.1f} % running, "
          f"{100 * (w1['total'] / ip['total'] - 1):+.1f} % with start-up (target < 10 %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
