"""`boidsgen budget` over whole runs: the qemu plugin's block counts equal
the `-d in_asm,exec,nochain` log's on one frame, every frame of a run ends
on the host's state, and the report's lines (the reserve, the rows, one
`worst frame:` line per row) follow from the frames measured."""
from __future__ import annotations

import re
from pathlib import Path
import subprocess

import pytest

from codegen.commands.cli import main
from codegen.output.pipeline import checked_model
from codegen.drivers.pic32.budget.block_counts import FLASH_MODELS, build_plugin, run_counted
from codegen.drivers.pic32.budget.m4k_cycles import CycleModel, segment_mix
from codegen.drivers.pic32.budget.m4k_trace import read_trace
from codegen.drivers.pic32.budget.measure import (_run, build_host_driver, build_m4k_driver, render_variant,
                                                  spec_variant, symbol_address)
from codegen.drivers.pic32.budget.reserve import handler_cycles, isr_cycles
from codegen.drivers.pic32.budget.runs import measure_runs

from .conftest import DEFAULT_SPEC, require_tool

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: whole runs under qemu

TOOLS = ("gcc", "mipsel-linux-gnu-gcc", "qemu-mipsel")


@pytest.fixture(scope="module")
def grid_frame(tmp_path_factory):
    """A warmed-up 60-boid grid frame's image (the profile's: frame, digest, drawing)."""
    for t in TOOLS:
        require_tool(t)
    work = tmp_path_factory.mktemp("runs")
    spec = checked_model(DEFAULT_SPEC).spec
    render_variant(spec_variant(spec, order="synchronous", grid=True), DEFAULT_SPEC, work / "g")
    fw = work / "g" / "firmware"
    host = build_host_driver(fw, work / "host")
    state = work / "state.bin"
    _run([host, "60", "40", "2", state])
    elf = build_m4k_driver(fw, state, "-O1", work / "frame.elf", draw=True)
    return work, elf


def test_the_plugin_counts_what_the_log_counts(grid_frame):
    """Instructions and model cycles of each segment, block by block: the
    plugin (one qemu run, no log) against the exec log m4k_trace.py reads."""
    work, elf = grid_frame
    model = CycleModel()
    segs = run_counted(elf, build_plugin(work / "p.so"), work, model)
    log = work / "q.log"
    subprocess.run(["qemu-mipsel", "-d", "in_asm,exec,nochain", "-D", str(log), str(elf)], check=True)
    tr = read_trace(log, symbol_address(elf, "budget_mark"), 3)
    assert len(segs.insns) == 1 + 3  # before the first marker, then the three segments
    for k, seg in enumerate(tr.segments):
        mix = segment_mix(model, tr.blocks, seg.runs, seg.taken)
        assert (segs.insns[k + 1], segs.cycles["taken"][k + 1]) == (mix.insns, mix.cycles)
        assert mix.insns > 1000
    none, lines = segs.cycles["none"], segs.cycles["lines"]
    assert (none < segs.cycles["taken"]).all() and (segs.cycles["taken"] < lines).all()


def test_a_run_counts_every_frame_and_ends_on_the_hosts_state(tmp_path):
    for t in TOOLS:
        require_tool(t)
    spec, rows = measure_runs(DEFAULT_SPEC, [30], 40, [3], which="spec")
    (row,) = rows
    run = row.seeds[0]
    assert row.capacity == spec.flock.capacity and len(run.insns) == 40 == len(run.spi_bytes)
    assert (run.update_cycles > 0).all() and (run.cycles["taken"] > run.update_cycles).all()
    assert len(set(run.insns.tolist())) > 1  # frames differ: each is its own count
    assert (run.digest_cycles > 0).all() and run.status_cycles > 0 and run.status_bytes > 0
    assert set(run.cycles) == {fm.name for fm in FLASH_MODELS}


def test_a_row_past_the_specs_capacity_is_built_at_its_own(tmp_path):
    for t in TOOLS:
        require_tool(t)
    spec, rows = measure_runs(DEFAULT_SPEC, [20, 230], 3, [1], which="spec")
    assert [(r.n, r.capacity) for r in rows] == [(20, spec.flock.capacity), (230, 230)]


