"""codegen.commands.spec_writer.save_defaults: tuned values become a spec's defaults,
everything else in the file stays byte for byte; bad values change nothing."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from codegen.model.spec_load import load_spec
from codegen.commands.spec_writer import SpecWriteError, save_defaults
from tests.conftest import DEFAULT_SPEC, ROOT
from tests.deadline import RUN


@pytest.fixture
def spec(tmp_path):
    (tmp_path / "spec").mkdir()
    p = tmp_path / "spec" / "boids.yaml"
    shutil.copy(DEFAULT_SPEC, p)
    return p


def test_only_the_defaults_change(spec):
    before = spec.read_text()
    save_defaults(spec, {"avoid_factor": "0.1", "visual_range": "35", "centering_factor": "0.00025",
                         "max_speed": "4.50"})
    after = spec.read_text()
    b, a = before.splitlines(), after.splitlines()
    assert len(a) == len(b)
    changed = {i for i, (x, y) in enumerate(zip(b, a)) if x != y}
    assert len(changed) == 4
    # comments, flow mappings and the aligned columns stay
    assert [x for x in b if x.lstrip().startswith("#")] == [x for x in a if x.lstrip().startswith("#")]
    assert "  visual_range:    {default: 35,     min: 0,      max: 200, unit: px, id: 1," in a
    assert "  avoid_factor:    {default: 0.1,    min: 0.01,   max: 1, id: 4," in a
    assert "  centering_factor: {default: 0.00025, min: 0.0002, max: 1, id: 3," in a
    assert '  max_speed:       {default: 4.5, min: 0, max: 10, unit: px/frame, id: 7, description: "speed ceiling"}' in a
    s, _ = load_spec(spec)
    assert (s.params["visual_range"].default, s.params["avoid_factor"].default) == (35, 0.1)
    assert [p.name for p in spec.parent.iterdir()] == ["boids.yaml"]  # no temp file left


@pytest.mark.parametrize("values, reason", [
    ({"avoid_factor": "5"}, "avoid_factor: 5 outside [0.01, 1]"),
    ({"visual_range": "-1"}, "visual_range: -1 outside [0, 200]"),
    ({"nope": "1"}, "nope: no such parameter"),
    ({"max_speed": "1e1"}, "max_speed: '1e1' is not a decimal number"),
    ({"max_speed": "fast"}, "max_speed: 'fast' is not a decimal number"),
    ({"min_speed": "2", "max_speed": "11"}, "max_speed: 11 outside [0, 10]"),
])
def test_refused_values_change_nothing(spec, values, reason):
    before = spec.read_bytes()
    with pytest.raises(SpecWriteError, match=reason.replace("[", r"\[").replace("]", r"\]")):
        save_defaults(spec, values)
    assert spec.read_bytes() == before


def test_int_parameter_refuses_a_fraction(spec):
    text = spec.read_text().replace(
        "  # --- the rest of the seed's parameters",
        "  spare_count:     {default: 3, min: 0, max: 10, type: int, id: 13}\n  # --- the rest of the seed's parameters")
    spec.write_text(text)
    load_spec(spec)  # valid to start with
    with pytest.raises(SpecWriteError, match="spare_count: '2.5' is not an integer"):
        save_defaults(spec, {"spare_count": "2.5"})
    save_defaults(spec, {"spare_count": "7"})
    assert "spare_count:     {default: 7, min: 0" in spec.read_text()


def test_the_saved_spec_regenerates(spec, tmp_path):
    save_defaults(spec, {"matching_factor": "0.08"})
    out = tmp_path / "out"
    res = subprocess.run(["boidsgen", "generate", str(spec), "-o", str(out)], capture_output=True, text=True,
                         cwd=ROOT, timeout=RUN)
    assert res.returncode == 0, res.stderr
    model = (out / "python" / "boids_model.py").read_text()
    assert 'default="0.08"' in model
