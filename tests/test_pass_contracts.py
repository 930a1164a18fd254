"""A pass's contract, checked when the passes run (issue 51): `requires` names the passes whose
results it reads, and the pipeline refuses a list that runs it before them, or a pass that rewrites
the shared IR after a C pass, in one line naming the pass (codegen/passes/pipeline.py)."""
from __future__ import annotations

import pytest

from codegen.boards import registry
from codegen.output.pipeline import load
from codegen.passes.pipeline import PassOrderError, run
from codegen.passes.shared import SHARED

from .conftest import DEFAULT_SPEC


def _lists():
    """Every pass list of every board, in both modes."""
    spec = load(DEFAULT_SPEC).spec
    for t in registry.TARGETS.values():
        if t.passes is None:
            continue
        for mode in ("fast", "plain"):
            yield t.name, mode, t.passes.load()(spec.model_copy(update={
                "performance": spec.performance.model_copy(update={"optimize": mode})}))


def test_every_boards_lists_keep_every_contract():
    seen = 0
    for board, mode, passes in _lists():
        names = [p.name for p in passes]
        known = set(names)
        for i, p in enumerate(passes):
            assert set(p.requires) <= known, (board, mode, p.name, p.requires)  # a name of a pass in the list
            assert set(p.requires) <= set(names[:i]), (board, mode, p.name)  # and before it
        seen += 1
    assert seen >= 6  # pic32, rp2040, rp2350, in both modes


def test_a_pass_before_what_it_reads_is_refused_in_one_line():
    from codegen.passes.pairs_once import PairsOnce
    from codegen.passes.window_sums import WindowSums

    m = load(DEFAULT_SPEC, capacity=500, order="synchronous", grid=True)
    assert run(m, SHARED + (PairsOnce(), WindowSums())).ran("window_sums")  # in order: runs
    with pytest.raises(PassOrderError) as e:
        run(m, SHARED + (WindowSums(), PairsOnce()))
    msg = str(e.value)
    assert "window_sums" in msg and "pairs_once" in msg and "\n" not in msg, msg


def test_the_shared_ir_is_final_before_any_c_pass():
    from codegen.passes.c_positions import CPositions
    from codegen.passes.widths import Widths

    m = load(DEFAULT_SPEC)
    with pytest.raises(PassOrderError) as e:
        run(m, SHARED + (CPositions(), Widths()))
    assert "widths" in str(e.value) and "c_positions" in str(e.value), e.value
