"""`boidsgen budget --profile`: where one frame's instructions and cycles go.

For each flock size and variant (as `boidsgen budget`: codegen/drivers/pic32/budget/measure.py),
the -O1 m4k image is built with -g and a third segment that draws the frame
onto a stub SPI port (firmware_runtime/pic32/budget/budget_tft_port.c), and run
once under qemu-mipsel -d in_asm,exec,nochain (codegen/drivers/pic32/budget/m4k_trace.py). Every
executed instruction of the frame is then given to one part:

- by function (`mipsel-linux-gnu-nm -n`): libgcc's 64-bit divisions
  (__divdi3 & co.) are "divisions", charged also to the rule whose code
  called them (the last block run outside them); memcpy/memset their own;
- inside the generated flock code by its line (`mipsel-linux-gnu-addr2line
  -i`: the line table of -g, which does not change the code): code inlined
  from fixed.h's square root is "square roots", from fx_div/fx_acc_mean/
  fx_idiv (and any div instruction) "divisions"; every other line belongs to
  the part its place in the generated boids_step says (codegen/drivers/pic32/budget/profile_lines.py).

Cycles come from the M4K cycle model (codegen/drivers/pic32/budget/m4k_cycles.py); the pair
counts from the warmed-up state (codegen/drivers/pic32/budget/pair_counts.py); the lower bound
from codegen/drivers/pic32/budget/bound.py. The parts always add up to the frame: the
test checks it against count_segments.
"""
from __future__ import annotations

import bisect
import sys
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from codegen.drivers.pic32.budget import profile_lines as PL
from codegen.drivers.pic32.budget.measure import (F_CPU, QEMU, RUNTIME_DIR, BudgetError, _run, build_host_driver, build_m4k_driver, host_value, missing_tools,
                     render_variant, spec_variant, variants_for)
from codegen.drivers.pic32.budget.bound import Bound, lower_bound
from codegen.drivers.pic32.budget.m4k_cycles import LOADS, STORES, CycleModel, block_costs, branch_index, segment_mix
from codegen.drivers.pic32.budget.m4k_trace import read_trace
from codegen.drivers.pic32.budget.spi_timeline import DrawTime, draw_time
from codegen.drivers.pic32.budget.pair_counts import PairCounts, pair_counts

PORT_C = RUNTIME_DIR / "pic32" / "budget" / "budget_tft_port.c"
DIV_FUNCS = {"__divdi3", "__udivdi3", "__moddi3", "__umoddi3", "__udivmoddi4", "__divmoddi4"}
MEM_FUNCS = {"memcpy", "memset"}
# the copies of boids_step (codegen/passes/guards.py, pairs_once.py)
STEP_COPIES = {"boids_step_guarded", "boids_step_wide", "boids_step_once", "boids_step_all"}
SQRT_INLINE = {"fx_isqrt64", "fx_sqrt", "fx_hypot", "fx_mag_root"}
DIV_INLINE = {"fx_div", "fx_idiv", "fx_acc_mean"}


class Symbols:
    """Function of an address, from `nm -n` (libgcc's `.pic.` stubs named as
    the routine they enter)."""
    def __init__(self, elf: Path):
        out = _run(["mipsel-linux-gnu-nm", "-n", elf]).stdout
        self.addrs, self.names = [], []
        for line in out.splitlines():
            p = line.split()
            if len(p) == 3 and p[1] in "tTW":
                self.addrs.append(int(p[0], 16))
                self.names.append(p[2].removeprefix(".pic."))

    def of(self, addr: int) -> str:
        i = bisect.bisect_right(self.addrs, addr) - 1
        return self.names[i] if i >= 0 else "?"


def fixed_h_functions(text: str) -> dict[int, str]:
    """Line of fixed.h -> the inline function it is in (for code whose line
    info points into fixed.h without an inline chain)."""
    out: dict[int, str] = {}
    lines = text.splitlines()
    for i, ln in enumerate(lines):
        m = re.match(r"static inline [\w ]+?\b(\w+)\(", ln)
        if m:
            k = i
            while k < len(lines) and not lines[k].startswith("}") and not (k == i and ln.rstrip().endswith("}")):
                out[k + 1] = m.group(1)
                k += 1
            out[k + 1] = m.group(1)
    return out


def file_line(loc: str) -> tuple[str, int]:
    """addr2line's "path:line (discriminator k)" as (file name, line; 0 if none)."""
    fname, _, ln = loc.rpartition(":")
    m = re.match(r"\d+", ln)
    return os.path.basename(fname), int(m.group(0)) if m else 0


