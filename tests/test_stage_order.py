"""The generator's stages import downward only (ARCHITECTURE.md's picture), at
the package level: a module of codegen/<stage>/ imports nothing from a later
stage (imports inside functions included). The imports that still go up are
listed here, each with why, and the list only shrinks: a new one fails, and
one removed must leave the list too (issue 51)."""
from __future__ import annotations

from .test_import_graph import graph

ORDER = ("boards", "spec", "lang", "model", "analysis", "passes", "targets", "output", "drivers", "experiments",
         "commands")

STILL_UP: set[str] = set()  # every stage imports only the stages below it


def _stage(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "codegen" and len(parts) > 2 and parts[1] in ORDER else None


def upward() -> set[str]:
    out = set()
    for a, bs in graph().items():
        for b in bs:
            sa, sb = _stage(a), _stage(b)
            if sa and sb and ORDER.index(sb) > ORDER.index(sa):
                out.add(f"{a} -> {b}")
    return out


def test_every_stage_imports_downward_but_the_listed():
    up = upward()
    assert not up - STILL_UP, "imports that go up the stages (ARCHITECTURE.md):\n" + "\n".join(sorted(up - STILL_UP))
    assert not STILL_UP - up, "gone, so take them off STILL_UP:\n" + "\n".join(sorted(STILL_UP - up))


def test_every_stage_is_in_the_order():
    from .conftest import ROOT

    stages = {p.name for p in (ROOT / "codegen").iterdir() if (p / "__init__.py").is_file()}
    assert stages - {"rules"} == set(ORDER), stages  # rules/: the library's YAML, no code
