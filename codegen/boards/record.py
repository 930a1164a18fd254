"""What a target is: one record per board (or host build) boidsgen makes
firmware for.

The record holds the board's facts (core, clock, memories, cores) and names
its parts in the stages above this one: its pass list, its build, its
parity runner, its budget, its project files. A part is named as
"module:function" and imported only when asked for (`Entry.load`): this
layer is below the model, so it cannot import what sits above it, and a
command that uses one board loads nothing of the others. LLVM's target
registry works the same way: targets register factories, not objects.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """A function of a stage above, as "package.module:function"."""
    path: str

    def load(self):
        module, _, name = self.path.partition(":")
        return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Target:
    """One target. `board`: a spec's board.target may name it (the host builds
    are targets of parity only). The facts are the datasheet's; the parts are
    None where the target has none (no budget, no project of its own)."""
    name: str
    title: str                 # one line: what it is, for --help and `boidsgen targets`
    board: bool
    core: str                  # the CPU core the firmware runs on
    clock_hz: int              # the system clock the firmware assumes
    flash_bytes: int
    ram_bytes: int
    cores: int = 1             # cores the firmware can run the update on (split.py: a second core's part)
    ring_bytes: int = 8192     # the most RAM the pair ring may take (passes/pairs_once.py)
    multiply_slots: bool = False  # one-cycle multiply: ring slots padded to their alignment, not a power of two
    passes: Entry | None = None     # the C pass list for a spec: fn(spec) -> tuple of passes
    compiler: str = ""              # what builds its image: a pass `only_for` another compiler is refused
    templates: str | None = None    # its folder under codegen/targets/ holding templates/
    project: Entry | None = None    # its project files: fn(m, env, files, runtime) -> {path: text}
    always_project: bool = False    # its project files are rendered for every spec, not only one naming it
    check_folders: Entry | None = None  # fn(spec_path, out, bdir): refuses its build folders before any write
    build: Entry | None = None      # `boidsgen build`'s part: fn(spec_path, m, out, bdir, run_demo)
    image: Entry | None = None      # parity's firmware, after the host build: fn(spec_path, m, out, bdir) -> program
    trace: Entry | None = None      # parity's trace of that program: fn(program, frames, seed, boids, sets, size)
    ran_where: str = ""             # how parity names where the firmware ran (", in rp2040js")
    budget: Entry | None = None     # `boidsgen budget --target NAME`: fn(args, failed) -> exit status
    artefacts: tuple[str, ...] = ()  # what a student flashes, in the build folder
