"""The text of `boidsgen budget --profile` (codegen/drivers/pic32/budget/profile.py): per
flock size and variant, the frame's parts with instructions, model cycles
and a per-unit figure; the divisions by the rule that asked for them; the
drawing; the instruction mix; the lower bound and the ratio to it; then
the summary and the largest flock at the frame rate three ways."""
from __future__ import annotations

from codegen.drivers.pic32.budget import profile_lines as PL
from codegen.drivers.pic32.budget.measure import F_CPU
from codegen.drivers.pic32.budget.cost import holds_line


def _order(name: str) -> tuple:
    pre = [PL.PAIR_CAND, PL.PAIR_ROW, PL.PAIR_BOX]
    if name in pre:
        return (0, pre.index(name), name)
    if name.startswith("pair loop:"):
        return (1, 0, name)
    if name == PL.BOID:
        return (2, 0, name)
    if name.startswith("per boid:"):
        return (3, 0, name)
    post = [PL.DIV, PL.SQRT, PL.GRID_BUILD, PL.GRID_WALK, PL.MEM, PL.SETUP, PL.HARNESS, PL.OTHER]
    return (4, post.index(name) if name in post else 99, name)


def _per(name: str, part, fp) -> str:
    pc = fp.pairs
    visit = " visit" if pc.once else ""  # each pair once: a visit is two ordered pairs
    if name == PL.PAIR_CAND:
        return f"{part.cycles / max(pc.candidates // (1 + pc.once), 1):.1f} per candidate pair{visit}"
    if name == PL.PAIR_BOX:
        return f"{part.cycles / max(pc.in_box // (1 + pc.once), 1):.1f} per in-box pair{visit}"
    if name.startswith("pair loop:") and name != PL.PAIR_ROW:
        return f"{part.cycles / max(pc.in_range, 1):.1f} per in-range pair"
    if name in (PL.SETUP, PL.OTHER, PL.MEM, PL.HARNESS):
        return ""
    return f"{part.cycles / max(fp.n, 1):.0f} per boid"


def frame_text(prof, fp) -> str:
    pc = fp.pairs
    out = [f"### {fp.variant}, {fp.n} boids",
           f"pairs per frame: {pc.candidates:,} candidates ({pc.per_boid(pc.candidates):.1f} per boid), "
           f"{pc.in_box:,} in the box ({pc.per_boid(pc.in_box):.1f}), {pc.in_range:,} in range "
           f"({pc.per_boid(pc.in_range):.1f}; {pc.protected:,} of them in the protected range)"
           + (f"; each pair once: {pc.candidates // 2:,} candidate and {pc.in_box // 2:,} in-box visits" if pc.once
              else ""),
           "",
           "| part | instructions | % | cycles (model) | % | cycles per |",
           "| --- | ---: | ---: | ---: | ---: | --- |"]
    for name in sorted(fp.parts, key=_order):
        p = fp.parts[name]
        out.append(f"| {name} | {p.insns:,} | {p.insns / fp.total_insns * 100:.1f} | {p.cycles:,} "
                   f"| {p.cycles / fp.total_cycles * 100:.1f} | {_per(name, p, fp)} |")
    out.append(f"| **frame (boids_step)** | **{fp.total_insns:,}** | 100 | **{fp.total_cycles:,}** | 100 "
               f"| {fp.total_cycles / fp.n:.0f} per boid |")
    pix = max(fp.bound.pixels, 1) if fp.bound else 1
    out.append(f"| drawing: erase + draw, CPU (not in the frame above) | {fp.draw.insns:,} | | {fp.draw.cycles:,} | "
               f"| {fp.draw.cycles / pix:.0f} per pixel ({pix:,} pixels, {fp.spi_bytes:,} SPI bytes) |")
    dt = fp.draw_time
    out.append(f"| drawing: waiting for the SPI (timeline) | | | {dt.wait_cycles:,} | "
               f"| {dt.wait_cycles / pix:.0f} per pixel (the bytes shift {dt.busy_cycles:,.0f} cycles, "
               f"{1 - dt.wait_cycles / max(dt.busy_cycles, 1):.0%} of it hidden by drawing's own work) |")
    out.append("")
    callers = sorted(fp.div_from.items(), key=lambda kv: -kv[1].cycles)
    for kind in (PL.DIV, PL.SQRT):
        rows = [f"{src.removeprefix('per boid: ')} {p.insns:,} instructions / {p.cycles:,} cycles"
                for (k, src), p in callers if k == kind]
        if rows:
            out.append(f"{kind.split(' (')[0]} by the code that asked: " + "; ".join(rows))
    top = sorted(fp.draw_funcs.items(), key=lambda kv: -kv[1].insns)[:6]
    out.append("drawing by function: " + ", ".join(f"{f} {p.insns:,}" for f, p in top))
    out.append(f"frame instruction mix: {fp.mix.line()}; model CPI {fp.total_cycles / fp.total_insns:.2f}")
    if fp.bound:
        b = fp.bound
        gen = fp.total_cycles + fp.draw.cycles
        out.append(f"lower bound: {b.insns:,.0f} instructions, {b.cycles:,.0f} cycles ({pc.in_range:,} in-range pairs, "
                   f"{fp.n} boids, {b.pixels:,} pixels), its pixels' work overlapping SPI {b.spi_ms:.2f} ms "
                   f"= {b.frame_ms:.2f} ms; "
                   f"generated code (update + drawing CPU) / bound = {gen / b.cycles:.2f}x in cycles")
    out.append("")
    return "\n".join(out)


