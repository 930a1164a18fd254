"""Where things live for a spec: its project root, generated/ and build/.

A spec's outputs follow from its own path, never from the working folder:
the root is the folder that holds the spec's `spec/` folder (the project
layout), or else the spec's own folder. So a spec anywhere builds where it
is, and two specs can only meet in one output folder when they sit in the
same project and share a `name:` (refused by pipeline.claim_output).
The path is the one given, made absolute without following links: a spec
that is a link to another project's spec builds here, not there (writes
never go through a link, codegen/spec/safe_paths.py).
"""
from __future__ import annotations

import os
from pathlib import Path


def _spec_abs(spec_path: str | Path) -> Path:
    return Path(os.path.abspath(spec_path))


def project_root(spec_path: str | Path) -> Path:
    p = _spec_abs(spec_path)
    return p.parent.parent if p.parent.name == "spec" else p.parent


def source_name(spec_path: str | Path) -> str:
    """The spec's path as the banners name it: relative to its project root."""
    p = _spec_abs(spec_path)
    return p.relative_to(project_root(p)).as_posix()


def output_dir(spec_path: str | Path, name: str) -> Path:
    return project_root(spec_path) / "generated" / name


def build_dir(spec_path: str | Path, name: str) -> Path:
    return project_root(spec_path) / "build" / name
