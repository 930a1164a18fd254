"""The text of `boidsgen budget` over whole runs (codegen/drivers/pic32/budget/runs.py):
the reserve, then per variant and N the median, 99th percentile and worst
frame over every frame of every seed, the frames that do not fit the period
less the reserve, and one `worst frame:` line per row with the worst frame
under each flash model; then the largest N at the frame rate."""
from __future__ import annotations

import numpy as np

from codegen.drivers.pic32.budget.block_counts import FLASH_MODELS, HEADLINE
from codegen.drivers.pic32.budget.measure import F_CPU
from codegen.drivers.pic32.budget.runs import RowRuns, frame_ms


def worst(row: RowRuns, flash: str, spi_hz: int) -> tuple:
    """(ms, seed, frame number counted from 1) of the row's worst frame."""
    best = (-1.0, 0, 0)
    for run in row.seeds:
        ms = frame_ms(run, flash, spi_hz)
        k = int(np.argmax(ms))
        if ms[k] > best[0]:
            best = (float(ms[k]), run.seed, k + 1)
    return best


def spawn_line(reserves: dict, period: float) -> str:
    """The adaptive spawn (adaptive_spawn.h) times the frame on the board's
    clock, the interrupts and the digest that land in it included, and keeps
    it within ASPAWN_BUDGET_PM of the period: the rest must hold the
    reserve's parts outside that frame, the status line and a command."""
    from codegen.drivers.pic32.budget.cost import aspawn_budget_pm

    pm = aspawn_budget_pm()
    rest = period * (1000 - pm) / 1000
    outside = max(sum(r.parts[k][0] for k in ("status line", "serial command")) for r in reserves.values())
    ms = outside / F_CPU * 1000
    return (f"adaptive spawn: frames within {pm / 10:g} % of the period on the board's clock; the other {rest:.2f} ms "
            f"hold the status line and the worst command ({ms:.2f} ms at most): {'yes' if ms <= rest else 'NO'}")


def report(spec, rows: list, frames: int, seeds: list, reserves: dict) -> str:
    """reserves: (variant, N) -> Reserve."""
    fps, spi_hz = spec.frame_rate, spec.board.spi_hz
    period = 1000 / fps
    out = [f"budget: spec '{spec.name}' on a PIC32MX250 at {F_CPU / 1e6:.0f} MHz, {fps} fps ({period:.2f} ms a "
           f"frame); {frames:,} frames after spawn for each of seeds {', '.join(map(str, seeds))}; the M4K cycle "
           f"model, flash model '{HEADLINE}' (one wait state a taken branch); SPI at {spi_hz / 1e6:g} MHz charged "
           f"in full; a frame = erase + update + draw",
           ""]
    for (variant, n), r in reserves.items():
        out.append(f"reserve at {n} boids ({variant}): {r.ms():.2f} ms with watch on, {r.ms(False):.2f} ms off")
        out += r.lines()
    out += ["",
            "| variant | N | capacity | frame median ms | p99 ms | worst ms | worst at (seed, frame) "
            "| frames over the period less the reserve | of |",
            "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"]
    fits: dict = {}
    for row in rows:
        allms = np.concatenate([frame_ms(run, HEADLINE, spi_hz) for run in row.seeds])
        lim = period - reserves[(row.variant, row.n)].ms()
        ms, seed, k = worst(row, HEADLINE, spi_hz)
        over = int((allms > lim).sum())
        out.append(f"| {row.variant} | {row.n} | {row.capacity} | {np.median(allms):.2f} | "
                   f"{np.percentile(allms, 99):.2f} | {ms:.2f} | seed {seed}, frame {k} | {over:,} | {len(allms):,} |")
        fits.setdefault(row.variant, []).append((row.n, over == 0))
    out.append("")
    for row in rows:
        lim = period - reserves[(row.variant, row.n)].ms()
        ms, seed, k = worst(row, HEADLINE, spi_hz)
        band = ", ".join(f"{fm.name} {worst(row, fm.name, spi_hz)[0]:.2f}" for fm in FLASH_MODELS)
        out.append(f"worst frame: {ms:.2f} ms ({row.variant}, N={row.n}, seed {seed}, frame {k}; flash models: "
                   f"{band} ms); the period less the reserve: {lim:.2f} ms: {'fits' if ms <= lim else 'does NOT fit'}")
    for row in rows:
        parts = []
        for which in ("median", "worst"):
            seed, k, c, b = row.bounds[which]
            parts.append(f"{which} frame (seed {seed}, frame {k}) {c:,} cycles / {b.cycles:,.0f} = {c / b.cycles:.2f}x")
        out.append(f"ratio to the lower bound ({row.variant}, N={row.n}; CPU cycles, erase + update + draw): "
                   + "; ".join(parts))
    for variant, pts in fits.items():
        ok = [n for n, good in sorted(pts) if good]
        bad = [n for n, good in sorted(pts) if not good]
        first_bad = min(bad) if bad else None
        held = [n for n in ok if first_bad is None or n < first_bad]
        say = (f">= {max(held)} (every measured N fits)" if not bad else
               f"{max(held)} (of the measured N; {first_bad} does not fit)" if held else f"< {first_bad}")
        out.append(f"{variant}: largest N at {fps} fps in every frame of every seed, watch on: {say}")
    out.append(spawn_line(reserves, period))
    out.append("the worst frame's parts and its SPI timeline: boidsgen budget SPEC --profile --boids N "
               "--variant ... --warmup FRAME-1 --seed SEED")
    return "\n".join(out)
