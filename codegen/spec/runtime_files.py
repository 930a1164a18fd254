"""Where the generated firmware finds firmware_runtime/, the hand-written C it builds on.

The runtime's place is a fact of the PROJECT, not of where the tool is
installed, so a generated Makefile or MPLAB X project never names the tool:

- the spec's project root (codegen/spec/project.py) holds `firmware_runtime/`
  (this repository, a clone of it) and the output folder lies inside that
  project: the generated files name it relatively (`../../../firmware_runtime`
  from generated/<name>/firmware/), as the committed output always did;
- otherwise (a spec in a folder of its own; output written outside its
  project, `generate -o` or the m4k check's temporary folder) the output
  folder gets its own copy, <output>/firmware_runtime/, written with the rest
  of the output, each file opened by a DO NOT EDIT note: the folder is
  self-contained (it can be copied to the PC with MPLAB X) and never names a
  path outside itself.

A relative path that only climbs ('..') and then enters `firmware_runtime`
holds no folder name of the user's, so make can always spell it.

The tool's own runtime is the `firmware_runtime/` beside the `codegen`
package: the repository's in a clone or an editable install, the wheel's
copy in site-packages (pyproject.toml ships it as package data).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import codegen

RUNTIME_FOLDER = "firmware_runtime"
TOOL_ROOT = Path(codegen.__file__).resolve().parent.parent  # the folder holding the codegen package
TOOL_RUNTIME = TOOL_ROOT / RUNTIME_FOLDER
# what the runtime is made of; pyproject.toml's package data names the same suffixes
SUFFIXES = (".c", ".h", ".S", ".ld", ".pio")
DEFAULT_LAYOUT = Path("generated") / "_"  # generated/<name>/ below the project root


@dataclass(frozen=True)
class RuntimePlace:
    source: Path  # the runtime whose files the output uses (read for the MPLAB X project's headers)
    rel: str      # that runtime as the generated firmware/ folder reaches it (posix, relative)
    copied: bool  # True: the output carries its own copy under firmware_runtime/


def runtime_files(runtime: Path) -> list[Path]:
    """The runtime's files, relative to it, sorted (subfolders included)."""
    return sorted(p.relative_to(runtime) for p in runtime.rglob("*")
                  if p.is_file() and p.suffix in SUFFIXES)


def place(project: Path | None, outdir: Path | None) -> RuntimePlace:
    """Where the output in outdir (None: generated/<name>/ of the project) finds
    its runtime. project None: the tool's own tree (in-memory renders)."""
    root = Path(os.path.abspath(project if project is not None else TOOL_ROOT))
    out = Path(os.path.abspath(outdir)) if outdir is not None else root / DEFAULT_LAYOUT
    own = root / RUNTIME_FOLDER
    if own.is_dir() and out.is_relative_to(root):
        return RuntimePlace(own, Path(os.path.relpath(own, out / "firmware")).as_posix(), False)
    source = own if own.is_dir() else TOOL_RUNTIME
    return RuntimePlace(source, f"../{RUNTIME_FOLDER}", True)


def note(rel: str, version: str) -> str:
    """The first line of a copied file (C, assembly and linker scripts all take /* */)."""
    return f"/* DO NOT EDIT: {RUNTIME_FOLDER}/{rel}, copied by boidsgen {version} beside the generated firmware */\n"


def copied_files(where: RuntimePlace, version: str) -> dict[str, str]:
    """Relative output path -> text of the runtime's copy ({} when none is needed)."""
    if not where.copied:
        return {}
    out = {}
    for rel in runtime_files(where.source):
        text = (where.source / rel).read_text(encoding="utf-8")
        out[f"{RUNTIME_FOLDER}/{rel.as_posix()}"] = note(rel.as_posix(), version) + text
    return out


def stray(files: dict[str, str], outdir: Path) -> list[str]:
    """Files under outdir/firmware_runtime/ that the render no longer holds."""
    d = Path(outdir) / RUNTIME_FOLDER
    if not d.is_dir() or d.is_symlink():
        return []
    return [rel for rel in (f"{RUNTIME_FOLDER}/{p.relative_to(d).as_posix()}" for p in sorted(d.rglob("*"))
                            if p.is_file() and "__pycache__" not in p.parts)
            if rel not in files]
