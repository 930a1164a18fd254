"""`boidsgen budget`: how many boids a spec's firmware can hold on a
PIC32MX250 at its frame rate, measured rather than guessed.

For each flock size N and each variant (the spec as written, and the
spatial grid: synchronous order with performance.grid on), each in both
optimisation modes (performance.optimize: fast, and plain: none of the
target's passes, codegen/targets/pic32/pass_list.py), side by side:

1. warm up: the host build of the generated flock code runs N boids for
   `warmup` frames (a realistic, clustered flock, not a fresh spawn) and
   writes the whole state (flock_t, rng_t, parameters: 32-bit fields only,
   the same layout on x86-64 and mipsel) to a file; it also counts the SPI
   bytes one frame's erase + draw sends to the ILI9340 (host_ili9340.c),
   and apart from them what start-up sends once (tft_init and the first
   black screen: not part of any frame);
2. the same flock code, cross-compiled with mipsel-linux-gnu-gcc -march=m4k
   at -O1 (what XC32's free edition allows) and -O2, freestanding (our own
   startup, exit syscall; no libc: Debian's libc6-dev-mipsel-cross is not
   needed), loads that state and runs ONE boids_step between two marker
   calls under qemu-mipsel -d in_asm,exec,nochain; instructions = the sum
   over executed translation blocks, between the markers, of the block's
   instruction count. The image also checks its result against the host's.
3. cycles = instructions x CPI (assumed, --cpi, default 1.5: the M4K is a
   single-issue 5-stage pipeline at CPI ~1, plus flash wait states at
   40 MHz, MDU stalls on 32x32 multiplies and load-use stalls);
   `budget --profile` (codegen/drivers/pic32/budget/profile.py) replaces the flat CPI by
   a cycle model of the M4K (codegen/drivers/pic32/budget/m4k_cycles.py) and reports both;
   SPI time = bytes x 8 / spi_hz (drawing blocks on the SPI in the lab's
   driver, so it adds to the frame); frame = cycles / f_cpu + SPI time.
4. RAM per boid: the whole board image (m4k-check) linked at two capacities.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from codegen.boards.registry import PIC32
from codegen.spec.variants import spec_variant  # noqa: F401  (re-exported for bench/ and tests)
from codegen.spec.runtime_files import TOOL_RUNTIME as RUNTIME_DIR

from codegen.boards.pic32.clock import SYSCLK_HZ  # noqa: E402

BUDGET_DIR = RUNTIME_DIR / "pic32" / "budget"
MIPS_CC = "mipsel-linux-gnu-gcc"
QEMU = "qemu-mipsel"
CFLAGS_STRICT = ["-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]
F_CPU = SYSCLK_HZ
RAM_MAX = PIC32.ram_bytes


class BudgetError(RuntimeError):
    pass


def render_variant(spec, spec_path: str, outdir: Path):
    """Render a what-if variant of a spec (a larger capacity, another order)
    into a scratch outdir, for measuring; returns the GenModel. Not gated:
    the range analysis may refuse a capacity the spec never allows, and the
    commands that use this gate the spec as written first."""
    from codegen.model.gen_model import build_model
    from codegen.output.pipeline import emit

    m = build_model(spec, spec_path)
    emit(spec_path, m, Path(outdir), gated=True)
    return m


# ---------------------------------------------------------------- tools

def missing_tools() -> list[str]:
    return [t for t in ("gcc", MIPS_CC, QEMU) if shutil.which(t) is None]


RUN_TIMEOUT = 1800  # seconds for one build or qemu run (the largest flocks take a few minutes)


def _run(cmd, **kw) -> subprocess.CompletedProcess:
    try:
        res = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=RUN_TIMEOUT, **kw)
    except subprocess.TimeoutExpired:
        raise BudgetError(f"{' '.join(str(c) for c in cmd)} did not finish within {RUN_TIMEOUT} s") from None
    if res.returncode != 0:
        raise BudgetError(f"{' '.join(str(c) for c in cmd)} failed ({res.returncode}):\n{res.stdout}{res.stderr}")
    return res


def build_host_driver(fw: Path, out: Path, defines: tuple = ()) -> Path:
    """The warm-up / SPI-counting driver, natively, over the generated flock
    (defines: -D flags, e.g. BOIDS_PAIR_STATS for the tests)."""
    src = [BUDGET_DIR / "budget_host.c", fw / "boids_flock.c", fw / "boids_params.c",
           RUNTIME_DIR / "host" / "platform_host.c", RUNTIME_DIR / "host" / "host_ili9340.c", RUNTIME_DIR / "core" / "draw.c",
           RUNTIME_DIR / "core" / "font5x7.c", RUNTIME_DIR / "core" / "fxdecimal.c",
           RUNTIME_DIR / "core" / "tft_ili9340.c", RUNTIME_DIR / "host" / "host_image.c"]
    _run(["gcc", *CFLAGS_STRICT, "-O2", *(f"-D{d}" for d in defines), f"-I{fw}", f"-I{RUNTIME_DIR / 'core'}", f"-I{RUNTIME_DIR / 'host'}", *src,
          "-o", out])
    return out


M4K_ARCH = ["-march=m4k", "-EL", "-msoft-float", "-G0", "-mno-abicalls", "-fno-pic"]


def m4k_cflags(opt: str, *includes) -> list:
    """The budget's freestanding M4K compile (as `make m4k-check`: the
    m4k_check libc headers, no system ones), strict, at `opt`."""
    inc = _run([MIPS_CC, "-print-file-name=include"]).stdout.strip()
    return [*M4K_ARCH, "-ffreestanding", "-nostdinc", "-isystem", inc, "-isystem",
            str(RUNTIME_DIR / "pic32" / "m4k_check" / "include"), *CFLAGS_STRICT, opt, *(f"-I{d}" for d in includes)]


def m4k_libgcc() -> str:
    return _run([MIPS_CC, *M4K_ARCH, "-print-libgcc-file-name"]).stdout.strip()


def host_value(stdout: str, key: str) -> int:
    """A `key=N` line budget_host.c printed."""
    m = re.search(rf"^{key}=(\d+)$", stdout, re.M)
    if not m:
        raise BudgetError(f"budget_host printed no {key}=")
    return int(m.group(1))


def build_m4k_driver(fw: Path, state: Path, opt: str, out: Path, draw: bool = False, defines: tuple = ()) -> Path:
    """The one-frame image for qemu-mipsel: -march=m4k, freestanding. With
    draw (budget --profile): -g for the line table (the code is the same)
    and a third segment, the frame's drawing onto a stub SPI port; defines:
    -D flags (BUDGET_RUN_FRAMES=F: a whole run, codegen/drivers/pic32/budget/runs.py)."""
    cflags = m4k_cflags(opt, fw, RUNTIME_DIR / "core") + [f"-D{d}" for d in defines]
    extra = []
    if draw:
        cflags += ["-g", "-DBUDGET_DRAW"]
        extra = [BUDGET_DIR / "budget_tft_port.c", RUNTIME_DIR / "core" / "draw.c", RUNTIME_DIR / "core" / "tft_ili9340.c",
                 RUNTIME_DIR / "core" / "font5x7.c"]
    libgcc = m4k_libgcc()
    blob = out.with_suffix(".state.S")
    blob.write_text(f'    .section .rodata\n    .balign 4\n    .globl budget_state\nbudget_state:\n'
                    f'    .incbin "{state}"\n    .globl budget_state_end\nbudget_state_end:\n')
    _run([MIPS_CC, *cflags, "-nostdlib", "-static", "-no-pie", "-T", BUDGET_DIR / "qemu_user.ld",
          "-Wl,--build-id=none", BUDGET_DIR / "start.S", blob, BUDGET_DIR / "budget_m4k.c",
          BUDGET_DIR / "libc_budget.c", fw / "boids_flock.c", fw / "boids_params.c", RUNTIME_DIR / "core" / "state_io.c",
          RUNTIME_DIR / "core" / "fxdecimal.c", *extra, libgcc, "-o", out])
    return out


_TB_HEAD = re.compile(r"^IN:")
_INSN = re.compile(r"^0x([0-9a-f]+):\s")
_EXEC = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")


def count_instructions(log: Path, mark: int) -> int:
    """Instructions executed between the first two executions of the block
    at `mark` (budget_mark), from a qemu -d in_asm,exec,nochain log."""
    return count_segments(log, mark, 1)[0]


def count_segments(log: Path, mark: int, n: int) -> list[int]:
    """Instructions executed between consecutive executions of the block at
    `mark`: the first n segments (the frame, then the lockstep's digest)."""
    size: dict[int, int] = {}
    cur_pc, cur_n = None, 0
    marks, segs = 0, [0] * n
    with open(log, "r", errors="replace") as fh:
        for line in fh:
            if line.startswith("Trace"):
                mt = _EXEC.match(line)
                if not mt:
                    continue
                pc = int(mt.group(1), 16)
                if pc == mark:
                    marks += 1
                    if marks == n + 1:
                        break
                    continue
                if 1 <= marks <= n:
                    segs[marks - 1] += size[pc]
            elif line.startswith("IN:"):
                cur_pc, cur_n = None, 0
            elif line.startswith("0x"):
                mi = _INSN.match(line)
                if mi:
                    a = int(mi.group(1), 16)
                    if cur_pc is None:
                        cur_pc = a
                    cur_n += 1
                    size[cur_pc] = cur_n
    if marks < n + 1:
        raise BudgetError(f"{log}: the frame's markers were not all executed ({marks} of {n + 1})")
    return segs


def symbol_address(elf: Path, name: str) -> int:
    out = _run(["mipsel-linux-gnu-nm", elf]).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == name:
            return int(parts[0], 16)
    raise BudgetError(f"{elf}: no symbol {name}")


def run_frame_under_qemu(elf: Path, workdir: Path) -> tuple[int, int]:
    """Run the image; return the instructions of its one boids_step and of
    the lockstep's digest of the result (state_digest: `watch on`)."""
    log = workdir / (elf.name + ".qemu.log")
    res = subprocess.run([QEMU, "-d", "in_asm,exec,nochain", "-D", str(log), str(elf)],
                         capture_output=True, text=True, timeout=3600)
    if res.returncode != 0:
        raise BudgetError(f"{elf} under {QEMU} exited {res.returncode} (1: its frame differs from the "
                          f"host's):\n{res.stdout}{res.stderr}")
    try:
        frame, dig = count_segments(log, symbol_address(elf, "budget_mark"), 2)
        return frame, dig
    finally:
        log.unlink(missing_ok=True)


# ---------------------------------------------------------------- RAM

def ram_per_boid(spec, spec_path: str, workdir: Path) -> tuple[float, int, int]:
    """(bytes per boid, bytes independent of N, bytes of one entry of the
    pair ring: 0 without one) of the whole board image (make m4k-check:
    firmware + PIC32 layer + 1 KB stack), from two capacities; the ring
    (codegen/passes/pairs_once.py) grows with the capacity only up to its
    cap, so it is taken out of both."""
    from codegen.drivers.host_build import make

    sizes, entry = [], 0
    for cap in (64, 128):
        sp = spec_variant(spec, capacity=cap, size=min(spec.flock.size, cap))
        out = workdir / f"ram{cap}"
        render_variant(sp, spec_path, out)
        res = make(out / "firmware", "m4k-check", out / "build")
        mt = re.search(r"RAM (\d+) / \d+ bytes", res.stdout)
        if not mt:
            raise BudgetError(f"m4k-check printed no RAM size:\n{res.stdout}")
        code = (out / "firmware" / "boids_flock.c").read_text()
        ring = re.search(r"#define BOIDS_PAIR_RING (\d+)", code)
        if ring:
            entry = int(re.search(r"entry: (\d+) B", code).group(1))
        sizes.append(int(mt.group(1)) - (int(ring.group(1)) * entry if ring else 0))
    per = (sizes[1] - sizes[0]) / 64
    return per, int(round(sizes[0] - per * 64)), entry


def ram_line(per: float, fixed: int, entry: int) -> str:
    """RAM per boid and the largest flock the 32 KB hold (the ring's growth included)."""
    from codegen.passes.pairs_once import ring_size

    def ram(n: int) -> float:
        return fixed + per * n + (ring_size(n, entry) * entry if entry else 0)

    n = 0
    while per > 0 and ram(n + 1) <= RAM_MAX and n < 100000:
        n += 1
    ring = (f" + the pair ring ({entry} B an entry, a power of two entries up to the capacity's, "
            f"{ring_size(n, entry) * entry:,} B at {n})" if entry else "")
    return f"RAM {per:g} B per boid + {fixed:,} B (image, 1 KB stack){ring} -> at most {n} boids in 32 KB"


# ---------------------------------------------------------------- the table

@dataclass
class Row:
    variant: str
    n: int
    insns: dict = field(default_factory=dict)  # opt -> instructions of one boids_step
    digest_insns: dict = field(default_factory=dict)  # opt -> instructions of the lockstep's digest (watch on)
    spi_bytes: int = 0


@dataclass
class Budget:
    spec_name: str
    spi_hz: int
    fps: int
    cpi: float
    f_cpu: int
    rows: list
    ram: dict  # variant -> (per boid, fixed)
    warmup: int
    startup_bytes: int = 0  # tft_init, sent once
    clear_bytes: int = 0  # the first black screen, once
    startup_ms: int = 0  # tft_init's waits (reset, SWRESET, SLPOUT)
    builds: dict = field(default_factory=dict)  # variant -> cost.VariantBuild (for --cost-table)

    def frame_ms(self, row: Row, opt: str) -> float:
        return (row.insns[opt] * self.cpi / self.f_cpu + row.spi_bytes * 8 / self.spi_hz) * 1000

    def points(self, variant: str, opt: str) -> list:
        """[(N, frame ms)] of a variant, by N."""
        return sorted((r.n, self.frame_ms(r, opt)) for r in self.rows if r.variant == variant and opt in r.insns)

    def fits(self, variant: str, opt: str, period: float | None = None) -> str:
        """Largest N that fits the frame period (or `period` ms): the measured
        N, or between two measured N by linear interpolation of the frame time."""
        from codegen.drivers.pic32.budget.cost import largest_n
        return largest_n(self.points(variant, opt), 1000 / self.fps if period is None else period)

    def cost_table(self, path, variant: str | None = None, opt: str = "-O1"):
        """Write the cost table of `variant` (default: the first measured)
        for boids_host --m4k-cost (codegen/drivers/pic32/budget/cost.py)."""
        from codegen.drivers.pic32.budget.cost import write_cost_table
        variant = variant or self.rows[0].variant
        how = f"update instructions x CPI {self.cpi} / {self.f_cpu / 1e6:g} MHz ({opt}) + SPI bytes x 8 / SPI clock"
        return write_cost_table(path, self.spec_name, variant, self.builds[variant], how,
                                self.points(variant, opt), self.fps)

    def table(self) -> str:
        period = 1000 / self.fps
        out = [f"budget: spec '{self.spec_name}' on a PIC32MX250 at {self.f_cpu / 1e6:.0f} MHz, "
               f"{self.fps} fps ({period:.2f} ms, {self.f_cpu // self.fps:,} cycles a frame); "
               f"CPI {self.cpi} assumed; SPI {self.spi_hz / 1e6:g} MHz; flock after {self.warmup} warm-up frames",
               "",
               "| variant | N | instructions -O1 | -O2 | cycles -O1 | update ms -O1 | SPI bytes | SPI ms "
               "| frame ms -O1 | frame ms -O2 | fits 30 fps (-O1) |",
               "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: |"]
        for r in self.rows:
            o1, o2 = r.insns.get("-O1"), r.insns.get("-O2")
            cyc = o1 * self.cpi
            spi_ms = r.spi_bytes * 8 / self.spi_hz * 1000
            f1 = self.frame_ms(r, "-O1")
            f2 = self.frame_ms(r, "-O2") if o2 is not None else float("nan")
            o2 = f"{o2:,}" if o2 is not None else "-"
            out.append(f"| {r.variant} | {r.n} | {o1:,} | {o2} | {cyc:,.0f} | {cyc / self.f_cpu * 1000:.2f} "
                       f"| {r.spi_bytes:,} | {spi_ms:.2f} | {f1:.2f} | {f2:.2f} | {'yes' if f1 <= period else 'no'} |")
        out.append("")
        once = self.startup_bytes + self.clear_bytes
        out.append(f"start-up, once and not in any frame: {self.startup_bytes:,} SPI bytes of ILI9340 initialisation "
                   f"+ {self.clear_bytes:,} clearing the panel = {once:,} bytes, {once * 8 / self.spi_hz * 1000:.2f} ms "
                   f"(after tft_init's waits for reset, SWRESET and SLPOUT: {self.startup_ms} ms)")
        for r in self.rows[: len({r.n for r in self.rows})]:
            d = r.digest_insns.get("-O1")
            if d:
                out.append(f"watch on (lockstep digest, CRC-32 of the state) at {r.n} boids: {d:,} instructions "
                           f"a frame at -O1, {d * self.cpi / self.f_cpu * 1000:.2f} ms "
                           f"({d / max(r.insns['-O1'], 1) * 100:.1f} % of the update)")
        from codegen.drivers.pic32.budget.cost import holds_line
        for v in dict.fromkeys(r.variant for r in self.rows):
            per, fixed, entry = self.ram[v]
            out.append(f"{v}: largest N at {self.fps} fps: {self.fits(v, '-O1')} at -O1, {self.fits(v, '-O2')} at -O2; "
                       f"{holds_line(lambda p, v=v: self.fits(v, '-O1', p), self.fps, '-O1')}; "
                       f"{ram_line(per, fixed, entry)}")
        return "\n".join(out)


def variants_for(spec, which: str, optimize: str = "spec") -> list[tuple[str, dict]]:
    """The variants to measure: the spec as written ('brute' or 'grid' as it
    says) and the grid (synchronous + performance.grid); each in the
    optimisation modes `optimize` asks for: 'spec' the spec's own, 'both'
    fast and plain side by side (plain rows named ', plain'), or one of them."""
    own = "grid" if spec.performance.grid else f"brute ({spec.update_order})"
    vs = [(own, {})]
    if which in ("both", "grid") and not spec.performance.grid:
        vs.append(("grid (synchronous)", {"order": "synchronous", "grid": True}))
    if which == "grid":
        vs = vs[1:] or vs
    modes = {"spec": [spec.performance.optimize], "both": ["fast", "plain"]}.get(optimize, [optimize])
    return [(name + (", plain" if mode == "plain" else ""),
             kw if mode == spec.performance.optimize else {**kw, "optimize": mode})
            for name, kw in vs for mode in modes]


def run_budget(spec_path: str, boids: list[int], warmup: int = 300, seed: int | None = None, cpi: float = 1.5,
               which: str = "both", opts=("-O1", "-O2"), progress=None, optimize: str = "both") -> Budget:
    from codegen.output.pipeline import checked_model

    miss = missing_tools()
    if miss:
        raise BudgetError(f"missing tools: {', '.join(miss)} (bash tools/setup.sh installs them: "
                          f"apt-get install gcc gcc-mipsel-linux-gnu qemu-user)")
    spec = checked_model(spec_path).spec  # the spec as written passes the gate; its what-if sizes need not
    seed = spec.seed if seed is None else seed
    from codegen.drivers.pic32.budget.cost import VariantBuild

    cap = max(max(boids), 1)
    rows, ram, once, builds = [], {}, {}, {}
    with tempfile.TemporaryDirectory(prefix="boids-budget-") as tmp:
        tmp = Path(tmp)
        for vname, kw in variants_for(spec, which, optimize):
            sp = spec_variant(spec, capacity=max(cap, spec.flock.capacity), **kw)
            vdir = tmp / re.sub(r"\W+", "_", vname)
            m = render_variant(sp, spec_path, vdir)
            builds[vname] = VariantBuild(m.hash, sp.flock.capacity)
            fw = vdir / "firmware"
            host = build_host_driver(fw, vdir / "budget_host")
            ram[vname] = ram_per_boid(spec_variant(spec, **kw), spec_path, vdir)
            for n in boids:
                state = vdir / f"state_{n}.bin"
                res = _run([host, str(n), str(warmup), str(seed), state])
                spi = host_value(res.stdout, "spi_bytes")
                once = {k: host_value(res.stdout, k) for k in ("startup_bytes", "clear_bytes", "startup_ms")}
                row = Row(vname, n, spi_bytes=spi)
                for opt in opts:
                    elf = build_m4k_driver(fw, state, opt, vdir / f"frame_{n}{opt}.elf")
                    row.insns[opt], row.digest_insns[opt] = run_frame_under_qemu(elf, vdir)
                rows.append(row)
                if progress:
                    progress(row)
    return Budget(spec.name, spec.board.spi_hz, spec.frame_rate, cpi, F_CPU, rows, ram, warmup,
                  once.get("startup_bytes", 0), once.get("clear_bytes", 0), once.get("startup_ms", 0), builds)