def addr2line(elf: Path, addrs: list[int]) -> dict[int, tuple[list[str], str, int]]:
    """addr -> (inlined function names, innermost first; outer file; outer line)."""
    out: dict[int, tuple] = {}
    if not addrs:
        return out
    res = _run(["mipsel-linux-gnu-addr2line", "-a", "-f", "-i", "-e", elf, *[hex(a) for a in addrs]]).stdout
    cur, frames = None, []

    def flush():
        if cur is not None and frames:
            names = [f for f, _ in frames]
            # the outermost frame, or the step's copy that boids_step only dispatches to (guards.py)
            k = next((j for j, f in enumerate(names) if f in STEP_COPIES), len(names) - 1)
            out[cur] = (names[:k], *file_line(frames[k][1]))

    lines = res.splitlines()
    i = 0
    while i < len(lines):
        if re.match(r"^0x[0-9a-f]+$", lines[i]):
            flush()
            cur, frames = int(lines[i], 16), []
            i += 1
        else:
            frames.append((lines[i], lines[i + 1] if i + 1 < len(lines) else "?:0"))
            i += 2
    flush()
    return out


@dataclass
class Part:
    insns: int = 0
    cycles: int = 0


@dataclass
class FrameProfile:
    variant: str
    n: int
    total_insns: int
    total_cycles: int
    parts: dict  # part -> Part
    div_from: dict  # the part whose code asked for the division -> Part
    draw: Part
    draw_funcs: dict  # function -> Part
    digest_insns: int
    mix: object  # m4k_cycles.Mix of the frame
    draw_time: DrawTime  # the drawing's CPU and SPI on one timeline
    pairs: PairCounts
    spi_bytes: int
    bound: Bound | None = None
    extra: dict = field(default_factory=dict)


def attribute(elf: Path, log: Path, fw_c: Path, model: CycleModel, byte_cycles: float):
    """(frame parts, division callers, drawing, drawing by function,
    digest instructions, frame mix, drawing's SPI timeline) of one image's
    qemu log; byte_cycles: an SPI byte's time in CPU cycles."""
    sym = Symbols(elf)
    mark = sym.addrs[sym.names.index("budget_mark")]
    tr = read_trace(log, mark, 3, callee=lambda pc: sym.of(pc) in DIV_FUNCS | MEM_FUNCS, ordered=(2,))
    frame, digest, draw = tr.segments
    labels = PL.label_lines(fw_c.read_text())
    # (header, line) -> the inline function there, for fixed.h and the parts it includes (fixed_roots.h)
    fixed = {(h.name, ln): fn for h in sorted((RUNTIME_DIR / "core").glob("fixed*.h"))
             for ln, fn in fixed_h_functions(h.read_text()).items()}
    # and boids_flock.c's own inline helpers the reading leaves unplaced (the means' table's)
    fixed |= {(fw_c.name, ln): fn for ln, fn in fixed_h_functions(fw_c.read_text()).items() if ln not in labels}
    own = sorted({ins.addr for pc in frame.runs for ins in tr.blocks[pc]
                  if sym.of(ins.addr) not in DIV_FUNCS | MEM_FUNCS})
    where = addr2line(elf, own)

    # instructions with a generated line, by address: an inlined helper whose
    # debug info lost its caller (GCC at -O1 does, for a lone fx_sub)
    # belongs with the generated line just before it
    mine = [a for a in own if (w := where.get(a) or ((), "", 0))[1] == fw_c.name and (w[1], w[2]) not in fixed]

    def line_part(addr: int) -> str:
        w = where.get(addr)
        if w is not None and (w[1], w[2]) in fixed and not w[0]:
            k = bisect.bisect_left(mine, addr)
            w = where[mine[k - 1]] if k and sym.of(mine[k - 1]) == sym.of(addr) else w
        if w is None or w[1] != fw_c.name:
            return PL.OTHER
        return labels.get(w[2], PL.OTHER)

    def part_of(ins) -> str:
        f = sym.of(ins.addr)
        if f in DIV_FUNCS:
            return PL.DIV
        if f in MEM_FUNCS:
            return PL.MEM
        w = where.get(ins.addr, ([], "", 0))
        inl = set(w[0]) | {fixed.get((w[1], w[2]), "")}
        if f == "main":
            return PL.HARNESS
        if inl & SQRT_INLINE:
            return PL.SQRT
        if inl & DIV_INLINE or ins.mnem in ("div", "divu"):
            return PL.DIV
        return line_part(ins.addr)

    parts: dict[str, Part] = {}
    div_from: dict[str, Part] = {}
    for pc, runs in frame.runs.items():
        blk = tr.blocks[pc]
        costs = block_costs(model, blk)
        bi = branch_index(blk)
        taken = frame.taken.get(pc, 0)
        lib = sym.of(pc) in DIV_FUNCS | MEM_FUNCS
        callers = {c: k for (b, c), k in frame.via.items() if b == pc} if lib else {None: runs}
        for i, (ins, cyc) in enumerate(zip(blk, costs)):
            p = part_of(ins)
            c_tot = cyc * runs + (taken * model.flash_ws if i == bi else 0)
            acc = parts.setdefault(p, Part())
            acc.insns += runs
            acc.cycles += c_tot
            if p in (PL.DIV, PL.SQRT):
                for caller, k in callers.items():
                    src = line_part(tr.blocks[caller][branch_index(tr.blocks[caller])].addr) if lib else line_part(ins.addr)
                    src = "code with no boids_flock.c line" if src == PL.OTHER else src
                    d = div_from.setdefault((p, src), Part())
                    d.insns += k
                    d.cycles += round(c_tot * k / runs)
    dmix = segment_mix(model, tr.blocks, draw.runs, draw.taken)
    dfun: dict[str, Part] = {}
    for pc, runs in draw.runs.items():
        for ins, cyc in zip(tr.blocks[pc], block_costs(model, tr.blocks[pc])):
            d = dfun.setdefault(sym.of(ins.addr), Part())
            d.insns += runs
            d.cycles += cyc * runs
    fmix = segment_mix(model, tr.blocks, frame.runs, frame.taken)
    events = port_events(elf, [ins for pc in draw.runs for ins in tr.blocks[pc]])
    dtime = draw_time(tr.blocks, draw.order, sum(draw.taken.values()), events, model, byte_cycles)
    return parts, div_from, Part(dmix.insns, dmix.cycles), dfun, digest.instructions(tr.blocks), fmix, dtime


