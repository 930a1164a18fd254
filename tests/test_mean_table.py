"""The 32-bit means' reciprocal table (codegen/passes/mean_table.py): the
values fixed.h's fx_acc32_mean_by assumes, only the wrappers the step calls,
and the division kept where the table would be too large. The means' bits:
tests/test_widths.py::test_means_by_a_reciprocal and the parity tests."""
from __future__ import annotations

import re

from codegen.passes import mean_table
from codegen.targets.c import means

from .conftest import ROOT


def test_the_table_holds_floor_of_the_word_over_n():
    text = "\n".join(means.lines(mean_table.entries(100), {"boids_mean", "boids_mean_about"}))
    vals = [int(v) for v in re.findall(r"(\d+)u", text.split("= {", 1)[1].split("};", 1)[0])]
    assert len(vals) == 101 and vals[0] == 0
    assert all(vals[n] == (2**32 - 1) // n for n in range(1, 101))
    assert "static inline fx boids_mean(" in text and "static inline fx boids_mean_about(" in text
    # only what the step calls; nothing when it calls neither
    only = "\n".join(means.lines(101, {"boids_mean"}))
    assert "boids_mean(" in only and "boids_mean_about" not in only
    assert means.lines(101, set()) == []


def test_a_flock_beyond_the_table_divides():
    big = mean_table.MAX_ENTRIES
    assert mean_table.entries(big - 1) == big and mean_table.entries(big) is None
    assert means.call("sum_mean") == "boids_mean" and means.call("sum_mean_about") == "boids_mean_about"
    # no table recorded: the printer's means divide (fixed.h), the step prints no table
    from codegen.output.pipeline import load
    from codegen.targets.c.lowering import flock_c_copies, lower

    m = load(ROOT / "spec" / "boids.yaml", capacity=big)
    low = lower(m)
    assert low.ran("mean_table") and low.mean_entries is None
    fast = flock_c_copies(m, low)[2]
    text = "\n".join(line for _, code in fast.apply for line in code)
    assert fast.mean_table == [] and "fx_acc32_mean(" in text and "boids_mean" not in text


def test_the_default_spec_uses_it():
    text = (ROOT / "generated" / "boids" / "firmware" / "boids_flock.c").read_text()
    assert "static const uint32_t boids_recip[] = {" in text
    assert "rn ? fx_acc32_mean_by(s, n, rn) : fx_acc32_mean(s, n)" in text  # outside the table: div
    # the count's reciprocal once a boid, after the pair loop (the count is final) and before the means
    step = text[text.index("void boids_step("):]
    hoist = step.index("const uint32_t n_visual_recip = boids_recip_of(n_visual);")
    assert step.rindex("n_visual++;", 0, hoist) < hoist < step.index("boids_mean(alignment_sum_vx, n_visual, n_visual_recip)")
    assert step.count("boids_recip_of(") == 1
