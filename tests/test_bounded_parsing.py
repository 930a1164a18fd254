"""Issue 32, bounded parsing: numbers are refused from their text before they
are built (rule literals and YAML alike), names in rule code are ASCII as
written (before Python's NFKC folding), and every spec error is one line
whatever the spec put in its keys. The hostile corpus (tests/hostile/specs:
rulelang__exponent_billion, number__int_5000_digits, control__key_escaped_newline,
...) runs the same through every command; these pin the pieces."""
from __future__ import annotations

import time
import unicodedata

import pytest

from codegen.commands.cli import main
from codegen.lang.lexscan import lexical_problems
from codegen.spec.number_text import MAX_EXPONENT, MAX_NUMBER_CHARS, number_problem
from codegen.spec.errors import SpecIssue, one_line

from .conftest import ROOT

BASE = (ROOT / "spec" / "boids.yaml").read_text()


def _rule_spec(apply: str, roles: str = "{k: fixed}", state: str = "") -> str:
    text = BASE.replace("rules:\n", "rules:\n  - {rule: bad, k: turn_factor}\n", 1)
    return text + ("rule_defs:\n  bad:\n    description: d\n"
                   f"    roles: {roles}\n{state}    apply: |\n      {apply}\n")


def _check(tmp_path, text: str, capsys) -> tuple[int, list[str], float]:
    spec = tmp_path / "spec" / "s.yaml"
    spec.parent.mkdir(exist_ok=True)
    spec.write_text(text, encoding="utf-8")
    t0 = time.monotonic()
    rc = main(["check", str(spec)])
    return rc, capsys.readouterr().err.splitlines(), time.monotonic() - t0


# ---------------------------------------------------------------- numbers

@pytest.mark.parametrize("text", ["1e999999999", "1E+100", "2.5e-100", "1_0e9_9_9"])
def test_a_rule_exponent_past_the_bound_is_refused(text):
    assert "exponent" in number_problem(text, exponent=True)


@pytest.mark.parametrize("text", ["1e99", "0.5e-99", "0x1e999", "3", "0.0005", "7" * MAX_NUMBER_CHARS])
def test_numbers_within_the_bounds_pass(text):
    assert number_problem(text, exponent=True) is None


def test_the_length_bound_counts_characters():
    assert number_problem("1" * (MAX_NUMBER_CHARS + 1)) .startswith(f"a number written with {MAX_NUMBER_CHARS + 1}")
    assert number_problem("1e999999999") is None  # YAML: float() builds it at once (inf, refused later)


def test_rule_literal_with_a_huge_exponent_is_refused_at_once_and_located(tmp_path, capsys):
    text = _rule_spec("vx += k * 1e999999999")
    rc, err, took = _check(tmp_path, text, capsys)
    line = text.splitlines().index("      vx += k * 1e999999999") + 1
    assert rc == 2 and took < 5, (took, err)
    assert any(f"s.yaml:{line}:17: rule_defs.bad.apply: 1e999999999: an exponent beyond +/-{MAX_EXPONENT}" in e
               for e in err), err


@pytest.mark.parametrize("digits", [5000, 50])
def test_yaml_integer_of_any_length_is_a_located_error(tmp_path, capsys, digits):
    text = BASE.replace("seed: 1", "seed: " + "9" * digits, 1)
    rc, err, _ = _check(tmp_path, text, capsys)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith("seed: 99"))
    assert rc == 2
    assert err[0].endswith(f"s.yaml:{line}:7: a number written with {digits} characters; at most {MAX_NUMBER_CHARS} "
                           "(every value a spec uses fits in 32 bits)"), err
    assert not any("Exceeds the limit" in e for e in err)


def test_a_long_yaml_string_is_not_a_number(tmp_path, capsys):
    # quoted digits are a string: the number bound must not touch them
    text = BASE.replace("description: PIC32 boids lab", 'description: "' + "1" * 60 + '" #', 1)
    rc, err, _ = _check(tmp_path, text, capsys)
    assert rc == 0, err


def test_experiment_files_share_the_bound(tmp_path):
    """codegen/experiments/file.py reads through codegen/spec/yaml_read.py's read_yaml, so a
    5,000-digit trial count is the same located error there."""
    from codegen.experiments.file import load_experiment
    from codegen.spec.errors import SpecError

    p = tmp_path / "e.yaml"
    p.write_text("spec: ../spec/boids.yaml\ntrials: " + "1" * 5000 + "\n")
    with pytest.raises(SpecError) as e:
        load_experiment(p)
    assert [str(i) for i in e.value.issues] == [f"{p}:2:9: a number written with 5000 characters; at most "
                                                f"{MAX_NUMBER_CHARS} (every value a spec uses fits in 32 bits)"]


# ---------------------------------------------------------------- names as written

@pytest.mark.parametrize("code,col,char", [("ｖｘ += k", 0, "ｖ"), ("vx += 𝐤", 6, "𝐤"), ("vx += kﬁ", 7, "ﬁ"),
                                           ("vx ＋= k", 3, "＋")])
def test_non_ascii_in_code_is_refused_at_its_character(code, col, char):
    (problem,) = lexical_problems(code)
    assert problem[:2] == (1, col)
    assert f"U+{ord(char):04X} {unicodedata.name(char)}" in problem[2]


def test_comments_may_hold_any_letter():
    assert lexical_problems("vx += k  # ½ of the wind, µ-steps\n") == []


