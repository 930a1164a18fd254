"""`boidsgen budget --profile`: the qemu log read block by block (taken
branches, library calls charged to their caller), the instruction classes
and the M4K cycle model's arithmetic, the generated C's lines given to
their parts, the lower bound's arithmetic, and one real run whose parts add
up to the frame counted by count_segments."""
from __future__ import annotations

import re
import subprocess

import pytest

from codegen.drivers.pic32.budget import profile_lines as PL
from codegen.drivers.pic32.budget.bound import BOID_INSNS, PAIR_INSNS, PIXEL_BYTES, PIXEL_INSNS, lower_bound
from codegen.drivers.pic32.budget.m4k_cycles import CycleModel, block_costs, branch_index, classify, reads, segment_mix, writes
from codegen.drivers.pic32.budget.m4k_trace import TraceError, insn_counts, parse_insn, read_trace
from codegen.drivers.pic32.budget.pair_counts import PairCounts

from .conftest import DEFAULT_SPEC, ROOT, require_tool

# budget_mark at 0x100; boids_step's loop at 0x200 (a load used at once, a
# branch back to itself or on to 0x210); __divdi3 at 0x300 called from 0x210.
LOG = """\
IN: budget_mark
0x00000100:  jr\tra
0x00000104:  nop

IN: boids_step
0x00000200:  lw\tv0,0(a0)
0x00000204:  addu\tv1,v0,a1
0x00000208:  bnez\tv1,0x200
0x0000020c:  addiu\ta0,a0,4

IN: boids_step
0x00000210:  jal\t0x300
0x00000214:  nop

IN: __divdi3
0x00000300:  divu\tzero,a0,a1
0x00000304:  mflo\tv0
0x00000308:  jr\tra
0x0000030c:  nop

IN: boids_step
0x00000218:  mult\ta0,a1
0x0000021c:  mflo\tv0

Trace 0: 0x7f00 [00000000/00000200/00000000/ff000000] boids_step
Trace 0: 0x7f00 [00000000/00000100/00000000/ff000000] budget_mark
Trace 0: 0x7f00 [00000000/00000200/00000000/ff000000] boids_step
Trace 0: 0x7f00 [00000000/00000200/00000000/ff000000] boids_step
Trace 0: 0x7f00 [00000000/00000210/00000000/ff000000] boids_step
Trace 0: 0x7f00 [00000000/00000300/00000000/ff000000] __divdi3
Trace 0: 0x7f00 [00000000/00000218/00000000/ff000000] boids_step
Trace 0: 0x7f00 [00000000/00000100/00000000/ff000000] budget_mark
Trace 0: 0x7f00 [00000000/00000218/00000000/ff000000] boids_step
Trace 0: 0x7f00 [00000000/00000100/00000000/ff000000] budget_mark
"""


def test_trace_counts_blocks_taken_branches_and_callers(tmp_path):
    log = tmp_path / "q.log"
    log.write_text(LOG)
    tr = read_trace(log, 0x100, 2, callee=lambda pc: pc == 0x300)
    frame, dig = tr.segments
    assert frame.runs == {0x200: 2, 0x210: 1, 0x300: 1, 0x218: 1}
    assert frame.instructions(tr.blocks) == 2 * 4 + 2 + 4 + 2
    assert dig.instructions(tr.blocks) == 2
    # 0x200 -> 0x200 (taken: back), 0x200 -> 0x210 (falls through), 0x210 -> 0x300 (jal),
    # 0x300 -> 0x218 (jr), 0x218 -> the marker (0x220 would be the fall-through)
    assert frame.taken == {0x200: 1, 0x210: 1, 0x300: 1, 0x218: 1}
    assert frame.via == {(0x300, 0x210): 1}
    assert insn_counts(tr, frame)[0x204] == 2
    with pytest.raises(TraceError, match="3 of 4"):
        read_trace(log, 0x100, 3)


