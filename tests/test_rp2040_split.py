"""The RP2040's second core (issue 36): a synchronous update with the grid
split in two parts (firmware_runtime/core/split.h, codegen/targets/c/split.py).
rp2040js emulates one core, so the split is checked twice: the host build of
the same generated code with the second part on a second thread (pthreads)
against the simulator, and the emulator's headless image (both parts on core
0, one after the other) against it in rp2040js. The board image runs part 1
on core 1; what it links is checked here, its run only on a board.

The specs are scouts_vga and predator_vga made synchronous with the grid (the
budget's grid variant), written into a temporary folder."""
from __future__ import annotations

import subprocess

import pytest

from codegen.commands.cli import main
from tests.conftest import ROOT, require_tool
from tests.test_rp2040 import rp2040_tools  # noqa: F401 - the fixture

pytestmark = pytest.mark.slow  # the quick tier (-m "not slow") leaves it out: the RP2040 in rp2040js, pico-sdk builds

SYNC_GRID = "update_order: synchronous\nperformance: {grid: true}"


def split_spec(folder, name: str, capacity: int | None = None):
    """spec/NAME.yaml in synchronous order with the grid (and the capacity), as folder/NAME_split.yaml."""
    text = (ROOT / "spec" / f"{name}.yaml").read_text()
    assert "update_order: sequential" in text
    text = text.replace("update_order: sequential", SYNC_GRID).replace(f"name: {name}", f"name: {name}_split")
    if capacity:
        text = text.replace("flock: {size: 100, capacity: 100}", f"flock: {{size: {capacity}, capacity: {capacity}}}")
    path = folder / f"{name}_split.yaml"
    path.write_text(text)
    return path


def scouts_1000(folder):
    """scouts_vga at capacity 1000, synchronous with the grid (the budget's grid variant; protected_range's
    maximum narrowed to what separation's 32-bit sums allow at that capacity): cohesion's sums stay 64-bit
    in every copy, the guarded one too, and the own band takes them from a 64-bit window (window_sums.py)."""
    spec = split_spec(folder, "scouts_vga", capacity=1000)
    text = spec.read_text()
    assert "max: 100, unit: px, id: 2}" in text
    spec.write_text(text.replace("max: 100, unit: px, id: 2}", "max: 21, unit: px, id: 2}"))
    return spec


@pytest.fixture(scope="module")
def scouts_split(tmp_path_factory):
    return split_spec(tmp_path_factory.mktemp("split"), "scouts_vga", capacity=300)


def test_only_a_synchronous_grid_rp2040_spec_is_split(scouts_split):
    from codegen.output.pipeline import load
    from codegen.output.render import render

    two = render(load(scouts_split))["firmware/boids_flock.c"]
    assert '#include "split.h"' in two and "boids_split_run(boids_step_guarded_part, f, split_took);" in two
    assert "static pair_ring_t pair_ring[2];" in two and "boids_split_run(boids_step_wide_part, f, split_took);" in two
    # each pair once splits inside a band, at half the boids (the pairs across it visited by both parts);
    # the full loop at a band's edge
    once, wide = two.split("boids_step_wide_at(flock_t *f, rng_t *r, int32_t part)\n{")[:2]
    assert "split_at = split_balanced(band_start[rows]);" in once and "if (o < cross) o = cross < o_end ? cross : o_end;" in once
    assert "split_band = split_band_of(rows);" in wide and "split_at = split_balanced(band_start[rows]);" not in wide
    for name in ("scouts_vga", "obstacles"):  # sequential on the RP2040; synchronous on the PIC32 alone
        assert "split.h" not in render(load(ROOT / "spec" / f"{name}.yaml"))["firmware/boids_flock.c"]


@pytest.mark.parametrize("sets", [[], ["--set", "protected_range=30"], ["--set", "visual_range=80"]],
                         ids=["guarded", "wide", "wide-bands"])
def test_two_threads_are_bit_exact_with_the_simulator(scouts_split, sets, capsys):
    """protected_range 30 px is above the guarded copy's bound: the wide copy, split without the band before."""
    require_tool("gcc")
    rc = main(["parity", str(scouts_split), "--target", "host-threads", "--frames", "200", "--seed", "5", *sets])
    out = capsys.readouterr().out
    assert rc == 0 and "200 frames x 300 boids bit-exact" in out and "two threads" in out, out


