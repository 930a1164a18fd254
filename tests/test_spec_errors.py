"""A bad spec gets `file:line:col: field: reason` for every error, exits
non-zero, and writes nothing."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from codegen.commands.cli import main

from .conftest import DEFAULT_CAPACITY, ROOT

GOOD = (ROOT / "spec" / "boids.yaml").read_text()


def run_bad(tmp_path: Path, text: str, capsys) -> tuple[int, list[str]]:
    (tmp_path / "spec").mkdir(exist_ok=True)
    spec = tmp_path / "spec" / "bad.yaml"
    spec.write_text(text)
    rc = main(["generate", str(spec)])
    err = capsys.readouterr().err.strip().splitlines()
    assert not (tmp_path / "generated").exists(), "a bad spec must write nothing"
    return rc, err


def line_of(text: str, needle: str) -> int:
    return next(i for i, l in enumerate(text.splitlines(), 1) if needle in l)


def test_typo_key(tmp_path, capsys):
    text = GOOD.replace("  capacity:", "  capacty:")
    rc, err = run_bad(tmp_path, text, capsys)
    assert rc == 2
    ln = line_of(text, "capacty")
    assert re.match(rf".*bad\.yaml:{ln}:3: flock\.capacty: unknown key 'capacty' \(did you mean 'capacity'\?\)", err[0])


def test_string_where_number_goes(tmp_path, capsys):
    text = GOOD.replace("matching_factor: {default: 0.05,", 'matching_factor: {default: "abc",')
    rc, err = run_bad(tmp_path, text, capsys)
    ln = line_of(text, '"abc"')
    col = text.splitlines()[ln - 1].index('"abc"') + 1
    assert rc == 2
    assert err[0].endswith(f"bad.yaml:{ln}:{col}: params.matching_factor.default: expected a number, got 'abc'")


def test_min_greater_than_max(tmp_path, capsys):
    text = GOOD.replace("visual_range:    {default: 20,     min: 0,", "visual_range:    {default: 20,     min: 300,")
    rc, err = run_bad(tmp_path, text, capsys)
    ln = line_of(text, "min: 300")
    assert rc == 2 and f":{ln}:" in err[0] and "params.visual_range.min: min 300 > max 200" in err[0]


def test_all_errors_at_once_in_file_order(tmp_path, capsys):
    text = (GOOD.replace("  capacity:", "  capacty:")
            .replace("visual_range:    {default: 20,     min: 0,", "visual_range:    {default: 250,     min: 0,")
            .replace("factor: centering_factor}", "factor: centring_factor}"))
    rc, err = run_bad(tmp_path, text, capsys)
    assert rc == 2
    assert len(err) == 4 and err[-1].startswith("boidsgen: 3 error(s)")
    assert "default 250 outside [0, 200]" in err[1]
    assert "no parameter named 'centring_factor' (did you mean 'centering_factor'?)" in err[2]
    lines = [int(e.split(":")[1]) for e in err[:3]]
    assert lines == sorted(lines)


@pytest.mark.parametrize("mutation, message", [
    (("name: boids", "name: Boids"), "name: String should match pattern"),
    (("  - {rule: cohesion,", "  - {rule: cohesio,"), "unknown rule 'cohesio' (did you mean 'cohesion'?)"),
    (("max_speed:       {default: 3,", "max_speed:       {default: 3, default: 4,"), "duplicate name 'default'"),
    (("update_order: sequential", "update_order: sideways"), "update_order: Input should be 'sequential' or 'synchronous'"),
    (("  size: 100 ", f"  size: {DEFAULT_CAPACITY + 1} "), f"flock.size: size {DEFAULT_CAPACITY + 1} > capacity {DEFAULT_CAPACITY}"),
    (("id: 5,", "id: 4,"), "id 4 already used by 'avoid_factor'"),
    (("range: protected_range, factor", "range: visual_range, factor"), None),  # legal: separation may use any range
    (("fixed_point: {format: s16.15}", "fixed_point: {format: s8.23}"), "fixed_point.format: Input should be"),
    (("params:\n", "params:\n  int: {default: 1, min: 0, max: 2}\n"), "'int' is a reserved word"),
    (("frame_rate: 30", "frame_rate: [30]"), "frame_rate: Input should be a valid integer"),
    (("visual_range:    {default: 20,     min: 0,      max: 200,", "visual_range:    {default: 20,     min: 0,      max: 70000,"),
     "70000 does not fit s16.15"),
])
def test_each_error_kind(tmp_path, capsys, mutation, message):
    old, new = mutation
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    (tmp_path / "spec").mkdir()
    spec = tmp_path / "spec" / "x.yaml"
    spec.write_text(text)
    rc = main(["check", str(spec)])
    err = capsys.readouterr().err
    if message is None:
        assert rc == 0, err
        return
    assert rc == 2
    assert message in err, err
    assert re.search(r"x\.yaml:\d+:\d+: ", err)


def test_yaml_syntax_error_has_position(tmp_path, capsys):
    rc, err = run_bad(tmp_path, "name: x\nparams: [1\n", capsys)
    assert rc == 2 and re.match(r".*bad\.yaml:3:1: .*expected ',' or ']'", err[0])


def test_bad_spec_leaves_existing_output_untouched(tmp_path, capsys):
    (tmp_path / "spec").mkdir()
    spec = tmp_path / "spec" / "boids.yaml"
    spec.write_text(GOOD)
    assert main(["generate", str(spec)]) == 0
    out = tmp_path / "generated" / "boids"
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    spec.write_text(GOOD.replace("turn_factor:     {default: 0.2", "turn_factor:     {default: 0.3").replace("seed: 1", "seed: x"))
    assert main(["generate", str(spec)]) == 2
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert before == after
    shutil.rmtree(tmp_path / "generated")


@pytest.mark.parametrize("board, message", [
    ("board: {uart: {rx: RB10}}", "U2RX cannot be mapped to RB10 (peripheral pin select, DS60001168 table 11-1); "
     "free pins that can carry it: RA1, RB5, RB8"),
    ("board: {tft: {dc: RB14}}", "RB14 is already used by board.tft.sck"),
    ("board: {tft: {cs: RB0}}", "RB0 is already used by board.tft.dc"),
    ("board: {tft: {sdo: RB9}}", "SDO1 cannot be mapped to RB9"),
    ("board: {tft: {rst: RC3}}", "String should match pattern"),
    ("board: {spi_hz: 40000000}", "less than or equal to 20000000"),
])
def test_board_wiring_is_checked(tmp_path, capsys, board, message):
    (tmp_path / "spec").mkdir()
    spec = tmp_path / "spec" / "x.yaml"
    spec.write_text(GOOD + board + "\n")
    assert main(["check", str(spec)]) == 2
    assert message in capsys.readouterr().err


def test_board_wiring_reaches_the_config(tmp_path):
    from codegen.model.gen_model import build_model
    from codegen.output.render import render
    from codegen.model.spec_load import load_spec

    (tmp_path / "spec").mkdir()
    spec = tmp_path / "spec" / "x.yaml"
    spec.write_text(GOOD + "board: {tft: {sdo: RB5, dc: RA4}, uart: {rx: RB8, tx: RB9}}\n")
    cfg = render(build_model(load_spec(spec)[0], spec))["firmware/boids_config.h"]
    for line in ("#define BOARD_TFT_SDO_PPS_REG RPB5R", "#define BOARD_TFT_DC_PORT A", "#define BOARD_TFT_DC_BIT 4",
                 "#define BOARD_UART_RX_PPS_CODE 4u", "#define BOARD_UART_TX_PPS_REG RPB9R"):
        assert line in cfg