def wait_lines(port: str) -> dict:
    """The port source's status loads by line: line -> 'idle' (a wait for
    the SPI idle) or 'room' (for room in its FIFO)."""
    kinds = {}
    for i, ln in enumerate(port.splitlines(), 1):
        if "& SPI_IDLE_MASK) != " in ln or "/* SPI idle wait" in ln:  # the test, or a load marked as its
            kinds[i] = "idle"
        elif "spi[SPI_STAT]) & SPI_TBF" in ln:
            kinds[i] = "room"
    return kinds


def port_events(elf: Path, insns: list) -> dict:
    """The stub SPI port's accesses among the drawing's instructions:
    address -> 'push' (a store to SPI_BUF: by its offset from the SPI
    block's base, since GCC may put the last one in a return's delay slot,
    where the line table names the closing brace), 'idle' or 'room' (the
    status load of a wait for idle, or for room in the FIFO: by the port's
    source line, addr2line without -i, the innermost, inlined, line)."""
    port = PORT_C.read_text()
    buf = int(re.search(r"SPI_BUF = 0x([0-9a-fA-F]+) / 4", port).group(1), 16)  # bytes from the base
    kinds = wait_lines(port)
    addrs = sorted({ins.addr for ins in insns})
    # two lines an address (a location may end in " (discriminator k)")
    res = _run(["mipsel-linux-gnu-addr2line", "-a", "-e", elf, *[hex(a) for a in addrs]]).stdout.splitlines()
    line_of = {}
    for a, loc in zip(res[0::2], res[1::2]):
        fname, ln = file_line(loc)
        if fname == PORT_C.name:
            line_of[int(a, 16)] = ln
    out = {}
    for ins in insns:
        if ins.addr not in line_of:
            continue
        if ins.mnem in STORES and ins.ops and ins.ops[-1].startswith(f"{buf}("):
            out[ins.addr] = "push"
        elif ins.mnem in LOADS and line_of[ins.addr] in kinds:
            out[ins.addr] = kinds[line_of[ins.addr]]
    return out


def profile_one(fw: Path, state: Path, work: Path, variant: str, n: int, spi_bytes: int,
                model: CycleModel, spi_hz: int = 20_000_000) -> FrameProfile:
    elf = build_m4k_driver(fw, state, "-O1", work / f"profile_{n}.elf", draw=True)
    log = work / f"profile_{n}.qemu.log"
    res = subprocess.run([QEMU, "-d", "in_asm,exec,nochain", "-D", str(log), str(elf)],
                         capture_output=True, text=True, timeout=3600)
    try:
        if res.returncode != 0:
            raise BudgetError(f"{elf} under {QEMU} exited {res.returncode} (1: its frame differs from the host's)")
        parts, div_from, draw, dfun, dig, mix, dtime = attribute(elf, log, fw / "boids_flock.c", model,
                                                                 8 * F_CPU / spi_hz)
    finally:
        log.unlink(missing_ok=True)
    pairs = pair_counts(state, fw)
    if dtime.spi_bytes != spi_bytes:
        raise BudgetError(f"the drawing's SPI timeline pushed {dtime.spi_bytes} bytes, the host counted {spi_bytes}")
    return FrameProfile(variant, n, mix.insns, mix.cycles, parts, div_from, draw, dfun, dig, mix, dtime, pairs,
                        spi_bytes)


