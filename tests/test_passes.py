"""Optimisations as passes (issue 34): named objects with a contract, a
pass list per target and mode (codegen/targets/pic32/pass_list.py), each C
pass's layout present exactly when it ran, and the C emitter printing what
the IR passes left without calling them."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from codegen.passes.pipeline import contract
from codegen.passes.shared import SHARED
from codegen.output.pipeline import load
from codegen.output.render import render
from codegen.targets.c import lowering
from codegen.targets.pic32 import pass_list

from .conftest import DEFAULT_SPEC, ROOT


def test_every_pass_has_a_name_and_a_contract():
    passes = pass_list.FAST + pass_list.PLAIN
    names = [p.name for p in pass_list.FAST]
    assert len(set(names)) == len(names)
    assert set(names) >= {"offsets", "roots", "widths", "guards", "c_positions", "pairs_once", "window_sums",
                          "mean_table", "ring_sched", "gcc_o1_hints"}
    for p in passes:
        doc = type(p).__doc__
        assert doc.startswith(p.name + ":"), p  # the first words name it
        assert "Assumes" in doc and "Preserves" in doc and "bit" in doc, p
        assert contract(p) and "\n" not in contract(p)


def test_the_pass_lists():
    # the shared passes first in every list, in their order: the simulator's IR needs them in either mode
    assert [p.stage for p in SHARED] == ["ir"] * 3
    assert pass_list.FAST[:3] == SHARED == pass_list.PLAIN[:3]
    assert [p.stage for p in pass_list.FAST[3:]] == ["c"] * (len(pass_list.FAST) - 3)
    # plain: none of the target's own optimisations, only the magnitude printed as written (where proven)
    assert [p.name for p in pass_list.PLAIN[3:]] == ["roots_as_written"]
    # what the printer reads besides the IR: each pass's record on Lowered, set by its pass of the fast list
    low = lowering.lower(load(DEFAULT_SPEC, capacity=500, order="synchronous", grid=True))
    records = {"pairs_once": "ring", "zones_hilo": "zones_hilo", "zone_apart": "zone_apart", "window_sums": "window",
               "mean_table": "mean_entries", "ring_sched": "mirror_sched", "gcc_o1_hints": "hints"}
    assert set(records) <= {p.name for p in pass_list.FAST}
    assert all(getattr(low, f) for f in records.values())
    # passes for GCC -O1's scheduling say so and live with the PIC32 target
    gcc = [p for p in pass_list.FAST if p.only_for]
    assert {p.name for p in gcc} == {"ring_sched", "gcc_o1_hints"}
    assert all(type(p).__module__.startswith("codegen.targets.pic32.") for p in gcc)


def test_the_mode_picks_the_list():
    assert pass_list.pass_list(load(DEFAULT_SPEC).spec) is pass_list.FAST
    assert pass_list.pass_list(load(DEFAULT_SPEC, optimize="plain").spec) is pass_list.PLAIN
    low = lowering.lower(load(DEFAULT_SPEC, capacity=500, order="synchronous", grid=True, optimize="plain"))
    assert low.on == tuple(p.name for p in pass_list.PLAIN) and not low.once and low.guard is None


# what each C pass prints in the 500-boid synchronous grid step, where every one applies
MARKS = {"guards": "boids_step_guarded", "c_positions": "fx_acc32_about", "pairs_once": "BOIDS_PAIR_RING",
         "zones_hilo": "fx_d2_zones", "zone_apart": "ynear", "window_sums": "band_sums",
         "mean_table": "boids_recip", "ring_sched": "FX_LOADED(was_", "gcc_o1_hints": "FX_LOADED(o->"}


def _step(monkeypatch, without: str | None) -> str:
    fast = tuple(p for p in pass_list.FAST if p.name != without)
    monkeypatch.setitem(pass_list.PASS_LISTS, "fast", fast)
    return render(load(DEFAULT_SPEC, capacity=500, order="synchronous", grid=True))["firmware/boids_flock.c"]


@pytest.mark.parametrize("name", sorted(MARKS))
def test_each_c_pass_prints_its_layout_only_when_it_ran(monkeypatch, name):
    from codegen.passes.pipeline import PassOrderError

    assert set(MARKS) == {p.name for p in pass_list.FAST if p.stage == "c"}
    full = _step(monkeypatch, None)
    assert MARKS[name] in full
    if any(name in p.requires for p in pass_list.FAST):  # a list without what another reads: refused at run
        with pytest.raises(PassOrderError, match=name):
            _step(monkeypatch, name)
        return
    without = _step(monkeypatch, name)
    assert MARKS[name] not in without
    # the rest of the list still prints its own, but for the passes that build on the one left out (the
    # window's sums add the other's fields: cohesion's positions, 32-bit only in the guarded copy)
    after = {"guards": {"c_positions", "window_sums"}, "c_positions": {"window_sums"}}.get(name, set())
    for other, mark in MARKS.items():
        if other not in after | {name}:
            assert mark in without, (name, other)


# every pass module but pipeline (its Lowered and Pass types are what the printer reads)
PASS_MODULES = {p.stem for p in (ROOT / "codegen" / "passes").glob("*.py")} - {"__init__", "pipeline"}


def test_the_c_emitter_does_not_call_the_passes():
    """The printer gets the rules' IR as the passes left it and what they
    decided (Lowered): no module of codegen/targets/c/ imports a pass
    module, only pipeline's types."""
    assert PASS_MODULES >= {"widths", "guards", "offsets", "roots", "c_positions", "pairs_once", "window_sums",
                            "mean_table", "zones"}
    printer = sorted((ROOT / "codegen" / "targets" / "c").glob("*.py"))
    assert {p.stem for p in printer} >= {"emit", "pairs", "names", "expr", "mirror", "ring", "window", "means"}
    for path in printer:
        tree = ast.parse(path.read_text())
        imported = set()  # the modules named, fully (from codegen.passes import x: codegen.passes.x too)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
            elif isinstance(node, ast.Import):
                imported |= {a.name for a in node.names}
        imported = {m.rpartition(".")[2] for m in imported if m.startswith("codegen.passes.")}
        assert not imported & PASS_MODULES, (path.name, imported & PASS_MODULES)


