"""The optional extras (pyproject.toml's [project.optional-dependencies])
a command needs, checked before it prints anything.

A wheel installed without an extra has the commands but not their modules:
`boidsgen experiment` printed its header and an empty progress bar, then
ModuleNotFoundError. So every command that needs an extra is named in NEEDS
(boidsgen's subcommands; boids-gui is "gui"), and `refusal` says, in one
line, which extra is missing and how to install it: the wheel's command, or
in a clone of the repository the clone's.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

from codegen.spec.runtime_files import TOOL_ROOT

# extra -> (module imported, package pip installs for it); tests/test_hostile_inputs_round3.py checks
# these against pyproject.toml
EXTRAS = {
    "experiment": (("dask", "dask"), ("distributed", "distributed"), ("matplotlib", "matplotlib")),
    "gui": (("PIL", "pillow"),),
}
# command -> the extra it cannot run without (`compare` only skips its plot without `plot`: plot_hint)
NEEDS = {"experiment": "experiment", "boids-gui": "gui"}
# modules that are no pip extra: Python's own, sometimes packaged apart
SYSTEM = {"boids-gui": (("tkinter", "Tk for Python (tkinter: e.g. apt-get install python3-tk)"),)}


def _found(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _clone() -> Path | None:
    """The repository this tool runs from (an editable install), or None (a wheel)."""
    return TOOL_ROOT if (TOOL_ROOT / "pyproject.toml").is_file() else None


def install_command(extra: str) -> str:
    clone = _clone()
    return f"pip install -e '{clone}[{extra}]'" if clone else f"pip install 'boidsgen[{extra}]'"


def missing(extra: str) -> list[str]:
    """The packages of `extra` whose modules cannot be imported."""
    return [package for module, package in EXTRAS[extra] if not _found(module)]


def refusal(command: str) -> str | None:
    """Why `command` cannot run here (one line), or None."""
    for module, what in SYSTEM.get(command, ()):
        if not _found(module):
            return f"{command} needs {what}, which this Python lacks"
    extra = NEEDS.get(command)
    gone = missing(extra) if extra else []
    if gone:
        return (f"{command} needs the '{extra}' extra ({', '.join(gone)} not installed): "
                f"{install_command(extra)}")
    return None


def plot_hint(extra: str = "plot") -> str:
    """For a command whose plot is optional: how to get it."""
    return f"it needs matplotlib: {install_command(extra)}"