@dataclass
class Profile:
    spec_name: str
    fps: int
    spi_hz: int
    cpi: float
    warmup: int
    seed: int
    model: CycleModel
    frames: list  # [FrameProfile]
    builds: dict = field(default_factory=dict)  # variant -> cost.VariantBuild (for --cost-table)

    def frame_ms(self, fp: FrameProfile, how: str) -> float:
        spi = fp.spi_bytes * 8 / self.spi_hz
        if how == "model":  # the drawing's CPU and SPI on one timeline
            return (fp.total_cycles + fp.draw_time.cycles) / F_CPU * 1000
        return (fp.total_insns * self.cpi / F_CPU + spi) * 1000

    def points(self, variant: str, how: str) -> list:
        """[(N, frame ms)] of a variant, by N: 'model', 'cpi' or 'bound'."""
        if how == "bound":
            return sorted((fp.n, fp.bound.frame_ms) for fp in self.frames if fp.variant == variant)
        return sorted((fp.n, self.frame_ms(fp, how)) for fp in self.frames if fp.variant == variant)

    def fits(self, variant: str, how: str, period: float | None = None) -> str:
        from codegen.drivers.pic32.budget.cost import largest_n
        return largest_n(self.points(variant, how), 1000 / self.fps if period is None else period)

    def cost_table(self, path, variant: str | None = None):
        """Write the cycle model's frame times of `variant` (default: the
        first profiled) for boids_host --m4k-cost (codegen/drivers/pic32/budget/cost.py)."""
        from codegen.drivers.pic32.budget.cost import write_cost_table
        variant = variant or self.frames[0].variant
        how = (f"(update + drawing CPU + waits for the SPI) cycles of the M4K cycle model and the SPI "
               f"timeline / {F_CPU / 1e6:g} MHz (-O1)")
        return write_cost_table(path, self.spec_name, variant, self.builds[variant], how,
                                self.points(variant, "model"), self.fps)

    def report(self) -> str:
        from codegen.drivers.pic32.budget.report import report
        return report(self)


def run_profile(spec_path: str, boids: list[int], warmup: int = 300, seed: int | None = None, cpi: float = 1.5,
                which: str = "both", progress=None, model: CycleModel | None = None) -> Profile:
    from codegen.output.pipeline import checked_model

    miss = missing_tools()
    if miss:
        raise BudgetError(f"missing tools: {', '.join(miss)} (bash tools/setup.sh installs them)")
    model = model or CycleModel()
    spec = checked_model(spec_path).spec
    seed = spec.seed if seed is None else seed
    from codegen.drivers.pic32.budget.cost import VariantBuild

    cap = max(max(boids), 1)
    frames, builds = [], {}
    with tempfile.TemporaryDirectory(prefix="boids-profile-") as tmp:
        tmp = Path(tmp)
        for vname, kw in variants_for(spec, which):
            sp = spec_variant(spec, capacity=max(cap, spec.flock.capacity), **kw)
            vdir = tmp / re.sub(r"\W+", "_", vname)
            builds[vname] = VariantBuild(render_variant(sp, spec_path, vdir).hash, sp.flock.capacity)
            fw = vdir / "firmware"
            host = build_host_driver(fw, vdir / "budget_host")
            for n in boids:
                state = vdir / f"state_{n}.bin"
                res = _run([host, str(n), str(warmup), str(seed), state])
                spi = host_value(res.stdout, "spi_bytes")
                fp = profile_one(fw, state, vdir, vname, n, spi, model, spec.board.spi_hz)
                pixels = host_value(res.stdout, "pixels")
                fp.bound = lower_bound(fp.pairs, n, spi, spec.board.spi_hz, model, pixels=pixels)
                frames.append(fp)
                if progress:
                    progress(fp)
    return Profile(spec.name, spec.frame_rate, spec.board.spi_hz, cpi, warmup, seed, model, frames, builds)


def profile_cli(a, boids: list[int], err) -> int:
    """`boidsgen budget --profile`."""
    try:
        p = run_profile(a.spec, boids, warmup=a.warmup, seed=a.seed, cpi=a.cpi, which=a.variant,
                        progress=lambda fp: print(f"  profiled {fp.variant} N={fp.n}", file=sys.stderr, flush=True))
    except BudgetError as e:
        err(str(e))
        return 1
    print(p.report())
    if a.cost_table:
        print(f"cost table (cycle model, {p.frames[0].variant}): {p.cost_table(a.cost_table)}")
    return 0