def report(prof) -> str:
    m = prof.model
    period = 1000 / prof.fps
    out = [f"budget --profile: spec '{prof.spec_name}' on a PIC32MX250 at {F_CPU / 1e6:.0f} MHz, {prof.fps} fps "
           f"({period:.2f} ms); -O1; flock after {prof.warmup} warm-up frames, seed {prof.seed}; SPI "
           f"{prof.spi_hz / 1e6:g} MHz",
           f"cycle model (codegen/drivers/pic32/budget/m4k_cycles.py, sources in BENCHMARKS.md): 1 a instruction, load-use +{m.load_use}, "
           f"32-bit mult/madd +{m.mult_extra}, mul +{m.mul_extra}, div +{m.div_extra}, taken branch "
           f"+{m.flash_ws} (flash wait state); CPI {prof.cpi} for comparison",
           ""]
    for fp in prof.frames:
        out.append(frame_text(prof, fp))
    out += ["| variant | N | frame instructions | cycles (model) | model CPI | update ms | drawing CPU ms | SPI ms "
            "| SPI waits ms | frame ms (model) | frame ms (CPI %g) | bound ms | ratio to bound |" % prof.cpi,
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for fp in prof.frames:
        spi = fp.spi_bytes * 8 / prof.spi_hz * 1000
        gen = fp.total_cycles + fp.draw.cycles
        out.append(f"| {fp.variant} | {fp.n} | {fp.total_insns:,} | {fp.total_cycles:,} "
                   f"| {fp.total_cycles / fp.total_insns:.2f} | {fp.total_cycles / F_CPU * 1000:.2f} "
                   f"| {fp.draw.cycles / F_CPU * 1000:.2f} | {spi:.2f} "
                   f"| {fp.draw_time.wait_cycles / F_CPU * 1000:.2f} | {prof.frame_ms(fp, 'model'):.2f} "
                   f"| {prof.frame_ms(fp, 'cpi'):.2f} | {fp.bound.frame_ms:.2f} | {gen / fp.bound.cycles:.2f}x |")
    out.append("")
    out.append("frame ms (model) = (update + drawing CPU + waits for the SPI) cycles / 40 MHz, the drawing's "
               "CPU and SPI on one timeline (codegen/drivers/pic32/budget/spi_timeline.py); frame ms (CPI) = update instructions x CPI "
               "/ 40 MHz + SPI time (as `boidsgen budget`: no overlap); bound ms = the lower bound's update cycles "
               "/ 40 MHz + the longer of its pixels' cycles and its SPI time")
    for v in dict.fromkeys(fp.variant for fp in prof.frames):
        out.append(f"{v}: largest N at {prof.fps} fps: {prof.fits(v, 'model')} (cycle model), "
                   f"{prof.fits(v, 'cpi')} (CPI {prof.cpi}), {prof.fits(v, 'bound')} (lower bound); "
                   f"{holds_line(lambda p, v=v: prof.fits(v, 'model', p), prof.fps, 'cycle model')}")
    return "\n".join(out)