def test_fullwidth_rule_is_refused_not_folded(tmp_path, capsys):
    text = _rule_spec("ｖｘ += k")
    rc, err, _ = _check(tmp_path, text, capsys)
    line = text.splitlines().index("      ｖｘ += k") + 1
    assert rc == 2
    assert any(f"s.yaml:{line}:7: rule_defs.bad.apply: 'ｖ' (U+FF56 FULLWIDTH LATIN SMALL LETTER V) in a name" in e
               and "Python would read 'ｖｘ' as 'vx'" in e for e in err), err


def test_state_initial_value_is_scanned_too(tmp_path, capsys):
    text = _rule_spec("u = u + k", state='    state: {u: "0 + ｋ"}\n')
    rc, err, _ = _check(tmp_path, text, capsys)
    assert rc == 2 and any("FULLWIDTH LATIN SMALL LETTER K" in e for e in err), err


# ---------------------------------------------------------------- one line per error

@pytest.mark.parametrize("raw,shown", [("a\nb", "a\\nb"), ("a\rb", "a\\rb"), ("a\tb", "a\\tb"), ("\x1b[2J", "\\x1b[2J"),
                                       ("x\u202ey", "x\\u202ey"), ("x\u2028y", "x\\u2028y"), ("\x85", "\\x85"),
                                       ("café ✓", "café ✓"), ("\U000e0041", "\\U000e0041")])
def test_one_line_escapes_what_breaks_or_hides_a_line(raw, shown):
    assert one_line(raw) == shown


def test_every_part_of_an_issue_is_one_line():
    i = SpecIssue("spec/a\nb.yaml", 3, 4, "params.x\u202e", "bad 'ok\nspec/boids.yaml:1:1: forged'")
    assert str(i) == "spec/a\\nb.yaml:3:4: params.x\\u202e: bad 'ok\\nspec/boids.yaml:1:1: forged'"


def test_forged_line_in_a_key_stays_on_its_own_line(tmp_path, capsys):
    text = _rule_spec("vx += 1", roles='{"ok\\nspec/boids.yaml:1:1: forged line": fixed}')
    rc, err, _ = _check(tmp_path, text, capsys)
    assert rc == 2
    assert not any(e.startswith("spec/boids.yaml") for e in err), err
    assert any("ok\\nspec/boids.yaml:1:1: forged line" in e for e in err), err


def test_a_long_value_is_echoed_cut(tmp_path, capsys):
    """A wrong value is quoted in its error, but not 5,000 characters of it."""
    text = BASE.replace("values: [10, 20, 40, 80]", 'values: [10, 20, 40, "' + "9" * 5000 + '"]', 1)
    rc, err, _ = _check(tmp_path, text, capsys)
    assert rc == 2
    (line,) = [e for e in err if "course.listboxes.1.values.3" in e]
    assert line.endswith("'" + "9" * 59 + "... (5002 characters)") and len(line) < 250, line


# ---------------------------------------------------------------- one parse

def test_a_spec_is_parsed_once_its_events_checked_as_they_are_composed(tmp_path, monkeypatch):
    """read_yaml checks yaml_guard's event bounds on the events the composer
    takes: ruamel's parser makes each node's event of the text once, not once
    for the guard and again for the load; a refused event stops the load there."""
    from ruamel.yaml import YAML
    from ruamel.yaml.events import AliasEvent, CollectionStartEvent, ScalarEvent
    from ruamel.yaml.parser import RoundTripParser

    from codegen.spec import yaml_read
    from codegen.spec.errors import SpecError
    from codegen.spec.yaml_read import read_yaml

    nodes = sum(isinstance(e, (AliasEvent, CollectionStartEvent, ScalarEvent)) for e in YAML(typ="rt").parse(BASE))
    yaml_read._READ.clear()  # parsed afresh, not the copy of an earlier read
    made = []
    real = RoundTripParser.parse_node
    monkeypatch.setattr(RoundTripParser, "parse_node", lambda self, *a, **k: made.append(1) or real(self, *a, **k))
    spec = tmp_path / "s.yaml"
    spec.write_text(BASE, encoding="utf-8")
    read_yaml(spec)
    assert len(made) == nodes > 100, (len(made), nodes)
    made.clear()
    spec.write_text("a: !!python/name:os.system x\n" + BASE, encoding="utf-8")  # refused at its second node
    with pytest.raises(SpecError, match="tag"):
        read_yaml(spec)
    assert len(made) < 5, len(made)


def test_a_spec_read_again_is_a_copy_of_the_first_read(tmp_path):
    """read_yaml keeps what it parsed by the file's bytes: the same bytes again
    (another path too) are not parsed again but copied, so a caller that
    changes its document changes no other's; other bytes are parsed afresh."""
    from codegen.spec import yaml_read

    spec = tmp_path / "s.yaml"
    spec.write_text(BASE, encoding="utf-8")
    first = yaml_read.read_yaml(spec)
    first["params"]["visual_range"]["default"] = 999
    twin = tmp_path / "t.yaml"
    twin.write_text(BASE, encoding="utf-8")
    again = yaml_read.read_yaml(twin)
    assert again is not first and again["params"]["visual_range"]["default"] != 999
    assert again["params"].lc.key("visual_range") == first["params"].lc.key("visual_range")  # positions kept
    spec.write_text(BASE.replace("name: boids", "name: other", 1), encoding="utf-8")
    assert yaml_read.read_yaml(spec)["name"] == "other"
