"""A generated firmware with one edit to its boids_flock.c, against the
simulator: the tests that show a lowering's parity check can fail."""
from __future__ import annotations

import shutil
from pathlib import Path

from codegen.drivers.host_build import make
from codegen.commands.parity import firmware_trace, prepare, simulator_trace
from codegen.spec.project import output_dir
from pysim.trace import compare


def parity_of_mutant(spec: Path, out: Path, old: str, new: str, count: int | None = None,
                     frames: int = 40, seed: int = 5, n: int = 450) -> tuple:
    """(the firmware's first difference from the simulator, the mutant's),
    each None where they agree; the mutant replaces every `old` by `new`
    (`count`: how many there must be, else at least one)."""
    m, exe, model = prepare(str(spec))
    fw = out / "firmware"
    shutil.copytree(output_dir(str(spec), m.name), out, dirs_exist_ok=True)  # with the runtime it carries, if any
    c = (fw / "boids_flock.c").read_text()
    assert (c.count(old) == count) if count is not None else c.count(old) >= 1
    (fw / "boids_flock.c").write_text(c.replace(old, new))
    make(fw, "host", out / "build")
    sim = simulator_trace(model, frames, seed, n, ()).splitlines()
    return (compare(firmware_trace(exe, frames, seed, n, ()).splitlines(), sim),
            compare(firmware_trace(out / "build" / "boids_host", frames, seed, n, ()).splitlines(), sim))
