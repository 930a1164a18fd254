"""`boidsgen experiment FILE [--workers N] [--scheduler ADDRESS] [--timeout S] [--resume] [--out DIR]`.

Reads and checks the experiment file (nothing is written when it is
refused), runs its trials (pysim/experiments/runner.py) with a progress bar,
writing each trial's row as its batch completes, then summarises the rows:
OUT/rows.jsonl (one row per trial, in the order they finished),
OUT/rows.csv (sorted), OUT/summary.md (the per-point table with 95 %
intervals), OUT/<metric>.png, and the table on the terminal.

OUT is an experiment's own folder: new, empty, or one holding an
experiment.json that begins with its hash (MARK); any other folder is
refused, as `generate -o` refuses a folder that is not a generator's output.
"""
from __future__ import annotations

import json
import math
import os
import re
import signal
import sys
import time
from pathlib import Path

from codegen.commands.messages import err as say
from codegen.experiments.file import PROPORTIONS, RANGES, load_experiment, project_of
from codegen.experiments.plan import make_plan
from codegen.spec.errors import SpecError

META, ROWS = "experiment.json", "rows.jsonl"
# how experiment.json begins (_write_meta puts the hash first): read from its first bytes, whatever its size
MARK = re.compile(rb'\A\{\s*"hash": "([0-9a-f]{16})"')


def _err(msg: str) -> None:
    say(msg)  # one line, the paths and the file's text in it escaped (codegen/commands/messages.py)


def default_out(path: str, name: str) -> Path:
    """build/experiments/<name>/ of the project the file is in."""
    return project_of(path) / "build" / "experiments" / name


def run(a) -> int:
    try:
        ld = load_experiment(a.file)
        plan = make_plan(ld)
    except SpecError as e:
        for issue in e.issues:
            print(issue, file=sys.stderr)
        _err(f"{len(e.issues)} error(s); nothing written")
        return 2
    e = ld.exp
    name = e.name or Path(a.file).stem.replace("-", "_")
    out = Path(a.out) if a.out else default_out(a.file, name)
    if a.workers is not None and a.scheduler:
        _err("--workers and --scheduler: choose one (the cluster at --scheduler has its own workers)")
        return 2
    why = _refuse_out(out, plan, a.resume, project_of(a.file))
    if why:
        _err(why)
        return 2
    from pysim.experiments.runner import (TIMEOUT, ClusterError, Progress, RowError, RowFile, batch_size, cost,
                                         make_batches)
    from pysim.experiments.runner import run as run_batches

    timeout = a.timeout if a.timeout is not None else TIMEOUT  # --timeout S
    sink = RowFile(out / ROWS, row_check(plan))
    try:  # every row read back is checked before anything is written
        done = sink.done()
    except RowError as err:
        _err(str(err))
        return 2
    created = _first_missing(out)
    out.mkdir(parents=True, exist_ok=True)
    _write_meta(out, a.file, plan)
    todo = plan.todo(done)
    workers = a.workers if a.workers is not None else (os.cpu_count() or 1)
    size = e.batch or batch_size(len(todo), workers if not a.scheduler else 8)
    print(f"experiment {name}: {len(plan.points)} points x {e.trials} trials = {plan.total} trials"
          + (f" ({len(done)} done, {len(todo)} to run)" if done else "")
          + f"; {e.frames} frames each ({e.warmup} warm-up, measured every {e.sample_every}), {e.arith}; "
          f"spec {plan.spec_name} (hash {plan.model_hash})")
    for n in plan.notes:
        print(f"note: {n}")
    if todo:
        _warm(plan, a)
        batches = make_batches(todo, size)
        progress = Progress(plan.total, len(done), work=sum(cost(p, t) for p, t in batches))
        old = signal.signal(signal.SIGTERM, _interrupt)
        t0 = time.perf_counter()
        try:
            where = run_batches(plan.job, batches, sink, workers=a.workers, scheduler=a.scheduler,
                                progress=progress, timeout=timeout)
        except KeyboardInterrupt:
            progress.close()
            _err(f"interrupted after {progress.done} of {plan.total} trials{_after_stop(out, created)}")
            return 130
        except ClusterError as err:
            progress.close(drawn_only=True)
            _err(f"{err}{' (--timeout)' if err.timed_out else ''}{_after_stop(out, created)}")
            return 1
        except Exception as err:  # noqa: BLE001 - a lost cluster, a batch that failed 3 times: a sentence
            if os.environ.get("BOIDSGEN_DEBUG"):
                raise
            progress.close()
            _err(f"the trials stopped after {progress.done} of {plan.total}: {type(err).__name__}: {err}"
                 f"{_after_stop(out, created)}")
            return 1
        finally:
            signal.signal(signal.SIGTERM, old)
        progress.close()
        dt = time.perf_counter() - t0
        print(f"ran {len(todo)} trials {where} in {dt:.1f} s ({len(todo) / dt:.2f} trials/s; "
              f"{size} per task)")
    return report(plan, out, a.file)


