"""The serial thread's commands on the M4K, for the frame's reserve
(reserve.py): each command line of the spec's table, parsed, executed and
answered by the board firmware itself (budget_cmd_m4k.c: the generated app
and command table, the runtime, budget_platform.c in place of the PIC32
layer), counted by blocks_plugin.c in one qemu run and priced by the cycle
model, with `watch` on (a change's `ev` line is part of its reply).

The reserve holds the worst of the lines a tuning session sends while the
frames run (`set`, the course's `s`, `get`, `stats`, `info`, `pause`,
`resume`, `adaptive`, `telemetry`, `echo`); `list`, `help`, `dump` and
`watch on` are answered once (at connect, on request, after a divergence,
at the lockstep's start: its first digest) and their frame is late: their
figures are printed, not reserved. `boids` and
`reset` change the flock itself and are not measured.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from codegen.drivers.pic32.budget.block_counts import run_counted
from codegen.drivers.pic32.budget.m4k_cycles import CycleModel
from codegen.drivers.pic32.budget.measure import BUDGET_DIR, MIPS_CC, RUNTIME_DIR, BudgetError, _run, m4k_cflags, m4k_libgcc

ONCE_LINES = ("watch on", "list", "help", "dump")


def command_lines(spec) -> list[str]:
    """One line of each command the reserve measures, then the ONCE ones."""
    name, p = next((k, v) for k, v in spec.params.items() if v.tunable)
    value = f"{p.default}"
    lines = [f"set {name} {value}", f"get {name}", "stats", "info", "pause", "resume", "adaptive off",
             "telemetry off", "echo off"]
    if p.id is not None:
        lines.insert(1, f"s {p.id} {value}")
    return lines + list(ONCE_LINES)


@dataclass
class CommandCost:
    line: str
    cycles: int
    insns: int

    @property
    def once(self) -> bool:
        return self.line in ONCE_LINES


def _c_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def build_command_image(fw: Path, lines: list[str], n: int, out: Path) -> Path:
    header = out.parent / "budget_cmd_lines.h"
    header.write_text("/* the command lines budget_cmd_m4k.c feeds (codegen/drivers/pic32/budget/commands.py) */\n"
                      f"#define BUDGET_CMD_BOIDS {n}\n"
                      "static const char *const budget_cmd_lines[] = {\n"
                      + "".join(f"    {_c_string(s)},\n" for s in lines) + "};\n")
    core = RUNTIME_DIR / "core"
    gen = [fw / f for f in ("boids_params.c", "boids_flock.c", "boids_app.c", "boids_commands.c", "boids_course.c")]
    rt = [core / f for f in ("fxdecimal.c", "serial_cmd.c", "cmd_reply.c", "cmd_core.c", "adaptive_spawn.c",
                             "course.c", "state_io.c", "watch.c", "draw.c", "font5x7.c", "tft_ili9340.c")]
    _run([MIPS_CC, *m4k_cflags("-O1", out.parent, fw, core), "-nostdlib", "-static", "-no-pie", "-T", BUDGET_DIR / "qemu_user.ld", "-Wl,--build-id=none",
          BUDGET_DIR / "start.S", BUDGET_DIR / "budget_cmd_m4k.c", BUDGET_DIR / "budget_platform.c",
          BUDGET_DIR / "budget_tft_port.c", BUDGET_DIR / "libc_budget.c",
          RUNTIME_DIR / "pic32" / "m4k_check" / "libc_str.c", *gen, *rt, m4k_libgcc(), "-o", out])
    return out


def command_costs(fw: Path, spec, n: int, plugin: Path, work: Path, model: CycleModel) -> list[CommandCost]:
    lines = command_lines(spec)
    elf = build_command_image(fw, lines, n, work / f"commands_{n}.elf")
    segs = run_counted(elf, plugin, work, model)
    if len(segs.insns) != 1 + len(lines):
        raise BudgetError(f"{elf}: {len(segs.insns) - 1} segments for {len(lines)} command lines")
    return [CommandCost(s, int(segs.cycles["taken"][k + 1]), int(segs.insns[k + 1])) for k, s in enumerate(lines)]
