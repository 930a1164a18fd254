"""One experiment's trials, as a worker runs them: the model shipped as
text, a trial's seed, and the metrics a trial records.

A task is a batch of trials of one point (`run_batch`); it is a pure
function of its arguments, so Dask may run it on any worker, any number of
times (a dead worker's batch is simply run again), and the rows come out
the same. The generated model travels with the task as its two files'
text (`Job.files`), so a worker on another machine needs only boidsgen
installed, not the spec or its generated folder; each worker process
writes them once into its kernel cache and keeps one Simulation per model.
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pysim.experiments import metrics as M


@dataclass(frozen=True)
class Job:
    """What every trial of an experiment shares."""

    files: tuple  # ((file name, text), ...): boids_model.py and boids_kernel.py
    key: str  # a hash of files
    arith: str  # 'fixed' or 'float'
    frames: int
    warmup: int
    sample_every: int
    metrics: tuple  # metric names (codegen/experiments/file.py: METRICS)
    preferred: tuple = ()  # the parameters holding the preferred directions (turns): accuracy, chose, majority


@dataclass(frozen=True)
class Point:
    """One combination of the varied values."""

    index: int
    at: tuple  # ((name, value as varied), ...): boids, parameters, fractions of the flock
    boids: int
    sets: tuple  # ((parameter, decimal text), ...): the file's `set` and this point's values


def files_key(files) -> str:
    h = hashlib.sha256()
    for name, text in files:
        h.update(f"{name}\0{text}\0".encode())
    return h.hexdigest()[:20]


def trial_seed(exp_seed: int, at, trial: int) -> int:
    """A trial's PRNG seed: 32 bits of SHA-256 over the experiment's seed,
    the point's values (not its position in the file) and the trial's
    index. Independent of workers, batches and the order trials finish in;
    a point keeps its seeds when other points are added."""
    text = json.dumps([int(exp_seed), [[k, v] for k, v in at], int(trial)], separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")


# ---- the worker's side ----
_SIMS: dict = {}


def _held(p: Path) -> str | None:
    """What the cache holds at p, read as untrusted (a regular file of bounded size), or None."""
    from pysim.bounded_read import read_text_bounded

    try:
        return read_text_bounded(p)
    except (OSError, UnicodeDecodeError):  # missing, not a regular file, too large: written afresh
        return None


def _model(job: Job):
    from pysim.model_support import kernel_cache_root, load_model

    folder = kernel_cache_root() / "experiment-models" / job.key
    for name, text in job.files:
        p = folder / name
        if _held(p) != text:
            folder.mkdir(parents=True, exist_ok=True)
            tmp = p.with_name(f".{name}.{os.getpid()}.tmp")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, p)
    # what runs is checked against the job's own rendered text (and its kernel's seal)
    return load_model(Path(folder) / "boids_model.py", expect_text=dict(job.files)["boids_model.py"])


def simulation(job: Job):
    """This process's Simulation of the job's model and arithmetic (made once)."""
    sim = _SIMS.get((job.key, job.arith))
    if sim is None:
        from pysim.engine import Simulation

        sim = Simulation(_model(job), job.arith, boids=0)
        _SIMS[(job.key, job.arith)] = sim
    return sim


def warm(job: Job) -> None:
    """Load the model and its compiled kernel in this process now (workers
    do it before the first batch, so the batches' times are the trials')."""
    simulation(job).step()


def run_batch(job: Job, point: Point, trials) -> list[dict]:
    """Run trials [(index, seed), ...] of one point; one row each."""
    sim = simulation(job)
    return [{"point": point.index, "trial": int(t), "seed": int(s), "at": dict(point.at),
             "metrics": run_trial(sim, job, point, int(s))} for t, s in trials]


def run_trial(sim, job: Job, point: Point, seed: int) -> dict:
    """Set the point's parameters, spawn with `seed`, run `frames` frames,
    and measure every `sample_every`-th frame after the warm-up: each
    metric is its mean over those frames (the decision: pysim/experiments/metrics.py)."""
    sim.params.reset()
    for name, text in point.sets:
        sim.params.set(name, text, allow_fixed=True)
    sim.reset(seed, point.boids)
    model, want = sim.model, set(job.metrics)
    link = _link(sim)
    sc = getattr(model, "SCOUTS", None)
    g1, g2 = (sim.params.raw[sc["group1"]], sim.params.raw[sc["group2"]]) if sc else (0, 0)
    side = M.informed_side(g1, g2)
    naive = slice(g1 + g2, None) if g1 + g2 < point.boids else slice(None)  # the uninformed (all if none)
    cols: dict[str, list] = {k: [] for k in ("cx", "cy", "ncx", "vx", "vy", "polarisation", "speed", "groups",
                                             "nn_dist", "side_gap")}
    px = sim.to_pixels
    for f in range(1, job.frames + 1):
        sim.step()
        if f <= job.warmup or (f - job.warmup) % job.sample_every:
            continue
        x, y = px(sim.x).astype(np.float64), px(sim.y).astype(np.float64)
        vx, vy = px(sim.vx).astype(np.float64), px(sim.vy).astype(np.float64)
        cx, cy = M.centroid(x, y)
        mvx, mvy = M.mean_velocity(vx, vy)
        cols["cx"].append(cx)
        cols["ncx"].append(float(x[naive].mean()))
        cols["cy"].append(cy)
        cols["vx"].append(mvx)
        cols["vy"].append(mvy)
        if "polarisation" in want:
            cols["polarisation"].append(M.polarisation(vx, vy))
        if "speed" in want:
            cols["speed"].append(M.mean_speed(vx, vy))
        if "groups" in want:
            cols["groups"].append(M.groups(x, y, link))
        if "nn_dist" in want:
            cols["nn_dist"].append(M.nearest_neighbour(x, y))
        if "side_gap" in want:
            cols["side_gap"].append(M.side_gap(x, y, model.WIDTH, model.HEIGHT))
    if "fragmented" in want:  # split at the end of the trial
        last = M.groups(px(sim.x).astype(np.float64), px(sim.y).astype(np.float64), link)
    mid = model.WIDTH / 2
    # a parameter's raw value is fixed point in either arithmetic (pysim/params.py)
    g = [sim.params.raw[n] / (1 << model.FRAC_BITS) for n in job.preferred]
    heading = M.direction(cols["cx"], cols["cy"])
    value = {
        "decision": lambda: M.decision(cols["cx"], mid, side),
        "naive_decision": lambda: M.decision(cols["ncx"], mid, side),
        "side_time": lambda: M.side_time(cols["cx"], mid, side),
        "centroid_x": lambda: _mean(cols["cx"]), "centroid_y": lambda: _mean(cols["cy"]),
        "velocity_x": lambda: _mean(cols["vx"]), "velocity_y": lambda: _mean(cols["vy"]),
        "direction": lambda: heading, "accuracy": lambda: M.accuracy(heading, g[0]),
        "chose": lambda: M.chose(heading, g[0], g[1]),
        "majority": lambda: M.toward_majority(heading, g[0], g[1], g1, g2),
        "fragmented": lambda: int(last > 1), "side_gap": lambda: min(cols["side_gap"], default=0.0),
    }
    return {m: (value[m]() if m in value else _mean(cols[m])) for m in job.metrics}


def _mean(v) -> float:
    return float(np.mean(v)) if len(v) else 0.0


def _link(sim) -> float:
    """Boids closer than the neighbour range are in one group (as `boidsgen compare`)."""
    from pysim.arith import make_arith

    box = sim.model.pair_box(sim.params.for_arith(make_arith("float", sim.model))) \
        if hasattr(sim.model, "pair_box") else None
    return float(box) if box else 50.0
