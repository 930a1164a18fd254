"""The import graph of codegen/ and pysim/, read from the source with ast
(imports inside functions included): no cycles, the runtime (pysim, its
GUI included) never imports the generator (codegen), and a pass never
depends on a printer (codegen.passes imports nothing of codegen.targets)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("codegen", "pysim")


def module_name(path: Path) -> tuple[str, bool]:
    """Dotted name of a source file, and whether it is a package's __init__."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    is_pkg = parts[-1] == "__init__"
    return ".".join(parts[:-1] if is_pkg else parts), is_pkg


def modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for pkg in PACKAGES:
        for p in sorted((ROOT / pkg).rglob("*.py")):
            name, is_pkg = module_name(p)
            out[name] = (p, is_pkg)
    return out


def imported(tree: ast.AST, name: str, is_pkg: bool, known: set[str]) -> set[str]:
    """The project's modules one source file imports, anywhere in it. `from
    pkg import mod` counts as importing pkg.mod (a package's __init__ runs
    too, but it holds no imports here: see test_package_inits_import_nothing)."""
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                up = base[: len(base) - (node.level - 1)]
                mod = ".".join(up + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            # `from pkg import mod` imports pkg.mod; `from mod import f` imports mod
            targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod for a in node.names]
        else:
            continue
        for t in targets:
            # the nearest enclosing module we know (import a.b.c imports a.b.c)
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imported(ast.parse(p.read_text(), str(p)), name, is_pkg, known)
            for name, (p, is_pkg) in mods.items()}


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_the_graph_sees_imports_inside_functions():
    src = "def f():\n    from codegen.spec import loader\n"
    assert imported(ast.parse(src), "codegen.x", False, {"codegen", "codegen.spec", "codegen.spec.loader"}) \
        == {"codegen.spec.loader"}


def test_cycles_are_found():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles():
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_runtime_never_imports_the_generator():
    bad = sorted(f"{a} -> {b}" for a, deps in graph().items() for b in deps
                 if a.split(".")[0] == "pysim" and b.split(".")[0] == "codegen")
    assert not bad, "pysim imports codegen: " + ", ".join(bad)


def test_package_inits_import_nothing():
    """Every package's __init__ is empty of imports, so importing a module
    never drags a package's other modules in behind the graph's back."""
    bad = [name for name, (p, is_pkg) in modules().items()
           if is_pkg and any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(ast.parse(p.read_text())))]
    assert not bad, f"packages whose __init__ imports: {bad}"


def test_passes_never_import_a_target():
    """A pass decides and records (codegen/passes/pipeline.py's Lowered); a
    target prints, or lists passes of its own beside it: so codegen.targets
    may import codegen.passes, never the other way round."""
    bad = sorted(f"{a} -> {b}" for a, deps in graph().items() for b in deps
                 if a.startswith("codegen.passes.") and b.startswith("codegen.targets"))
    assert not bad, "passes import targets: " + ", ".join(bad)


def test_the_layering_rule_sees_a_pass_importing_a_target():
    src = "from codegen.targets.c import pairs\n"
    known = {"codegen", "codegen.targets", "codegen.targets.c", "codegen.targets.c.pairs"}
    assert imported(ast.parse(src), "codegen.passes.x", False, known) == {"codegen.targets.c.pairs"}
