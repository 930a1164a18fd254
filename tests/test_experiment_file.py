"""Experiment files that cannot be used: every error at its file:line:col,
exit status 2, nothing written, no traceback (issue 17); an --out that is
not an experiment's folder and a `spec:` that is not the project's spec
refused (issue 32). More bad files: tests/hostile/experiments/."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from codegen.commands.cli import main
from tests.deadline import RUN

ROOT = Path(__file__).resolve().parent.parent
SCOUTS = ROOT / "spec" / "scouts_vga.yaml"

GOOD = """\
spec: scouts_vga.yaml
seed: 1
trials: 2
frames: 100
warmup: 20
set: {bias1: 0.02, scout_group2: 0}
vary:
  boids: [10, 20]
  scout_group1: {fraction_of_boids: [0, 0.5]}
"""

# (name, file text, the error lines expected, exactly, after the file's path)
CASES = [
    ("typo", GOOD.replace("trials: 2", "trails: 2"),
     [":1:1: trials: required key is missing",
      ":3:1: trails: unknown key 'trails' (did you mean 'trials'?)"]),
    ("not_a_number", GOOD.replace("frames: 100", "frames: many"),
     [":4:9: frames: expected a whole number from 1 to 10000000, got 'many'"]),
    ("exponent_for_a_count", GOOD.replace("trials: 2", "trials: 1e9"),
     [":3:9: trials: expected a whole number from 1 to 1000000, got the decimal number 1000000000.0 (a number "
      "written with a point or an exponent is a decimal: write the digits)"]),
    ("decimal_for_a_count_at_a_point", GOOD.replace("scout_group1: {fraction_of_boids: [0, 0.5]}",
                                                    "scout_group1: [8.5, 2]"),
     [":9:17: vary.scout_group1: scout_group1: 8.5 is not a whole number (scout_group1 is a count)"]),
    ("fraction_above_one", GOOD.replace("[0, 0.5]", "[0, 2]"),
     [":9:41: vary.scout_group1.fraction_of_boids.1: a fraction of the flock is from 0 to 1, got 2"]),
    ("scouts_beyond_the_flock", GOOD.replace("scout_group2: 0", "scout_group2: 8")
     .replace("[0, 0.5]", "[0, 0.8]"),
     [":9:17: vary.scout_group1: scout groups of 8 + 8 boids do not fit a flock of 10"]),
    ("no_such_parameter", GOOD.replace("bias1: 0.02", "bais1: 0.02"),
     [":6:7: set.bais1: the spec has no parameter 'bais1' (did you mean 'bias1'?)"]),
    ("out_of_range_at_a_point", GOOD.replace("[0, 0.5]", "[0, 0.5, 1]").replace("[10, 20]", "[10, 200]"),
     [":9:17: vary.scout_group1: scout_group1: 200 outside [0, 100] (at boids=200)"]),
    ("set_out_of_range", GOOD.replace("bias1: 0.02", "bias1: 0.5"),
     [":6:14: set.bias1: bias1: 0.5 outside [0, 0.1]"]),
    ("warmup_eats_the_run", GOOD.replace("warmup: 20", "warmup: 95"),
     [":5:9: warmup: frames 100 after warmup 95 leave no frame to measure (one every 10)"]),
    ("unknown_metric", GOOD + "metrics: [decision, bravery]\n",
     [":10:21: metrics.1: not a metric; the metrics: decision, naive_decision, side_time, polarisation, speed, groups, "
      "nn_dist, centroid_x, centroid_y, velocity_x, velocity_y"]),
    ("decision_without_scouts", GOOD.replace("scouts_vga.yaml", "boids.yaml")
     .replace("set: {bias1: 0.02, scout_group2: 0}", "set: {}").replace("scout_group1", "visual_range")
     .replace("{fraction_of_boids: [0, 0.5]}", "[20, 40]") + "metrics: [polarisation, decision]\n",
     [":10:25: metrics.1: 'decision' needs scout groups (`scouts:` in the spec); boids.yaml has none"]),
    ("missing_spec", GOOD.replace("scouts_vga.yaml", "no/such/spec.yaml"),
     [":1:7: spec: no such spec file: "]),
    ("yaml_syntax", GOOD.replace("trials: 2", "trials: [2"),
     [":4:7: while parsing a flow sequence expected ',' or ']', but got ':'"]),
    ("merge_key", GOOD + "base: &b {frames: 1}\nother:\n  <<: *b\n",
     [":12:3: merge keys (<<) are not supported: write the keys out (anchors and aliases of whole values are "
      "fine)"]),
    ("empty_range", GOOD.replace("[10, 20]", "{from: 20, to: 10, step: 5}"),
     [":8:10: vary.boids: from 20 to 10 holds no value"]),
]


def experiment(folder: Path, name: str, text: str) -> Path:
    """An experiment file in folder, with the specs it may name beside it."""
    for spec in (SCOUTS, ROOT / "spec" / "boids.yaml"):
        if not (folder / spec.name).exists():
            shutil.copy(spec, folder / spec.name)
    f = folder / name
    f.write_text(text, encoding="utf-8")
    return f


@pytest.mark.parametrize("name,text,expected", CASES, ids=[c[0] for c in CASES])
def test_malformed_file_is_located_and_writes_nothing(tmp_path, capsys, name, text, expected):
    f = experiment(tmp_path, f"{name}.yaml", text)
    out = tmp_path / "out"
    rc = main(["experiment", str(f), "--workers", "0", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 2, err
    lines = [ln for ln in err.splitlines() if ln.startswith(str(f))]
    assert len(lines) == len(expected), err
    for got, want in zip(lines, expected):
        assert got.startswith(str(f) + want), f"\n{got}\n!= {f}{want}"
    assert err.splitlines()[-1] == f"boidsgen: {len(expected)} error(s); nothing written"
    assert not out.exists(), "a refused experiment wrote its output folder"
    assert "Traceback" not in err


def test_good_file_passes_the_same_checks(tmp_path, capsys):
    """The file the cases break is itself fine (so each case fails for its own reason)."""
    f = experiment(tmp_path, "good.yaml", GOOD + "metrics: [decision]\n")
    assert main(["experiment", str(f), "--workers", "0", "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "summary.md").is_file()


def test_cli_prints_no_traceback(tmp_path):
    """Through the installed command too: the located lines, exit 2."""
    f = experiment(tmp_path, "bad.yaml", GOOD.replace("seed: 1", "seed: -1"))
    res = subprocess.run(["boidsgen", "experiment", str(f), "--out", str(tmp_path / "o")], capture_output=True,
                         text=True, timeout=RUN, cwd=ROOT)
    assert res.returncode == 2, res.stderr
    assert res.stderr.startswith(f"{f}:2:7: seed: Input should be greater than or equal to 0"), res.stderr
    assert "Traceback" not in res.stderr and not (tmp_path / "o").exists()


def test_rows_of_another_experiment_are_not_resumed(tmp_path, capsys):
    f = experiment(tmp_path, "e.yaml", GOOD)
    out = tmp_path / "out"
    assert main(["experiment", str(f), "--workers", "0", "--out", str(out)]) == 0
    before = (out / "rows.jsonl").read_bytes()
    capsys.readouterr()
    assert main(["experiment", str(f), "--workers", "0", "--out", str(out)]) == 2  # no --resume: refused
    assert "add --resume" in capsys.readouterr().err
    f.write_text(GOOD.replace("seed: 1", "seed: 2"), encoding="utf-8")
    assert main(["experiment", str(f), "--workers", "0", "--out", str(out), "--resume"]) == 2
    assert "holds rows of another experiment" in capsys.readouterr().err
    assert (out / "rows.jsonl").read_bytes() == before


def test_rows_that_are_not_ours_are_named_not_a_crash(tmp_path, capsys):
    """A rows.jsonl line that is not a row (internal error: KeyError before),
    or a row whose metrics were edited away: exit 2, one line, nothing changed."""
    f = experiment(tmp_path, "e.yaml", GOOD)
    out = tmp_path / "out"
    assert main(["experiment", str(f), "--workers", "0", "--out", str(out)]) == 0
    rows = (out / "rows.jsonl").read_text(encoding="utf-8")
    capsys.readouterr()
    for bad, why in [(rows + '{"point": 0}\n', f"{out / 'rows.jsonl'}:9: not a row written by `boidsgen experiment`"),
                     (rows + "garbage\n", f"{out / 'rows.jsonl'}:9: not a row"),
                     (rows.replace('"metrics":{', '"metrics":{"x":1,', 1).replace('"decision":', '"d":', 1),
                      f"{out / 'rows.jsonl'}:1: not a row of this experiment: its metrics are not this experiment's")]:
        (out / "rows.jsonl").write_text(bad, encoding="utf-8")
        summary = (out / "summary.md").read_bytes()
        assert main(["experiment", str(f), "--workers", "0", "--out", str(out), "--resume"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"boidsgen: {why}") and len(err.splitlines()) == 1, err
        assert (out / "rows.jsonl").read_text(encoding="utf-8") == bad
        assert (out / "summary.md").read_bytes() == summary


def test_out_refuses_a_folder_that_is_not_an_experiments(tmp_path, capsys):
    """As `generate -o` does: a non-empty folder without our experiment.json
    (here one with a summary.md and rows.csv of its own) is left as it was."""
    f = experiment(tmp_path, "e.yaml", GOOD)
    plain = tmp_path / "plain"
    plain.mkdir()
    for name in ("summary.md", "rows.csv"):
        (plain / name).write_text(f"someone's {name}\n", encoding="utf-8")
    before = {p.name: p.read_bytes() for p in plain.iterdir()}
    assert main(["experiment", str(f), "--workers", "0", "--out", str(plain)]) == 2
    err = capsys.readouterr().err
    assert err == (f"boidsgen: --out: {plain} exists and is not an experiment's output (no experiment.json); "
                   "choose an empty or new folder\n")
    assert {p.name: p.read_bytes() for p in plain.iterdir()} == before
    # nor one whose experiment.json is not ours
    (plain / "experiment.json").write_text('{"hash": "not ours"}\n', encoding="utf-8")
    assert main(["experiment", str(f), "--workers", "0", "--out", str(plain)]) == 2
    assert "is not an experiment's output" in capsys.readouterr().err
    assert (plain / "summary.md").read_bytes() == before["summary.md"]


def test_out_with_a_link_out_of_it_is_refused(tmp_path, capsys):
    f = experiment(tmp_path, "e.yaml", GOOD)
    out = tmp_path / "out"
    assert main(["experiment", str(f), "--workers", "0", "--out", str(out)]) == 0
    elsewhere = tmp_path / "elsewhere.md"
    elsewhere.write_text("not the experiment's\n", encoding="utf-8")
    (out / "summary.md").unlink()
    (out / "summary.md").symlink_to(elsewhere)
    capsys.readouterr()
    assert main(["experiment", str(f), "--workers", "0", "--out", str(out), "--resume"]) == 2
    err = capsys.readouterr().err
    assert "summary.md is a symbolic link" in err and len(err.splitlines()) == 1, err
    assert elsewhere.read_text(encoding="utf-8") == "not the experiment's\n"


def test_spec_must_be_the_projects_and_other_files_are_not_echoed(tmp_path, capsys):
    """`spec:` names a .yaml inside the experiment's project (links resolved);
    a file there that is no spec is named, its keys and values are not."""
    project = tmp_path / "project"
    (project / "experiments").mkdir(parents=True)
    outside = tmp_path / "secret.yaml"
    outside.write_text("token: tok_abcdef\n", encoding="utf-8")
    (project / "notes.yaml").write_text("name: notes\ntoken: tok_abcdef\n", encoding="utf-8")
    (project / "linked.yaml").symlink_to(outside)
    cases = {"../../secret.yaml": "is outside the experiment's project",
             "/etc/passwd": "a spec is a .yaml file",
             "../linked.yaml": "is outside the experiment's project",
             "../notes.yaml": "../notes.yaml is not a valid spec: "}
    for spec, why in cases.items():
        f = project / "experiments" / "e.yaml"
        f.write_text(GOOD.replace("scouts_vga.yaml", spec), encoding="utf-8")
        assert main(["experiment", str(f), "--workers", "0"]) == 2, spec
        err = capsys.readouterr().err
        assert err.startswith(f"{f}:1:7: spec: ") and why in err, err
        assert "tok_abcdef" not in err and "token" not in err, err
        assert len(err.splitlines()) == 2, err  # the located line and the count
    assert sorted(p.name for p in project.rglob("*")) == ["e.yaml", "experiments", "linked.yaml", "notes.yaml"]


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