def test_the_interrupt_handlers_are_counted_from_their_code(tmp_path):
    for t in TOOLS:
        require_tool(t)
    render_variant(checked_model(DEFAULT_SPEC).spec, DEFAULT_SPEC, tmp_path / "s")
    isr = isr_cycles(tmp_path / "s" / "firmware", tmp_path, CycleModel())
    # the tick's handler: a prologue, millis++, the flag cleared, eret; the
    # UART's: its loops too, so several times the tick's
    assert 10 < isr["pic32_timer2_isr"] < isr["pic32_uart2_isr"] < 1000
    assert handler_cycles([], CycleModel()) == 2  # entry and exit refetch


def test_budget_prints_a_worst_frame_line_per_row(capsys):
    for t in TOOLS:
        require_tool(t)
    assert main(["budget", DEFAULT_SPEC, "--boids", "40", "--frames", "60", "--seeds", "1", "2",
                 "--variant", "spec"]) == 0
    out = capsys.readouterr().out
    worst = re.findall(r"^worst frame: ([\d.]+) ms \(brute \(sequential\), N=40, seed (\d), frame (\d+); "
                       r"flash models: none ([\d.]+), taken ([\d.]+), lines ([\d.]+) ms\); the period less the "
                       r"reserve: ([\d.]+) ms: fits$", out, re.M)
    assert len(worst) == 1, out
    ms, seed, frame, none, taken, lines, lim = worst[0]
    assert float(none) < float(taken) == float(ms) < float(lines) < float(lim) < 1000 / 30
    assert seed in ("1", "2") and 1 <= int(frame) <= 60
    row = re.search(r"^\| brute \(sequential\) \| 40 \| \d+ \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| seed \d, "
                    r"frame \d+ \| 0 \| 120 \|$", out, re.M)
    assert row and float(row.group(1)) <= float(row.group(2)) <= float(row.group(3)) == float(ms), out
    assert re.search(r"^reserve at 40 boids .*: ([\d.]+) ms with watch on", out, re.M)
    assert "largest N at 30 fps in every frame of every seed, watch on: >= 40" in out


def test_the_grid_holds_250_boids_in_every_frame_of_a_3000_frame_run(tmp_path, capsys):
    """The README's largest flock, for one seed in CI (the benchmark runs
    seeds 1 to 5, BENCHMARKS.md): a capacity-500 synchronous grid copy of
    the default spec at 250 boids, 3,000 frames from spawn, every frame
    within the period less the printed reserve (watch on)."""
    for t in TOOLS:
        require_tool(t)
    text = Path(DEFAULT_SPEC).read_text()
    text = re.sub(r"^  size: \d+.*$", "  size: 250", text, flags=re.M)
    text = re.sub(r"^  capacity: \d+.*$", "  capacity: 500", text, flags=re.M)
    text = re.sub(r"^update_order: \w+.*$", "update_order: synchronous\nperformance: {grid: true}", text, flags=re.M)
    spec = tmp_path / "spec" / "grid500.yaml"
    spec.parent.mkdir()
    spec.write_text(text)
    assert main(["budget", str(spec), "--boids", "250", "--frames", "3000", "--seeds", "1", "--variant", "spec"]) == 0
    out = capsys.readouterr().out
    line = re.search(r"^worst frame: ([\d.]+) ms \(grid, N=250, seed 1, frame \d+; .*the period less the reserve: "
                     r"([\d.]+) ms: fits$", out, re.M)
    assert line and float(line.group(1)) <= float(line.group(2)) < 1000 / 30, out
    reserve = re.search(r"^reserve at 250 boids \(grid\): ([\d.]+) ms with watch on", out, re.M)
    assert reserve and float(line.group(2)) == pytest.approx(1000 / 30 - float(reserve.group(1)), abs=0.011)
    assert re.search(r"^\| grid \| 250 \| 500 \| [\d.]+ \| [\d.]+ \| [\d.]+ \| seed 1, frame \d+ \| 0 \| 3,000 \|$",
                     out, re.M), out
