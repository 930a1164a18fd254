"""The generator's stages import downward only (ARCHITECTURE.md's picture), at
the package level: a module of codegen/<stage>/ imports nothing from a later
stage (imports inside functions included). The imports that still go up are
listed here, each with why, and the list only shrinks: a new one fails, and
one removed must leave the list too (issue 51)."""
from __future__ import annotations

from .test_import_graph import graph

ORDER = ("boards", "spec", "lang", "model", "analysis", "passes", "targets", "output", "experiments", "commands")

STILL_UP = {
    # the build, budget and emulator drivers in each target's folder generate before they build; the
    # build folders' helpers (locks, safe paths, the runtime's place) live in output
    "codegen.targets.host.build -> codegen.output.pipeline",
    "codegen.targets.host.build -> codegen.output.safe_paths",
    "codegen.targets.host.build_cache -> codegen.output.folder_lock",
    "codegen.targets.host.make_run -> codegen.output.folder_lock",
    "codegen.targets.pic32.budget.cost -> codegen.output.render",
    "codegen.targets.pic32.budget.measure -> codegen.output.pipeline",
    "codegen.targets.pic32.budget.measure -> codegen.output.render",
    "codegen.targets.pic32.budget.profile -> codegen.output.pipeline",
    "codegen.targets.pic32.budget.runs -> codegen.output.pipeline",
    "codegen.targets.pic32.compile_check -> codegen.output.pipeline",
    "codegen.targets.rp2040.budget -> codegen.output.pipeline",
    "codegen.targets.rp2040.budget -> codegen.output.render",
    "codegen.targets.rp2040.build -> codegen.output.safe_paths",
    "codegen.targets.rp2040.build -> codegen.output.runtime_files",
    "codegen.targets.rp2040.build -> codegen.output.render",
    "codegen.targets.rp2040.build -> codegen.output.folder_lock",
    "codegen.targets.rp2040.tools -> codegen.output.runtime_files",
    "codegen.targets.rp2350.qemu -> codegen.output.runtime_files",
    "codegen.targets.rp2350.qemu -> codegen.output.safe_paths",
}


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
