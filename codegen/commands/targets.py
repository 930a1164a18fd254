"""boidsgen targets: every target in the registry (codegen/boards/registry.py),
its facts and what it has: its passes in each `performance.optimize` mode,
its build, parity, budget and what a student flashes."""
from __future__ import annotations

from types import SimpleNamespace

from codegen.boards import registry


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MB" if n >= 1024 * 1024 else f"{n // 1024} KB"


def target_lines(t) -> list[str]:
    kind = "board" if t.board else "host build"
    lines = [f"{t.name} ({kind}): {t.title}"]
    if t.board:
        lines.append(f"  {t.core} x{t.cores} at {t.clock_hz / 1e6:g} MHz, flash {_size(t.flash_bytes)}, "
                     f"RAM {_size(t.ram_bytes)}; the pair ring up to {t.ring_bytes} B")
    if t.passes:
        from codegen.spec.schema import Performance

        for mode in Performance.model_fields["optimize"].annotation.__args__:
            spec = _spec_with(t.name, mode)
            lines.append(f"  passes ({mode}): " + ", ".join(p.name for p in t.passes.load()(spec)))
    parts = [name for name in ("build", "trace", "budget") if getattr(t, name)]
    lines.append("  " + ", ".join({"build": "boidsgen build", "trace": f"boidsgen parity --target {t.name}",
                                  "budget": f"boidsgen budget --target {t.name}"}[p] for p in parts)
                 + (f"; flash: {', '.join(t.artefacts)}" if t.artefacts else ""))
    return lines


def _spec_with(board: str, mode: str):
    """What a pass list is chosen by: the spec's board and its `performance.optimize`."""
    return SimpleNamespace(board=SimpleNamespace(targets=(board,)), performance=SimpleNamespace(optimize=mode))


def cmd_targets(a) -> int:
    for i, t in enumerate(registry.TARGETS.values()):
        print(("\n" if i else "") + "\n".join(target_lines(t)))
    return 0
