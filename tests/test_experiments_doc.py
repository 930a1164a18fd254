"""docs/experiments.md says what its tables show (issue 32: it claimed "a
difference of 1 or 2 boids is at or near chance" beside 0.78 [0.689, 0.850],
"the uninformed follow the majority only at 20 against 10" beside 0.62
[0.522, 0.709] at 15, and "groups is 8 to 11" beside 7.7). Each claim of
experiment (b)'s section is checked here against the committed summary.md,
and the doc must state it as checked; every interval the page quotes must
be a cell of a committed table."""
from __future__ import annotations

import re

from .conftest import ROOT

DOC = ROOT / "docs" / "experiments.md"
TABLES = ROOT / "docs" / "experiments"
CELL = re.compile(r"(\d+\.\d+) \[(\d+\.\d+), (\d+\.\d+)\]")


def table(name: str) -> list[dict]:
    """summary.md's rows: {column: text} (cells as 'mean [low, high]')."""
    lines = [ln for ln in (TABLES / name / "summary.md").read_text(encoding="utf-8").splitlines()
             if ln.startswith("| ")]
    head = [c.strip().replace(" (95% CI)", "") for c in lines[0].strip("|").split("|")]
    return [dict(zip(head, (c.strip() for c in ln.strip("|").split("|")))) for ln in lines[2:]]


def cell(text: str) -> tuple[float, float, float]:
    m = CELL.fullmatch(text)
    assert m, text
    return float(m.group(1)), float(m.group(2)), float(m.group(3))


def doc() -> str:
    return " ".join(DOC.read_text(encoding="utf-8").split())  # one line: claims wrap


def opposed() -> dict:
    return {(int(r["boids"]), int(r["scout_group1"])): r for r in table("opposed_groups")}


def test_a_difference_of_one_is_chance_and_two_decides_fifty():
    rows = opposed()
    for n in (50, 100, 200):
        _, lo, hi = cell(rows[n, 11]["decision"])
        assert lo <= 0.5 <= hi, (n, rows[n, 11]["decision"])
    assert cell(rows[50, 12]["decision"])[1] > 0.5
    text = doc()
    assert "A difference of 1 boid is at chance at every size" in text
    assert "2 decides a flock of 50 (0.78 [0.689, 0.850])" in text
    assert "at or near chance" not in text


def test_where_the_uninformed_follow_the_majority():
    """The points whose naive_decision interval lies wholly above 1/2, as the doc lists them."""
    rows = opposed()
    follow = {k for k, r in rows.items() if cell(r["naive_decision"])[1] > 0.5}
    assert follow == {(50, 15), (100, 15), (50, 20), (100, 20), (200, 20)}, sorted(follow)
    text = doc()
    assert "The uninformed follow the majority (an interval wholly above 1/2) only at 15 or 20 against 10" in text
    for n, g in sorted(follow):
        mean = cell(rows[n, g]["naive_decision"])[0]
        assert f"{mean:.2f}".rstrip("0") in text


def test_groups_of_equal_opposed_groups_against_none():
    rows = opposed()
    none = {int(r["boids"]): r for r in table("informed_proportion") if r["scout_group1"] == "0"}
    equal = [f"{cell(rows[n, 10]['groups'])[0]:.1f}" for n in (50, 100, 200)]
    alone = [f"{cell(none[n]['groups'])[0]:.1f}" for n in (50, 100, 200)]
    assert (f"`groups` is {equal[0]}, {equal[1]} and {equal[2]} (N = 50, 100, 200) against {alone[0]}, "
            f"{alone[1]} and {alone[2]} without scouts") in doc()


def test_every_quoted_interval_is_a_cell_of_a_table():
    cells = set()
    for summary in TABLES.glob("*/summary.md"):
        for m in CELL.finditer(summary.read_text(encoding="utf-8")):
            mean, lo, hi = (float(x) for x in m.groups())
            cells.add((round(mean, 2), lo, hi))
    for m in CELL.finditer(doc()):
        mean, lo, hi = (float(x) for x in m.groups())
        assert (round(mean, 2), lo, hi) in cells, m.group(0)