def test_instruction_classes():
    assert [classify(m) for m in ("lw", "lhu", "sw", "sb", "bnez", "bgeuc", "b", "jal", "jr", "mad", "multu",
                                  "mul", "div", "divu", "mflo", "addu", "sltu", "break", "teq")] == [
        "load", "load", "store", "store", "branch", "branch", "branch", "jump", "jump", "mult", "mult",
        "mul", "div", "div", "hilo", "alu", "alu", "alu", "alu"]
    lw, addu, sw = (parse_insn(s) for s in ("0x0:  lw\tv0,16(sp)", "0x4:  addu\tv1,v0,a1", "0x8:  sw\tv0,4(a0)"))
    assert writes(lw) == "v0" and reads(lw) == {"sp"}
    assert reads(addu) == {"v0", "a1"} and reads(sw) == {"v0", "a0"} and writes(sw) is None


def test_cycle_model_arithmetic(tmp_path):
    m = CycleModel()
    blk = [parse_insn(s) for s in ("0x0:  lw\tv0,0(a0)", "0x4:  addu\tv1,v0,a1", "0x8:  lw\tt0,4(a0)",
                                   "0xc:  mult\tt0,t1", "0x10:  mul\tv0,a0,a1", "0x14:  addu\ta2,v0,v0",
                                   "0x18:  divu\tzero,a0,a1", "0x1c:  mflo\tv0", "0x20:  bnez\tv0,0x0",
                                   "0x24:  nop")]
    # a load used at once +1 (by addu, by mult); mult +1; mul +2 and +1 used next; div +34
    assert block_costs(m, blk) == [2, 1, 2, 2, 4, 1, 35, 1, 1, 1]
    assert branch_index(blk) == 8
    mix = segment_mix(m, {0: blk}, {0: 10}, {0: 9})
    assert mix.insns == 100 and mix.cycles == 10 * 50 + 9 * m.flash_ws
    assert mix.counts == {"load": 20, "alu": 30, "mult": 10, "mul": 10, "div": 10, "hilo": 10, "branch": 10}
    slow = CycleModel(flash_ws=2, div_extra=10)
    assert segment_mix(slow, {0: blk}, {0: 1}, {0: 1}).cycles == 50 - 24 + 2


def test_generated_lines_go_to_their_parts():
    text = (ROOT / "generated" / "boids" / "firmware" / "boids_flock.c").read_text()
    lab = PL.label_lines(text)
    lines = text.splitlines()

    def part(pattern: str) -> str:
        return lab[next(i + 1 for i, ln in enumerate(lines) if re.search(pattern, ln))]

    assert part(r"fx_outside_box\(dx, box_bias, box_lim\)") == PL.PAIR_CAND
    assert part(r"for \(;; o\+\+\)") == PL.PAIR_CAND
    assert part(r"if \(o == o_stop\)") == PL.PAIR_CAND
    assert part(r"in_protected = fx_d2_zones") == PL.PAIR_BOX
    assert part(r"if \(in_protected < 0\)") == PL.PAIR_BOX
    assert part(r"separation_close_dx = fx_add\(separation_close_dx, dx\)") == PL.pair_rule("separation")
    assert part(r"cohesion_sum_x = fx_add\(cohesion_sum_x, o->x\)") == PL.pair_rule("cohesion")
    assert part(r"boids_mean\(alignment_sum_vx") == PL.boid_rule("alignment")
    assert part(r"speed_sq = fx_mag2\(vx, vy\)") == PL.boid_rule("speed_limit")
    assert part(r"P->top_margin\) vy") == PL.boid_rule("edges")
    assert part(r"b->x = fx_add") == PL.BOID
    assert part(r"const fx zone_r = ") == PL.SETUP


