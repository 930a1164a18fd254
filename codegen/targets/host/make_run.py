"""Run the generated Makefile.

make expands `$(...)` in every variable, also one given on its command
line, and the recipes hand paths to /bin/sh unquoted; neither can spell a
space or ':' in a path. So no project path ever reaches make: it runs in the
firmware folder and gets BUILD as a path relative to it, which holds only our
own folder names (build/<name>) whatever the project folder is called; a
relative path make still cannot spell is refused, naming it. RUNTIME is the
generated Makefile's own: '..'s and firmware_runtime, the project's runtime
or the output's copy (codegen/spec/runtime_files.py), never the tool's.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from codegen.spec.folder_lock import folder_lock
from codegen.targets.host import build_cache, compiler_cache
from codegen.spec.escape import UnsafePath, make_path
from pysim.one_line import one_line

MAKE_TIMEOUT = 900  # seconds; a whole firmware builds in a few


class BuildError(RuntimeError):
    """A build step failed: the first line says which (the paths in it shown
    escaped, pysim/one_line.py), then the tool's own output, as it printed it."""


def make_relative(path: Path, fw_dir: Path, what: str) -> str:
    """path relative to fw_dir (both taken physically, as the kernel walks '..'),
    as make can read it; BuildError naming it otherwise."""
    rel = os.path.relpath(Path(path).resolve(), Path(fw_dir).resolve())
    try:
        return make_path(Path(rel).as_posix())
    except UnsafePath as e:
        raise BuildError(f"{one_line(path)}: the {what}, relative to {one_line(fw_dir)}: {one_line(e)}; move it "
                         "to a folder whose name has none of them") from None


def make(fw_dir: Path, target: str, build: Path, extra: list[str] | None = None,
         check: bool = True) -> subprocess.CompletedProcess:
    """make `target` in fw_dir, its outputs in `build` (relative paths only, above).
    A failure is a BuildError, or with check=False the result for the caller to read."""
    if shutil.which("make") is None:
        raise BuildError("`make` is not installed (apt-get install make)")
    rel_build = make_relative(build, fw_dir, "build folder")
    cmd = ["make", "-s", f"-j{os.cpu_count() or 1}", target, f"BUILD={rel_build}"] + (extra or [])
    where = one_line(f"{' '.join(cmd)} (in {fw_dir})")  # the first line of a failure: paths escaped
    env = {k: v for k, v in os.environ.items() if k != "RUNTIME"}  # `RUNTIME ?=`: the Makefile's, not the shell's
    Path(build).mkdir(parents=True, exist_ok=True)  # as the recipes' `mkdir -p $(BUILD)` would (the caller checked it)
    try:
        with folder_lock(Path(build)), build_cache.cached(fw_dir, target, build, extra or []) as entry:
            if entry.hit:  # the same inputs built before ($BOIDSGEN_BUILD_CACHE): its output copied
                return subprocess.CompletedProcess(cmd, 0, "", "")
            res = subprocess.run(cmd + compiler_cache.make_variables(), capture_output=True, text=True,
                                 timeout=MAKE_TIMEOUT, cwd=Path(fw_dir).resolve(), env=env)
            if res.returncode == 0:
                entry.keep()
    except subprocess.TimeoutExpired:
        raise BuildError(f"{where} did not finish within {MAKE_TIMEOUT} s") from None
    if check and res.returncode != 0:
        raise BuildError(f"{where} failed:\n{res.stdout}{res.stderr}")
    return res