def test_the_window_sums_split_too(tmp_path, capsys):
    """At capacity 100 the own band goes by its window's sums (window_sums.py): one window a part."""
    from codegen.output.pipeline import load
    from codegen.output.render import render

    require_tool("gcc")
    spec = split_spec(tmp_path, "scouts_vga")
    two = render(load(spec))["firmware/boids_flock.c"]
    assert "} band_sums[2];" in two and "band_win.hi[wk + 1] = o_end;" in two and "split.h" in two
    for seed in ("2", "9"):
        rc = main(["parity", str(spec), "--target", "host-threads", "--frames", "200", "--seed", seed])
        out = capsys.readouterr().out
        assert rc == 0 and "200 frames x 100 boids bit-exact" in out, out


def test_two_threads_with_predators_are_bit_exact(tmp_path, capsys):
    require_tool("gcc")
    spec = split_spec(tmp_path, "predator_vga")
    rc = main(["parity", str(spec), "--target", "host-threads", "--frames", "150"])
    out = capsys.readouterr().out
    assert rc == 0 and "bit-exact" in out, out


def test_a_spec_not_split_is_refused_in_one_line(capsys):
    require_tool("gcc")
    assert main(["parity", str(ROOT / "spec" / "scouts_vga.yaml"), "--target", "host-threads",
                 "--frames", "2"]) != 0
    err = capsys.readouterr().err
    assert "not split in two" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1, err


def test_the_emulators_single_core_image_of_the_split_is_bit_exact(rp2040_tools, scouts_split, capsys):  # noqa: F811
    """The headless image: split.h's one-after-the-other, both parts on core 0, in rp2040js."""
    rc = main(["parity", str(scouts_split), "--target", "rp2040", "--frames", "20", "--boids", "250"])
    out = capsys.readouterr().out
    assert rc == 0 and "20 frames x 250 boids bit-exact" in out and "in rp2040js" in out, out


def test_the_64_bit_window_is_bit_exact_in_rp2040js(rp2040_tools, tmp_path, capsys):  # noqa: F811
    """1,000 boids: the window's 64-bit sums in fixed_sums.h's Cortex-M0+ instructions, in rp2040js
    (every frame sums them; 8 frames, about a second each in rp2040js)."""
    spec = scouts_1000(tmp_path)
    rc = main(["parity", str(spec), "--target", "rp2040", "--frames", "8", "--seed", "2"])
    out = capsys.readouterr().out
    assert rc == 0 and "8 frames x 1000 boids bit-exact" in out and "in rp2040js" in out, out


def test_the_board_image_runs_part_one_on_core_1(rp2040_tools, scouts_split):  # noqa: F811
    """Its core 1 is launched (the ROM's FIFO handshake, each word with a timeout) and waits on the FIFO; the
    headless image has no core 1 code to run. (That the board image still runs where no core 1 answers:
    test_rp2040.py's VGA signal and `emulate` tests run it in rp2040js.)"""
    from codegen.output.pipeline import checked_model, emit
    from codegen.spec.project import build_dir, output_dir
    from codegen.targets.rp2040.build import build_rp2040

    m = checked_model(scouts_split)
    out = output_dir(scouts_split, m.name)
    emit(scouts_split, m, out, gated=True)
    b = build_rp2040(scouts_split, m, out, build_dir(scouts_split, m.name))
    def syms(elf):
        res = subprocess.run(["arm-none-eabi-nm", str(elf)], capture_output=True, text=True, timeout=60)
        return {ln.split()[-1] for ln in res.stdout.splitlines() if ln.strip()}
    board, headless = syms(b.elf), syms(b.headless_elf)
    assert {"rp2040_split_start", "plat_split_run", "core1_main", "multicore_fifo_pop_timeout_us"} <= board
    assert "plat_split_run" not in headless


