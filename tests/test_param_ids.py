"""A parameter written without `id:` (issue 33: it silently became id 0 and
came first in the GUI and the course's sliders)."""
from __future__ import annotations

import re

from codegen.model.gen_model import next_free_id
from codegen.output.pipeline import load

from .conftest import ROOT


def test_next_free_id_follows_the_largest_in_use():
    assert next_free_id(set()) == 1
    assert next_free_id({1, 2, 3}) == 4
    assert next_free_id({0, 5}) == 6
    assert next_free_id({255}) == 0
    assert next_free_id(set(range(1, 256))) == 0


def test_a_parameter_without_id_comes_after_the_others(tmp_path):
    text = (ROOT / "spec" / "boids.yaml").read_text()
    text, n = re.subn(r"(\n  visual_range:\s+\{[^}\n]*?), id: \d+", r"\1", text)
    assert n == 1, "the default spec's visual_range has an id"
    spec = tmp_path / "spec" / "boids.yaml"
    spec.parent.mkdir()
    spec.write_text(text)
    params = {p.name: p for p in load(spec).params}
    others = [p.id for name, p in params.items() if name != "visual_range"]
    assert params["visual_range"].id == max(others) + 1