def test_lower_bound_arithmetic():
    m = CycleModel()
    pc = PairCounts(n=100, candidates=9900, in_box=2000, in_range=1800, protected=40)
    b = lower_bound(pc, 100, 9 * 190, 20_000_000, m, pixels=190)
    assert b.pixels == 190 and lower_bound(pc, 100, PIXEL_BYTES * 190, 20_000_000, m).pixels == 190
    assert b.insns == 1800 * PAIR_INSNS + 100 * BOID_INSNS + 190 * PIXEL_INSNS
    assert sum(b.update.values()) == 1800 * PAIR_INSNS + 100 * BOID_INSNS
    assert b.update.get("div", 0) == 0  # a mean is a multiply by a reciprocal, as the code does it
    # each multiply's MDU stall and each loop's taken branch on top of one cycle an instruction
    assert b.update_cycles == sum(b.update.values()) + b.update["mult"] * m.mult_extra + (1800 * 0.5 + 100) * m.flash_ws
    assert b.spi_ms == pytest.approx(190 * PIXEL_BYTES * 8 / 20e6 * 1000)
    # the pixels' 30 instructions (750 ns) overlap their 8 bytes' 3.2 us on the wire
    assert b.pixel_cycles == 190 * PIXEL_INSNS and b.pixel_cycles / 40e6 * 1000 < b.spi_ms
    assert b.frame_ms == pytest.approx((b.cycles - b.pixel_cycles) / 40e6 * 1000 + b.spi_ms)


def test_the_bound_counts_no_more_than_the_code_does():
    """For every instruction class, the bound's update counts at most what
    the generated code executed in the same frame (each pair once and the
    means' reciprocals included), and its cycles at most the code's: no
    optimisation of ours can beat it. Both variants, a sparse and a denser flock."""
    for tool in ("gcc", "mipsel-linux-gnu-gcc", "qemu-mipsel", "mipsel-linux-gnu-addr2line"):
        require_tool(tool)
    from codegen.drivers.pic32.budget.profile import run_profile

    prof = run_profile(DEFAULT_SPEC, [60, 200], warmup=80, seed=3, which="both")
    assert len(prof.frames) == 4
    for fp in prof.frames:
        b = fp.bound
        assert fp.pairs.in_range > 0
        for cls, k in b.update.items():
            assert k <= fp.mix.counts.get(cls, 0), (fp.variant, fp.n, cls, k, fp.mix.counts)
        assert b.update_cycles <= fp.total_cycles and b.pixel_cycles <= fp.draw.cycles, (fp.variant, fp.n)