def test_the_split_balances_the_parts_time(rp2040_tools, scouts_split):  # noqa: F811
    """split_balanced (flock_grid.j2): each frame splits where last frame's part times (plat_work_us: the
    emulated timer) reach half their sum. In rp2040js (300 boids, seed 1, the budget's frame marks, after
    10 frames) the longer part takes under 51.2 % of the two parts' cycles in the median frame and 54.5 %
    in the worst (measured: 50.3 % and 52.2 % over 200 frames); split at half the boids it takes 52.2 %
    in the median frame."""
    import statistics
    import tempfile
    from pathlib import Path

    from codegen.output.pipeline import checked_model, emit
    from codegen.spec.project import build_dir, output_dir
    from codegen.drivers.rp2040.budget import frame_parts
    from codegen.targets.rp2040.build import build_rp2040
    from codegen.targets.rp2040.emulator import run_image

    m = checked_model(scouts_split)
    out = output_dir(scouts_split, m.name)
    emit(scouts_split, m, out, gated=True)
    b = build_rp2040(scouts_split, m, out, build_dir(scouts_split, m.name))
    with tempfile.TemporaryDirectory() as tmp:
        marks = Path(tmp) / "marks"
        run = run_image(b.headless_elf, "bench 80 1 300\n", max_cycles=4_000_000_000, marks=marks)
        frames = frame_parts(marks.read_text())
    assert run.end == "bkpt" and len(frames) == 80
    shares = [max(f.parts) / sum(f.parts) for f in frames[10:]]
    assert statistics.median(shares) < 0.512 and max(shares) < 0.545, (statistics.median(shares), max(shares))


def test_the_budget_computes_the_two_core_frame_from_the_split_parts(rp2040_tools, capsys):  # noqa: F811
    """--variant grid is split: the emulated one-core frame and the computed two-core one beside it."""
    assert main(["budget", str(ROOT / "spec" / "scouts_vga.yaml"), "--target", "rp2040", "--variant", "grid",
                 "--boids", "300", "--frames", "6", "--seeds", "1"]) == 0
    out = capsys.readouterr().out
    row = next(ln.split() for ln in out.splitlines() if ln.split()[:2] == ["300", "6"])
    update, draw, frame, two = float(row[2]), float(row[4]), float(row[7]), float(row[10])  # medians, ms
    assert 0 < two < frame - update / 4, out  # core 1 takes a part of the update
    assert two > (frame - draw) / 2, out  # never less than half of it
    assert "with both cores, computed (core 1 not emulated)" in out, out
    head = out.index("lower bound on the update, 2 cores")  # bound.py: below every measured frame
    bound = next(ln.split() for ln in out[head:].splitlines() if ln.split()[:1] == ["300"])
    assert float(bound[3]) < two and bound[-1] == "0", out


@pytest.mark.parametrize("seed", ["5", "9"])
def test_flagged_boids_split_on_two_threads_are_bit_exact(tmp_path, monkeypatch, seed, capsys):
    """A ring of 1 KB a part (16 entries): boids are flagged in most frames, and each part flags, skips
    the mirror into and visits back its own bands' (pairs_once.py): no frame runs the full loop."""
    from codegen.output.pipeline import load
    from codegen.output.render import render
    from tests.test_pairs_flagged import small_rings
    from tests.test_pairs_once import firmware_stats

    require_tool("gcc")
    small_rings(monkeypatch, 1024)
    spec = split_spec(tmp_path, "scouts_vga", capacity=300)
    code = render(load(spec))["firmware/boids_flock.c"]
    assert "#define BOIDS_PAIR_RING 16\n" in code and "boids_split_run(boids_step_flagged_part, f, split_took);" in code
    rc = main(["parity", str(spec), "--target", "host-threads", "--frames", "150", "--seed", seed])
    out = capsys.readouterr().out
    assert rc == 0 and "150 frames x 300 boids bit-exact" in out and "two threads" in out, out
    fw = next(p for p in tmp_path.rglob("boids_flock.c") if "#define BOIDS_PAIR_RING 16\n" in p.read_text()).parent
    st = firmware_stats(fw, tmp_path, 300, 150, int(seed))
    assert st["full_loop_frames"] == 0 and st["flagged_frames"] > 100 and st["flagged_by_own_band"] > 0, st
