"""`boidsgen experiment` on real Dask clusters of local worker processes
(issue 17): the table does not depend on the number of workers; a run
killed mid-way and resumed gives the rows of an uninterrupted one; a
worker killed mid-run leaves a complete, duplicate-free result. Plus the
statistics and the seeds by hand."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from codegen.cli import main
from pysim.experiment_runner import RowFile, make_batches
from pysim.experiment_stats import t975, wilson
from pysim.experiment_trials import trial_seed
from tests.deadline import RUN, Deadline, reap

ROOT = Path(__file__).resolve().parent.parent

SMALL = f"""\
spec: {ROOT / 'spec' / 'scouts_vga.yaml'}
seed: 11
trials: 8
frames: FRAMES
warmup: 40
sample_every: 20
set: {{bias1: 0.05, scout_group2: 0}}
vary:
  boids: [12, 30]
  scout_group1: {{fraction_of_boids: [0, 0.3]}}
metrics: [decision, side_time, polarisation, groups, nn_dist, centroid_x, velocity_x]
batch: 2
"""
TOTAL = 32  # 4 points x 8 trials


def rows_of(out: Path) -> list[dict]:
    lines = (out / "rows.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(ln) for ln in lines]
    keys = [(r["point"], r["trial"]) for r in rows]
    assert len(keys) == len(set(keys)), "a trial's row was written twice"
    return sorted(rows, key=lambda r: (r["point"], r["trial"]))


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    d = tmp_path_factory.mktemp("exp")
    f = d / "small.yaml"
    f.write_text(SMALL.replace("FRAMES", "600"), encoding="utf-8")
    return f


@pytest.fixture(scope="module")
def reference(small):
    """The experiment run in this process, without Dask: the rows to match."""
    out = small.parent / "ref"
    assert main(["experiment", str(small), "--workers", "0", "--out", str(out)]) == 0
    rows = rows_of(out)
    assert len(rows) == TOTAL
    return out, rows


@pytest.mark.timeout(240)
def test_one_and_two_workers_give_the_same_table(small, reference, capsys):
    ref_out, ref_rows = reference
    outs = {}
    for n in (1, 2):
        outs[n] = small.parent / f"w{n}"
        assert main(["experiment", str(small), "--workers", str(n), "--out", str(outs[n])]) == 0
        assert f"on a local Dask cluster of {n} worker process" in capsys.readouterr().out
    table = (ref_out / "summary.md").read_text(encoding="utf-8")
    assert "| 30 | 0.3 | 9 | 8 |" in table  # boids, fraction, the count it made, trials
    for n, out in outs.items():
        assert (out / "summary.md").read_text(encoding="utf-8") == table, f"{n} worker(s): another table"
        assert rows_of(out) == ref_rows
        assert (out / "rows.csv").read_bytes() == (ref_out / "rows.csv").read_bytes()
    assert (outs[2] / "decision.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.timeout(240)
def test_killed_run_resumes_to_the_same_rows(tmp_path, reference):
    """SIGKILL the whole `boidsgen experiment` process group mid-run, then
    --resume: the rows are those of the uninterrupted run, none twice."""
    _, ref_rows = reference
    f = tmp_path / "small.yaml"
    f.write_text(SMALL.replace("FRAMES", "600"), encoding="utf-8")
    out = tmp_path / "out"
    proc = subprocess.Popen(["boidsgen", "experiment", str(f), "--workers", "1", "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait = Deadline(120, "rows from the running experiment")
        while _count(out / "rows.jsonl") < 6:
            assert proc.poll() is None, "the run ended before it could be killed"
            wait.check()
            time.sleep(0.02)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the command and its cluster's processes
        reap(proc, "the killed experiment")
    got = _count(out / "rows.jsonl")
    assert 6 <= got < TOTAL, f"{got} rows: the kill was not mid-run"
    assert main(["experiment", str(f), "--workers", "1", "--out", str(out), "--resume"]) == 0
    assert rows_of(out) == ref_rows


@pytest.mark.timeout(240)
def test_killed_worker_costs_only_its_trials(tmp_path, reference):
    """A worker process SIGKILLed while the batches run: Dask reruns its
    batch elsewhere; the rows are complete, each once, and the same."""
    from codegen.experiment_file import load_experiment
    from codegen.experiment_plan import make_plan
    from pysim.experiment_runner import run

    _, ref_rows = reference
    f = tmp_path / "slow.yaml"
    f.write_text(SMALL.replace("FRAMES", "600"), encoding="utf-8")
    plan = make_plan(load_experiment(f))
    sink = RowFile(tmp_path / "rows.jsonl")
    killed = []

    def on_rows(rows, client):
        if not killed:
            pids = client.run(os.getpid)  # {worker address: pid}
            addr, pid = sorted(pids.items())[0]
            busy = client.processing()  # the tasks each worker is running
            os.kill(pid, signal.SIGKILL)
            killed.append((pid, len(busy.get(addr, ()))))

    where = run(plan.job, make_batches(plan.todo(), 2), sink, workers=2, on_rows=on_rows)
    assert "2 worker processes" in where
    assert killed and killed[0][1] > 0, f"the killed worker had no batch in hand: {killed}"
    rows = sorted(sink.done().values(), key=lambda r: (r["point"], r["trial"]))
    assert len((tmp_path / "rows.jsonl").read_text().splitlines()) == TOTAL  # none twice
    assert rows == ref_rows


def _count(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return 0


# ---- the pieces by hand ----

def test_partial_last_row_is_cut_and_rerun(tmp_path):
    f = RowFile(tmp_path / "rows.jsonl")
    f.append([{"point": 0, "trial": 0, "seed": 1, "at": {}, "metrics": {}}])
    with open(tmp_path / "rows.jsonl", "a") as fh:
        fh.write('{"point": 0, "trial": 1, "se')  # a write cut short by a kill
    assert set(f.done()) == {(0, 0)}
    assert (tmp_path / "rows.jsonl").read_text().count("\n") == 1
    assert not (tmp_path / "rows.jsonl").read_text().endswith("se")


def test_trial_seeds_depend_on_point_values_and_index_only():
    at = (("boids", 100), ("scout_group1/boids", 0.1), ("scout_group1", 10))
    s = trial_seed(2005, at, 3)
    assert s == trial_seed(2005, at, 3) and 0 <= s < 2 ** 32
    assert s == 3798981206  # SHA-256 of [2005, [point values], 3]: fixed forever, or resumed rows mix
    others = {trial_seed(2005, at, 4), trial_seed(2006, at, 3), trial_seed(2005, at[:1] + (("x", 0.2),), 3)}
    assert s not in others and len(others) == 3


def test_batches_stay_within_a_point():
    class P:
        def __init__(self, i):
            self.index = i
    p0, p1 = P(0), P(1)
    todo = [(p0, 0, 5), (p0, 1, 6), (p0, 2, 7), (p1, 0, 8)]
    got = [(p.index, ts) for p, ts in make_batches(todo, 2)]
    assert got == [(0, [(0, 5), (1, 6)]), (0, [(2, 7)]), (1, [(0, 8)])]


def test_wilson_and_t_by_hand():
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and abs(hi - 0.2775) < 1e-4
    lo, hi = wilson(5, 10)
    assert abs(lo - 0.2366) < 1e-4 and abs(hi - 0.7634) < 1e-4
    lo, hi = wilson(95, 100)
    assert abs(lo - 0.8882) < 1e-4 and abs(hi - 0.9785) < 1e-4
    assert t975(1) == 12.706 and abs(t975(99) - 1.9842) < 1e-3 and abs(t975(40) - 2.0211) < 1e-3