def test_profile_parts_add_up_to_the_frame(tmp_path):
    """One real run: build the profiled image (-g, drawing segment), run it
    under qemu-mipsel once, and check the profile's parts against
    count_segments on the same log; the -g image's frame is the plain one's."""
    for tool in ("gcc", "mipsel-linux-gnu-gcc", "qemu-mipsel", "mipsel-linux-gnu-addr2line"):
        require_tool(tool)
    from codegen.drivers.pic32.budget.measure import (_run, build_host_driver, build_m4k_driver, count_segments, render_variant,
                                run_frame_under_qemu, spec_variant, symbol_address)
    from codegen.drivers.pic32.budget.profile import attribute
    from codegen.drivers.pic32.budget.pair_counts import pair_counts
    from codegen.output.pipeline import checked_model

    spec = spec_variant(checked_model(DEFAULT_SPEC).spec, capacity=120, order="synchronous", grid=True)
    render_variant(spec, DEFAULT_SPEC, tmp_path / "g")
    fw = tmp_path / "g" / "firmware"
    host = build_host_driver(fw, tmp_path / "host")
    state = tmp_path / "s.bin"
    spi = int(re.search(r"^spi_bytes=(\d+)", _run([host, "120", "40", "3", state]).stdout, re.M).group(1))
    elf = build_m4k_driver(fw, state, "-O1", tmp_path / "p.elf", draw=True)
    log = tmp_path / "q.log"
    assert subprocess.run(["qemu-mipsel", "-d", "in_asm,exec,nochain", "-D", str(log), str(elf)]).returncode == 0
    frame, digest, drawing = count_segments(log, symbol_address(elf, "budget_mark"), 3)
    m = CycleModel()
    parts, div_from, draw, dfun, dig, mix, dtime = attribute(elf, log, fw / "boids_flock.c", m, 16.0)
    assert sum(p.insns for p in parts.values()) == frame == mix.insns
    assert sum(p.cycles for p in parts.values()) == mix.cycles > frame
    assert dig == digest and draw.insns == drawing == sum(p.insns for p in dfun.values())
    assert {PL.PAIR_CAND, PL.PAIR_BOX, PL.DIV, PL.SQRT, PL.GRID_BUILD, PL.pair_rule("alignment"),
            PL.boid_rule("speed_limit")} <= set(parts)
    assert parts.get(PL.OTHER, PL_PART_ZERO).insns < frame // 100
    # the speed limit's fx_div divides; the means multiply by the count's reciprocal (mean_table.py)
    asked = {src for (k, src) in div_from if k == PL.DIV}
    assert PL.boid_rule("speed_limit") in asked and not asked & {PL.boid_rule("alignment"), PL.boid_rule("cohesion")}
    assert "pixset_show" in dfun and "tft_port_words" in dfun
    # the SPI timeline ran the drawing's own instructions and pushed the
    # bytes the host counted; the drawing cannot end before they are out
    assert dtime.cpu_cycles == draw.cycles and dtime.spi_bytes == spi > 0
    assert dtime.cycles >= dtime.busy_cycles == spi * 16 and dtime.wait_cycles > 0
    # the same boids_step without -g and the drawing: only main's few harness
    # instructions around the markers may differ
    plain = build_m4k_driver(fw, state, "-O1", tmp_path / "plain.elf")
    assert abs(run_frame_under_qemu(plain, tmp_path)[0] - frame) <= parts[PL.HARNESS].insns
    # the grid's lines: the sort, the windows, the pair loop testing y only
    text = (fw / "boids_flock.c").read_text()
    lab, lines = PL.label_lines(text), text.splitlines()

    def part(pattern: str) -> str:
        return lab[next(i + 1 for i, ln in enumerate(lines) if re.search(pattern, ln))]

    assert part(r"band_sort\(f, cell") == part(r"\*q = prev;") == PL.GRID_BUILD
    assert part(r"band_window\(2, x, box") == part(r"fx_sub\(hi->x, x\) < box") == PL.PAIR_ROW
    # the own band's window sums (window_sums.py) are the windows' too
    assert part(r"o_end = band_win\.hi\[1\]") == part(r"win_vx = fx_add\(win_vx, o_end->vx\)") == PL.PAIR_ROW
    assert part(r"fx_sub\(x, lo->x\) >= box") == PL.PAIR_ROW  # band_left
    assert part(r"for \(; o != o_end; o\+\+\)") == part(r"fx_outside_box\(dy, box_bias") == PL.PAIR_CAND
    assert part(r"^\s*dx = fx_sub\(x, o->x\)") == PL.PAIR_BOX and PL.PAIR_ROW in parts
    pc = pair_counts(state, fw)
    assert pc.n == 120 and pc.candidates >= pc.in_box >= pc.in_range > pc.protected >= 0 and pc.in_range > 0
    assert pc.candidates < 120 * 119  # the grid visits fewer pairs than brute force


class _Zero:
    insns = 0


PL_PART_ZERO = _Zero()


def test_the_timeline_finds_the_ports_waits():
    """The SPI timeline knows a wait by its source line (budget/profile.py's wait_lines):
    the stub port and the board's, statement for statement twins, each have
    both kinds, in the same functions, so the profile's waits are the board's."""
    from codegen.drivers.pic32.budget.profile import PORT_C, wait_lines

    def kinds(path):
        text = path.read_text()
        lines = text.splitlines()
        found = wait_lines(text)
        return sorted((lines[i - 1].strip(), k) for i, k in found.items())

    stub, board = kinds(PORT_C), kinds(ROOT / "firmware_runtime" / "pic32" / "platform_pic32.c")
    assert {k for _, k in stub} == {"idle", "room"}
    assert stub == board
