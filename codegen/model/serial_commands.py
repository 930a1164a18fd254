"""The serial command table: every command the firmware answers, defined once.

Rendered into the generated firmware (boids_commands.c: `boids_cmd_table`,
which serial_cmd.c dispatches from and `help` lists), into the simulator's
model (`COMMANDS`, which pysim/board/serial_client.py checks lines against) and
into the README's command list (`boidsgen commands`). The course interface's
controls (codegen/model/course.py) expand to lines of these commands.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    name: str
    args: str  # the arguments' usage after the name ("" for none)
    min_words: int  # words on the line, the name included
    max_words: int
    help: str
    changes: bool  # changes the simulation: the reply carries `frame=F`, `watch` sends an `ev` line
    handler: str  # the C function (firmware_runtime/core/cmd_core.c or the generated boids_commands.c)
    needs: str | None = None  # the spec section it needs (None: every spec)

    @property
    def usage(self) -> str:
        return f"{self.name} {self.args}".strip()


COMMANDS: tuple[Command, ...] = (
    Command("set", "NAME VALUE", 3, 3, "set a parameter to a decimal value", True, "cmd_set"),
    Command("s", "ID VALUE", 3, 3, "set the parameter with slider id ID (the course interface's sliders)",
            True, "cmd_s"),
    Command("get", "NAME", 2, 2, "show a parameter's value", False, "cmd_get"),
    Command("list", "", 1, 1, "every parameter with its range, default, id and unit", False, "cmd_list"),
    Command("info", "", 1, 1, "spec name, spec hash, format, firmware version, capacity, update order, fps",
            False, "cmd_info"),
    Command("stats", "", 1, 1, "time, boids, fps, frame time, frames, paused", False, "cmd_stats"),
    Command("boids", "N|+N|-N", 2, 2, "grow (spawning now) or shrink (newest first) the flock", True, "cmd_boids"),
    Command("reset", "[SEED]", 1, 2, "restart the flock (same size and parameters), optionally with a new seed",
            True, "cmd_reset"),
    Command("pause", "", 1, 1, "stop the animation", True, "cmd_pause"),
    Command("resume", "", 1, 1, "restart the animation", True, "cmd_resume"),
    Command("adaptive", "[on|off]", 1, 2, "adaptive spawn: add boids while frames leave slack, drop when late",
            False, "cmd_adaptive"),
    Command("watch", "[on|off] [EVERY]", 1, 3,
            "lockstep: send `fr FRAME DIGEST` every EVERY frames and `ev` lines for every change", False,
            "cmd_watch"),
    Command("dump", "[FRAME]", 1, 2, "the state of the current frame as trace rows", False, "cmd_dump"),
    Command("telemetry", "[on|off]", 1, 2, "a `tm` line of stats once a second", False, "cmd_telemetry"),
    Command("echo", "[on|off]", 1, 2, "echo typed characters (for a terminal)", False, "cmd_echo"),
    Command("help", "", 1, 1, "this list", False, "cmd_help"),
    Command("obstacle", "add X Y R|remove K|clear|list", 2, 5, "edit the obstacles", True, "cmd_obstacle",
            needs="obstacles"),
    Command("target", "[X Y|on|off]", 1, 3, "move, show or hide the target", True, "cmd_target", needs="target"),
)

NAMES = frozenset(c.name for c in COMMANDS)


def commands_for(spec) -> tuple[Command, ...]:
    """The commands a spec's firmware answers, in `help` order."""
    return tuple(c for c in COMMANDS if c.needs is None or getattr(spec, c.needs, None))


def markdown(spec) -> str:
    """The README's command list for a spec."""
    rows = ["| command | what it does |", "| --- | --- |"]
    def cell(text: str) -> str:  # a | inside a table cell must be escaped
        return text.replace("|", "\\|")

    rows += [f"| `{cell(c.usage)}` | {cell(c.help)} |" for c in commands_for(spec)]
    return "\n".join(rows) + "\n"