def _first_missing(folder: Path) -> Path | None:
    """The outermost of folder and its parents that does not exist yet (what mkdir will make), or None."""
    folder = Path(os.path.abspath(folder))
    if folder.exists():
        return None
    while not folder.parent.exists():
        folder = folder.parent
    return folder


def _after_stop(out: Path, created: Path | None) -> str:
    """What a stopped run leaves, for its last line: rows to --resume, or
    (a run that wrote no row) nothing: it removes what it made."""
    rows = out / ROWS
    if rows.is_file() and rows.stat().st_size > 0:
        return f"; the rows so far are in {rows}: the same command with --resume runs the rest"
    if created is None:
        return "; no trial ran"
    for name in (ROWS, META):
        (out / name).unlink(missing_ok=True)
    folder = Path(os.path.abspath(out))
    try:
        while True:
            folder.rmdir()  # only if empty: something else appeared in it meanwhile stays
            if folder == created:
                break
            folder = folder.parent
    except OSError:
        pass
    return "; nothing written"


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def _warm(plan, a) -> None:
    """Compile (or load) the kernel here first, so local workers find it cached."""
    if a.scheduler:
        return
    from pysim.experiments.trials import warm

    warm(plan.job)


def _refuse_out(out: Path, plan, resume: bool, project: Path) -> str | None:
    """Why --out cannot take this run, or None. The folder rule is
    safe_paths.claim_folder's (generate -o's): no link on the way inside
    the project, none out of the folder, and a non-empty folder only if it
    holds our experiment.json, here one that begins with its hash (MARK)."""
    from codegen.spec.safe_paths import OutputError, claim_folder

    try:
        meta = claim_folder(out, META, root=project, what="an experiment's output")
    except OutputError as e:
        return f"--out: {e}"
    if meta is None:
        return None
    if _marked(meta) is None:
        return (f"--out: {out} exists and is not an experiment's output (its {META} is not one written by "
                f"`boidsgen experiment`); choose an empty or new folder")
    rows = out / ROWS
    if not rows.exists() or rows.stat().st_size == 0:
        return None
    if not resume:
        return (f"{rows} holds the rows of an earlier run: add --resume to continue it, or choose another "
                f"--out (or remove the folder)")
    theirs = _marked(meta)
    if theirs != plan.hash:
        return (f"{out} holds rows of another experiment (hash {theirs}, this one {plan.hash}: the spec, the "
                f"points, the frames, the metrics or the seed changed); choose another --out")
    return None


def _marked(meta: Path) -> str | None:
    """The hash an experiment.json begins with, or None (missing, a link, not a regular file, not ours)."""
    from pysim.bounded_read import open_regular

    if meta.is_symlink():
        return None
    try:
        with open_regular(meta) as fh:  # a FIFO put there cannot hang the open
            hit = MARK.match(fh.read(256))
    except OSError:
        return None
    return hit.group(1).decode() if hit else None


def row_check(plan):
    """The check (pysim/experiments/rows.py) that a row of the right shape is
    one of this plan's: a point it has, that point's values, the trial's own
    seed, the experiment's metrics, and each metric within what it can be (a
    proportion 0 or 1, a fraction or an angle within its bounds)."""
    from pysim.experiments.trials import trial_seed

    e = plan.loaded.exp
    points = {p.index: p for p in plan.points}
    metrics = set(e.metrics)
    bounded = {m: r for m, r in RANGES.items() if m in metrics and all(map(math.isfinite, r))}

    def check(r: dict) -> str | None:
        p = points.get(r["point"])
        if p is None:
            return f"point {r['point']} is not one of this experiment's {len(points)}"
        if r["at"] != dict(p.at):
            return f"its values are not point {p.index}'s"
        if r["seed"] != trial_seed(e.seed, p.at, r["trial"]):
            return f"its seed is not trial {r['trial']}'s"
        if set(r["metrics"]) != metrics:
            return "its metrics are not this experiment's"
        for m, v in r["metrics"].items():
            lo, hi = (0, 1) if m in PROPORTIONS else bounded.get(m, (-math.inf, math.inf))
            if (m in PROPORTIONS and v not in (0, 1)) or not lo - 1e-9 <= v <= hi + 1e-9:
                return f"{m} {v!r} is outside what it can be ({'0 or 1' if m in PROPORTIONS else f'{lo} to {hi}'})"
        return None

    return check


