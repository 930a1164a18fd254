"""boidsgen compare: fixed vs float from the same spawn; quantizes-to-zero warnings."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from codegen.commands.cli import main
from codegen.commands.compare import quant_warnings, run_compare, table_lines
from codegen.model.gen_model import build_model
from codegen.output.render import load_generated_model
from codegen.analysis.quant_report import zeros
from codegen.model.spec_load import load_spec
from pysim.experiments.metrics import groups, nearest_neighbour, polarisation

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec" / "boids.yaml"


def test_metrics_by_hand():
    assert polarisation(np.array([1.0, 2.0]), np.array([0.0, 0.0])) == 1.0
    assert polarisation(np.array([1.0, -1.0]), np.array([0.0, 0.0])) == 0.0
    x, y = np.array([0.0, 3.0, 100.0]), np.array([0.0, 4.0, 4.0])
    assert nearest_neighbour(x, y) == (5 + 5 + 97) / 3
    assert groups(x, y, link=6) == 2 and groups(x, y, link=4) == 3 and groups(x, y, link=200) == 1


def test_same_spawn_then_divergence():
    s, _ = load_spec(str(SPEC))
    m = build_model(s, str(SPEC))
    rows = run_compare(m, load_generated_model(str(SPEC), m), frames=40, every=20)
    assert [r["frame"] for r in rows] == [0, 20, 40]
    first = rows[0]
    assert first["div"] == {"pos": 0.0, "vel": 0.0}
    assert first["fixed"] == first["float"]  # one spawn, exactly representable in both
    assert rows[-1]["div"]["pos"] > 0  # quantization shows up
    assert len(table_lines(rows)) == 4


def test_cli_compare_without_matplotlib_or_with(tmp_path, capsys):
    png = tmp_path / "c.png"
    assert main(["compare", str(SPEC), "--frames", "10", "--every", "5", "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "polar fx" in out and len([ln for ln in out.splitlines() if ln.strip().startswith(("0 ", "5 ", "10 "))]) == 3
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "[plot]'" in out and not png.exists()  # the extra's own install command
    else:
        assert png.exists() and png.read_bytes()[:4] == b"\x89PNG"


def test_constant_that_quantizes_to_zero_is_warned(tmp_path, capsys):
    text = SPEC.read_text().replace("centering_factor: {default: 0.0005, min: 0.0002",
                                    "centering_factor: {default: 0.0005, min: 0.00001")
    assert "min: 0.00001" in text
    p = tmp_path / "spec" / "tiny.yaml"
    p.parent.mkdir()
    p.write_text(text)
    s, _ = load_spec(str(p))
    m = build_model(s, str(p))
    assert [(q.name, q.field) for q in zeros(m)] == [("centering_factor", "min")]
    assert any("quantizes to 0" in w for w in quant_warnings(m, 5.0))
    main(["check", str(p)])
    assert "warning: centering_factor.min = 0.00001 quantizes to 0 in s16.15" in capsys.readouterr().err