def test_gcc_o1_hints_are_spelled_by_the_pic32_target_alone():
    """FX_LOADED / FX_LIKELY (GCC -O1's scheduling) reach the C only through
    the hints the PIC32 target's pass recorded: the C printer's code and
    templates print none themselves (comments aside)."""
    import re

    c = ROOT / "codegen" / "targets" / "c"
    for path in sorted(c.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "\n" not in node.value:
                # (docstrings, several lines, say why; a printed line is one)
                assert "FX_LOADED" not in node.value and "FX_LIKELY" not in node.value, path.name
    for path in sorted((c / "templates").rglob("*.j2")):
        text = re.sub(r"\{#.*?#\}", "", path.read_text(), flags=re.S)
        assert "FX_LOADED" not in text and "FX_LIKELY" not in text, path.name
    from codegen.targets.pic32.gcc_o1 import O1Hints

    assert O1Hints.loads("x") == ["FX_LOADED(o->x);"] and O1Hints.likely("t") == "FX_LIKELY(t)"


def test_the_printer_prints_what_the_passes_recorded():
    """Each decision is read from Lowered, not made again while printing:
    change the record and the print follows."""
    from dataclasses import replace

    m = load(DEFAULT_SPEC, capacity=500, order="synchronous", grid=True)
    low = lowering.lower(m)
    assert low.ring and low.window and low.zones_hilo and low.zone_apart and low.mean_entries == 501
    assert low.mirror_sched and low.hints

    def fast(**changed):
        fc = lowering.flock_c_copies(m, replace(low, **changed))[2]
        return "\n".join(fc.pair_lines + fc.pair_lines_apart + fc.ring_typedef + fc.mean_table
                         + sum((c for _, c in fc.apply), [])), fc

    text, fc = fast()
    assert "fx_d2_zones" in text and fc.window is not None and fc.apart and "boids_recip" in text
    assert "FX_LOADED(was_" in text and "FX_LOADED(o->" in text
    assert "fx_d2_zones" not in fast(zones_hilo=False)[0]
    assert fast(window=None)[1].window is None and fast(zone_apart=False)[1].apart is None
    assert "boids_recip" not in fast(mean_entries=None)[0]
    assert "FX_LOADED(was_" not in fast(mirror_sched=None)[0]
    assert "FX_LOADED(o->" not in fast(hints=None)[0] and "FX_LIKELY" not in fast(hints=None)[0]
    # a ring of other planes: printed as recorded
    one = replace(low.ring, planes=(sum(low.ring.planes, ()),), plane_bytes=64, by_address=False)
    text, fc = fast(ring=one)
    assert "pair_plane1_t" not in text and "/* plane 0: 64 B */" in text and "(const char *)(at) - (const char *)others" in text
    assert not fast(ring=None)[1].once


def test_the_shared_passes_are_what_the_simulator_reads():
    from codegen.passes.widths import lowered
    from codegen.passes.pipeline import run

    m = load(DEFAULT_SPEC, capacity=500)
    assert run(m, SHARED).m == lowered(m)


def test_the_pass_modules_exist_where_the_docs_say():
    for p in pass_list.FAST + pass_list.PLAIN:
        mod = type(p).__module__.replace(".", "/") + ".py"
        assert Path(ROOT / mod).is_file(), mod