def _write_meta(out: Path, path: str, plan) -> None:
    doc = {"hash": plan.hash, "file": str(path), "spec": plan.spec_name, "model_hash": plan.model_hash,
           "points": [{"point": p.index, "at": dict(p.at), "boids": p.boids, "set": dict(p.sets)}
                      for p in plan.points]}
    tmp = out / f".{META}.tmp"
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, out / META)


def report(plan, out: Path, path: str) -> int:
    from pysim.experiments.runner import RowError, RowFile
    from pysim.experiments.stats import summarise, text_table

    e = plan.loaded.exp
    try:
        rows = RowFile(out / ROWS, row_check(plan)).done()
    except RowError as err:
        _err(str(err))
        return 2
    want = {(p.index, t) for p in plan.points for t in range(e.trials)}
    missing = want - set(rows)
    if missing:
        _err(f"{len(missing)} trial(s) have no row in {out / ROWS}; run again with --resume")
        return 1
    rows = [rows[k] for k in sorted(want)]  # each one of this experiment's (row_check)
    metrics = list(e.metrics)
    sums = summarise(rows, plan.points, metrics, PROPORTIONS, RANGES)
    _write_csv(out / "rows.csv", rows, metrics)
    md = _summary_md(plan, path, sums, metrics)
    (out / "summary.md").write_text(md, encoding="utf-8")
    print(text_table(sums, metrics), end="")
    from pysim.experiments.plots import plot_all

    try:
        plots = plot_all(sums, metrics, out, e.plot.title or (e.name or Path(path).stem), e.plot.xlabel or None,
                         plan.varied)
        plots += _trial_plots(plan, rows, out)
        print(f"plots: {', '.join(str(p) for p in plots)}")
    except ImportError:
        from codegen.commands.extras import plot_hint

        print(f"plots: skipped, {plot_hint('experiment')}")
    print(f"table: {out / 'summary.md'}; rows: {out / ROWS}")
    return 0


def _trial_plots(plan, rows, out: Path) -> list:
    """direction_trials.png: each trial's direction against the one varied
    value (not the flock size), with the preferred directions `preferred:`
    names (the varied one as y = x, one the file `set`s as a constant) and,
    for two, their bisector."""
    from pysim.experiments.metrics import bisector
    from pysim.experiments.plots import plot_trials

    e = plan.loaded.exp
    varied = [n for n in plan.varied if n != "boids"]
    if "direction" not in e.metrics or len(varied) != 1 or not rows:
        return []
    x = varied[0]

    def direction_of(name):  # the varied direction is y = x; one the file sets, a constant; else no line
        if name == x:
            return lambda v: v
        if name in e.set:
            value = float(e.set[name])
            return lambda v: value
        return None

    fs = [(f"{n} (preferred)", direction_of(n)) for n in e.preferred]
    fs = [(label, f) for label, f in fs if f is not None]
    if len(fs) == 2:
        f1, f2 = fs[0][1], fs[1][1]
        fs.append(("their bisector", lambda v: bisector(f1(v), f2(v))))
    return [plot_trials(rows, "direction", x, out / "direction_trials.png",
                        e.plot.title or (e.name or ""), e.plot.xlabel or None, fs)]


def _write_csv(path: Path, rows, metrics) -> None:
    import csv

    at = list(rows[0]["at"]) if rows else []
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["point", "trial", "seed", *at, *metrics])
        for r in rows:
            w.writerow([r["point"], r["trial"], r["seed"], *[r["at"][k] for k in at],
                        *[repr(r["metrics"][m]) for m in metrics]])


def _summary_md(plan, path: str, sums, metrics) -> str:
    from pysim.experiments.stats import markdown

    e = plan.loaded.exp
    sets = ", ".join(f"{k}={v}" for k, v in e.set.items()) or "none"
    lines = [f"# Experiment {e.name or Path(path).stem}", ""]
    if e.description:
        lines += [e.description, ""]
    lines += [f"`boidsgen experiment {path}`: spec {plan.spec_name} (hash {plan.model_hash}), {e.arith} arithmetic, "
              f"{len(plan.points)} points x {e.trials} trials, {e.frames} frames per trial (the first {e.warmup} "
              f"not measured, then every {e.sample_every}th), seed {e.seed}; set: {sets}.", ""]
    props = sorted(PROPORTIONS & set(metrics))
    wilson = f"Wilson score interval for {', '.join(props)}; " if props else ""
    lines += [f"Each cell: the mean over the trials and its 95 % confidence interval ({wilson}t interval "
              f"otherwise).", ""]
    lines.append(markdown(sums, metrics))
    return "\n".join(lines)
