"""The adaptive spawn keeps the budget's promise (issue 16): the host build
with the modelled M4K clock (`boids_host --m4k-cost`, each frame taking the
time `boidsgen budget --cost-table` modelled for its flock size, timed by
plat_micros as on the board) settles, headless and deterministic, at the
flock size `budget` predicts for the adaptive spawn ("adaptive spawn holds
~N": frames within ASPAWN_BUDGET_PM of the period), within 5 %.

One budget run of the default spec (capacity raised to the largest N, as the
budget does; a short warm-up) and one --profile run at the same N; their
variant is the same build, compiled once for the host."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from codegen.drivers.pic32.budget.cost import VariantBuild, aspawn_budget_ms, aspawn_budget_pm, read_cost_table, write_cost_table
from codegen.commands.cli import main

from .conftest import DEFAULT_SPEC, require_tool
from .deadline import RUN

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: the adaptive spawn over modelled runs

BOIDS = [120, 180, 240, 300, 400]  # bracket the default spec's ~200 with room for faster code
WARMUP = 60
FRAMES = 4000  # from 100 boids, one boid a window of 8 frames: settled by ~1000


def tools():
    for t in ("gcc", "make", "mipsel-linux-gnu-gcc", "qemu-mipsel"):
        require_tool(t)


@pytest.fixture(scope="module")
def variant_host(tmp_path_factory):
    """The default spec at capacity max(BOIDS), as the budget measures it,
    built for the host."""
    tools()
    from codegen.drivers.pic32.budget.measure import spec_variant
    from codegen.drivers.host_build import build_host
    from codegen.model.gen_model import build_model
    from codegen.output.pipeline import checked_model

    spec = checked_model(DEFAULT_SPEC).spec
    sp = spec_variant(spec, capacity=max(max(BOIDS), spec.flock.capacity))
    m = build_model(sp, DEFAULT_SPEC)
    d = tmp_path_factory.mktemp("aspawn_host")
    return build_host(DEFAULT_SPEC, m, d / "out", d / "build"), m.hash, sp.flock.capacity


@pytest.fixture(scope="module")
def budget_run(tmp_path_factory):
    """`boidsgen budget --cost-table`: (its output, the table's path)."""
    tools()
    table = tmp_path_factory.mktemp("aspawn_budget") / "cost.txt"
    return _cli(["budget", DEFAULT_SPEC, "--boids", *map(str, BOIDS), "--warmup", str(WARMUP), "--variant", "spec",
                 "--optimize", "fast", "--cost-table", str(table)]), table


def _cli(argv) -> str:
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(argv) == 0
    return buf.getvalue()


def run_host(exe: Path, table: Path, frames: int = FRAMES, *extra: str) -> dict:
    res = subprocess.run([str(exe), "--frames", str(frames), "--m4k-cost", str(table), *extra],
                         capture_output=True, text=True, timeout=RUN)
    assert res.returncode == 0, res.stderr
    m = re.search(r"^m4k-cost: (.*)$", res.stdout, re.M)
    assert m, res.stdout
    return {k: int(v) for k, v in (w.split("=") for w in m.group(1).split())}


def holds(out: str) -> int:
    m = re.search(r"adaptive spawn holds ~(\d+) \(", out)
    assert m, f"no 'adaptive spawn holds ~N' (the measured N must bracket it: {BOIDS}):\n{out}"
    return int(m.group(1))


def check_settles(host, table: Path, predicted: int, start: int | None = None):
    exe, spec_hash, cap = host
    meta, pts, _ = read_cost_table(table)
    assert meta == {"spec_hash": spec_hash, "capacity": cap}  # the budget measured this very build
    r = run_host(exe, table, FRAMES, *(["--boids", str(start)] if start else []))
    assert abs(r["boids"] - predicted) <= 0.05 * predicted, (r, predicted)
    assert r["last_change"] < FRAMES // 2, r  # settled, and stayed
    assert r["fps"] == 30, r  # the frame rate held
    assert r["frame_us"] <= aspawn_budget_ms(30) * 1000 < max(t for _, t in pts) * 1000, r
    return r


def test_budget_prints_the_adaptive_spawns_flock_below_the_largest(budget_run):
    out, table = budget_run
    m = re.search(r"brute \(sequential\): largest N at 30 fps: ~(\d+) at -O1", out)
    assert m, out
    # a share of the period (ASPAWN_BUDGET_PM < 1000): fewer boids than the whole period allows
    assert aspawn_budget_pm() < 1000 and holds(out) < int(m.group(1))
    assert f"cost table (-O1, CPI 1.5, brute (sequential)): {table}" in out
    meta, pts, measured = read_cost_table(table)
    assert measured == BOIDS and [n for n, _ in pts] == list(range(1, meta["capacity"] + 1))


def test_host_settles_at_the_budgets_prediction(budget_run, variant_host):
    out, table = budget_run
    r = check_settles(variant_host, table, holds(out))
    print(f"budget: adaptive spawn holds ~{holds(out)}; host settled at {r['boids']} ({r})")


def test_host_shrinks_to_it_from_above(budget_run, variant_host):
    out, table = budget_run
    check_settles(variant_host, table, holds(out), start=max(BOIDS) - 100)


def test_cycle_model_table_too(variant_host, tmp_path):
    """--profile's cost table (update + drawing CPU in the M4K cycle model, SPI)."""
    tools()
    table = tmp_path / "cost.txt"
    out = _cli(["budget", DEFAULT_SPEC, "--profile", "--boids", *map(str, BOIDS), "--warmup", str(WARMUP),
                "--variant", "spec", "--cost-table", str(table)])
    assert "cost table (cycle model, brute (sequential))" in out
    check_settles(variant_host, table, holds(out))


def test_host_settles_where_the_table_says(variant_host, tmp_path):
    """A flock costing 150 us a boid, measured at two sizes (between them and
    past them): the host settles at the largest N whose frame fits the
    adaptive spawn's share of the period, as the budget reads the table."""
    exe, spec_hash, cap = variant_host
    budget_us = aspawn_budget_ms(30) * 1000
    want = int(budget_us // 150)
    table = tmp_path / "linear.txt"
    for pts in ([(50, 7.5), (100, 15.0)], [(150, 22.5), (250, 37.5)]):
        write_cost_table(table, "boids", "test", VariantBuild(spec_hash, cap), "150 us a boid", pts, 30)
        r = run_host(exe, table, 2500)
        assert r["boids"] == want and r["frame_us"] == 150 * want, r
    # the flock stops at the capacity when every size fits
    write_cost_table(table, "boids", "test", VariantBuild(spec_hash, cap), "1 us a boid", [(1, 0.001), (2, 0.002)], 30)
    assert run_host(exe, table, 300 + 8 * cap)["boids"] == cap


def test_host_refuses_a_table_for_another_build(variant_host, tmp_path):
    exe, spec_hash, cap = variant_host
    table = tmp_path / "other.txt"
    head = f"spec_hash {spec_hash}\ncapacity {cap}\n"
    for text, why in ((f"spec_hash 0123456789abcdef\ncapacity {cap}\n1 1\n2 2\n", "another spec or capacity"),
                      (f"spec_hash {spec_hash}\ncapacity {cap + 1}\n1 1\n", "another capacity"),
                      (head + "1 1\n2 2\n", "rows end before the capacity"),
                      (head + "1 1\n3 2\n", "every flock size from 1 to the capacity"),
                      (head + "1 1 2\n", "want 'BOIDS FRAME_NS'"),
                      ("".join(f"{n} 1\n" for n in range(1, cap + 1)), "no spec_hash")):
        table.write_text(text)
        res = subprocess.run([str(exe), "--frames", "10", "--m4k-cost", str(table)], capture_output=True, text=True,
                             timeout=RUN)
        assert res.returncode == 2 and why in res.stderr, res.stderr
    res = subprocess.run([str(exe), "--seconds", "1", "--m4k-cost", str(table)], capture_output=True, text=True,
                         timeout=RUN, stdin=subprocess.DEVNULL)
    assert res.returncode == 2 and "virtual time" in res.stderr, res.stderr


def test_budget_refuses_a_cost_table_it_cannot_write(tmp_path, capsys):
    """Before measuring anything: one line, exit 2, nothing written."""
    for argv, why in ((["--boids", "100", "--cost-table", str(tmp_path / "t.txt")], "two flock sizes or more"),
                      (["--boids", "100", "200", "--cost-table", str(tmp_path / "no" / "t.txt")], "no such folder"),
                      (["--boids", "100", "200", "--cost-table", str(tmp_path)], "a folder")):
        assert main(["budget", DEFAULT_SPEC, *argv]) == 2
        err = capsys.readouterr().err
        assert why in err and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []
