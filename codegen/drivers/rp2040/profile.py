"""Where an RP2040 frame's cycles go: `boidsgen budget --target rp2040 --profile`.

The headless image runs in rp2040js with the runner's --pc-hist (the cycles
spent at each instruction's address), and the histogram is folded three
ways: by function (arm-none-eabi-nm's sized symbols), by the flock code's
block (the generated boids_flock.c's enclosing comment: "the band below",
"the rest: outside the protected zone", ... where the inlined runtime's
lines fold into the flock code's line that called them) and by source line.
The cycles the core slept (waiting for the next millisecond's timer) are
the run's cycles less the histogram's.
"""
from __future__ import annotations

import re
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from codegen.targets.host.make_run import BuildError

FLOCK_C = "boids_flock.c"
_COMMENT = re.compile(r"/\* ?(.*?) ?\*/")


@dataclass(frozen=True)
class Profile:
    cycles: int  # the whole run's
    by_function: Counter
    by_block: Counter  # the flock code's enclosing comment, or the function for code outside it
    by_line: Counter  # "file:line  text"


def read_hist(path: Path) -> dict[int, int]:
    out = {}
    for ln in path.read_text().splitlines():
        if ln.strip():
            addr, cyc = ln.split()
            out[int(addr, 16)] = int(cyc)
    return out


def _owner(funcs: list[tuple[int, int, str]], pc: int) -> str:
    lo, hi = 0, len(funcs)
    while lo < hi:  # the last function starting at or before pc
        mid = (lo + hi) // 2
        if funcs[mid][0] <= pc:
            lo = mid + 1
        else:
            hi = mid
    if lo and pc < funcs[lo - 1][0] + funcs[lo - 1][1]:
        return funcs[lo - 1][2]
    return "(no symbol)"


def _chains(elf: Path, pcs: list[int]) -> dict[int, list[str]]:
    """pc -> its inline chain of "file:line", innermost first (arm-none-eabi-addr2line -i)."""
    res = subprocess.run(["arm-none-eabi-addr2line", "-i", "-a", "-e", str(elf)],
                         input="\n".join(hex(p) for p in pcs) + "\n", capture_output=True, text=True, timeout=300)
    if res.returncode != 0:
        raise BuildError(f"arm-none-eabi-addr2line {elf} failed: {res.stderr.strip()}")
    out, cur = {}, None
    for ln in res.stdout.splitlines():
        if ln.startswith("0x"):
            cur = int(ln, 16)
            out[cur] = []
        elif ln.strip() and cur is not None:
            out[cur].append(ln.split()[0])
    return out


def _blocks(source: list[str]) -> list[str]:
    """Each line's enclosing block comment in the flock code: the nearest line above it, less indented,
    that holds a comment (the generated step labels its loops so)."""
    label, stack = [""] * len(source), []  # (indent, comment) of the open blocks
    for k, text in enumerate(source):
        if not text.strip():
            label[k] = stack[-1][1] if stack else ""
            continue
        ind = len(text) - len(text.lstrip())
        while stack and stack[-1][0] >= ind:
            stack.pop()
        label[k] = stack[-1][1] if stack else ""
        m = _COMMENT.search(text)
        if m and text.rstrip().endswith(("{", "*/")) and ("{" in text or text.strip().startswith("/*")):
            stack.append((ind, m.group(1)[:60]))
    return label


def fold(elf: Path, hist: dict[int, int], cycles: int, flock_c: Path) -> Profile:
    from codegen.targets.rp2040.emulator import symbols

    funcs = sorted((a, size, name) for name, (a, size, kind) in symbols(elf).items() if kind in "tTwW")
    chains = _chains(elf, sorted(hist))
    source = flock_c.read_text().splitlines()
    blocks = _blocks(source)
    by_function, by_block, by_line = Counter(), Counter(), Counter()
    for pc, c in hist.items():
        fn = _owner(funcs, pc)
        by_function[fn] += c
        chain = chains.get(pc, [])
        ours = [w for w in chain if w.rsplit("/", 1)[-1].startswith(FLOCK_C + ":")]
        where = (ours[-1] if ours else (chain[0] if chain else "?")).rsplit("/", 1)[-1]
        line = int(where.rsplit(":", 1)[1]) if ours and where.rsplit(":", 1)[1].isdigit() else 0
        text = source[line - 1].strip()[:50] if 0 < line <= len(source) else ""
        by_line[f"{where}  {text}".rstrip()] += c
        by_block[(blocks[line - 1] or f"{fn}: outside its labelled loops") if line else fn] += c
    return Profile(cycles, by_function, by_block, by_line)


def run_profile(spec_path, n: int, frames: int, seed: int, grid: bool, skip: int = 0) -> tuple[object, Profile]:
    """The profile of `frames` frames after the first `skip` (the densest frames come late in a run)."""
    from codegen.drivers.rp2040.budget import build_for
    from codegen.targets.rp2040.emulator import run_image

    m, b, out = build_for(spec_path, [n], grid)
    with tempfile.TemporaryDirectory(prefix="boidsgen-profile-") as tmp:
        hist, marks = Path(tmp) / "hist", Path(tmp) / "marks"
        run = run_image(b.headless_elf, f"bench {skip + frames} {seed} {n}\n", marks=marks,
                        max_cycles=10_000_000 + (skip + frames + 1) * max(n, 10) ** 2 * 2_000, pc_hist=hist,
                        hist_frames=(skip, skip + frames))
        if run.end != "bkpt":
            raise BuildError(f"RP2040 profile: {n} boids did not finish {skip + frames} frames (rp2040js)")
        starts = [int(ln.split()[1]) for ln in marks.read_text().splitlines() if ln.split()[:1] == ["1"]]
        if len(starts) != skip + frames:
            raise BuildError(f"RP2040 profile: {len(starts)} frame marks for {skip + frames} frames")
        # the profiled frames run to the image's end: from their first frame's BKPT #1
        return m, fold(b.headless_elf, read_hist(hist), run.cycles - starts[skip], out / "firmware" / FLOCK_C)


def profile_lines(m, p: Profile, n: int, frames: int, seed: int, top: int = 12, skip: int = 0) -> list[str]:
    busy = sum(p.by_function.values())
    pct = lambda c: f"{c / p.cycles * 100:6.2f} %"  # noqa: E731
    grid = ", grid" if m.spec.performance.grid else ""
    lines = [f"profile: {m.name} on the RP2040, {m.spec.update_order}{grid}, {n} boids, seed {seed}, "
             + (f"frames {skip} to {skip + frames - 1}" if skip else f"{frames} frames after spawn")
             + f": {p.cycles:,} cycles in rp2040js (both parts of a split update on core 0)",
             f"{pct(p.cycles - busy)}  {p.cycles - busy:>13,}  asleep (waiting for the millisecond timer)",
             "by function:"]
    lines += [f"{pct(c)}  {c:>13,}  {name}" for name, c in p.by_function.most_common(top)]
    lines.append(f"by block of the flock code ({FLOCK_C}'s enclosing comment; runtime code inlined there counts as it):")
    lines += [f"{pct(c)}  {c:>13,}  {name}" for name, c in p.by_block.most_common(top)]
    lines.append("by source line (inlined runtime lines as the flock code's line that called them):")
    lines += [f"{pct(c)}  {c:>13,}  {name}" for name, c in p.by_line.most_common(top)]
    return lines
