"""The 32-bit means' reciprocal table (codegen/passes/mean_table.py): the
values fixed.h's fx_acc32_mean_by assumes, only the wrappers the step calls,
and the division kept where the table would be too large. The means' bits:
tests/test_widths.py::test_means_by_a_reciprocal and the parity tests."""
from __future__ import annotations

import re

from codegen.passes import mean_table

from .conftest import ROOT


def test_the_table_holds_floor_of_the_word_over_n():
    text = "\n".join(mean_table.lines(100, {"boids_mean", "boids_mean_about"}))
    vals = [int(v) for v in re.findall(r"(\d+)u", text.split("= {", 1)[1].split("};", 1)[0])]
    assert len(vals) == 101 and vals[0] == 0
    assert all(vals[n] == (2**32 - 1) // n for n in range(1, 101))
    assert "static inline fx boids_mean(" in text and "static inline fx boids_mean_about(" in text
    # only what the step calls; nothing when it calls neither
    only = "\n".join(mean_table.lines(100, {"boids_mean"}))
    assert "boids_mean(" in only and "boids_mean_about" not in only
    assert mean_table.lines(100, set()) == []


def test_a_flock_beyond_the_table_divides():
    big = mean_table.MAX_ENTRIES
    assert mean_table.call("sum_mean", big - 1) == "boids_mean"
    assert mean_table.call("sum_mean", big) == "fx_acc32_mean"
    assert mean_table.call("sum_mean_about", big) == "fx_acc32_mean_about"
    assert mean_table.lines(big, {"boids_mean"}) == []


def test_the_default_spec_uses_it():
    text = (ROOT / "generated" / "boids" / "firmware" / "boids_flock.c").read_text()
    assert "static const uint32_t boids_recip[] = {" in text
    assert "rn ? fx_acc32_mean_by(s, n, rn) : fx_acc32_mean(s, n)" in text  # outside the table: div
    # the count's reciprocal once a boid, after the pair loop (the count is final) and before the means
    step = text[text.index("void boids_step("):]
    hoist = step.index("const uint32_t n_visual_recip = boids_recip_of(n_visual);")
    assert step.rindex("n_visual++;", 0, hoist) < hoist < step.index("boids_mean(alignment_sum_vx, n_visual, n_visual_recip)")
    assert step.count("boids_recip_of(") == 1
