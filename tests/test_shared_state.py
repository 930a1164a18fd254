"""Issue 37: a state name two rules declare is one field, so it is an error
at the second declaration unless both declare it shared, alike."""
from __future__ import annotations

import re

from .test_checks37 import check, line_of, spec_with

RA = """\
  ra:
    description: a fixed urge
    roles: {f: fixed}
    state: {u: 0}
    apply: |
      u = u + f
      if u > 1:
          u = 0
"""
RB = """\
  rb:
    description: an int counter
    roles: {f: fixed}
    state: {u: 7}
    apply: |
      u += 1
      if u > 10:
          u = 0
          vx += f
"""
USES = "  - {rule: ra, f: avoid_factor}\n  - {rule: rb, f: avoid_factor}"


def test_two_rules_declaring_one_state_is_an_error_at_the_second(tmp_path, capsys):
    p = spec_with(tmp_path, RA + RB, USES)
    rc, err, _ = check(p, capsys)
    assert rc == 2
    assert len(err) == 2, err  # one line, then the count
    ln = line_of(p, "state: {u: 7}")
    col = p.read_text().splitlines()[ln - 1].index("u: 7") + 1
    assert re.match(rf".*t37\.yaml:{ln}:{col}: rule_defs\.rb\.state\.u: state 'u' is also declared by rule 'ra' "
                    r"\(rules\.\d+\) \(ra: fixed, initially 0; rb: int, initially 7\)", err[0]), err
    assert not (tmp_path / "generated").exists()


def _shared(text: str, init: str = "0") -> str:
    return text.replace(re.search(r"state: \{u: \d+\}", text).group(0), f"state: {{u: {{init: {init}, shared: true}}}}")


def test_shared_alike_is_one_field_both_rules_read(tmp_path, capsys):
    reader = RB.replace("      u += 1\n      if u > 10:\n          u = 0\n          vx += f\n",
                        "      if u > 0.5:\n          vx += f\n")
    p = spec_with(tmp_path, _shared(RA) + _shared(reader), USES)
    rc, err, out = check(p, capsys)
    assert rc == 0, err
    assert re.search(r"state u in \[0, 1(\.\d+)?\]", out), out  # ra's bound, which rb reads


def test_shared_in_one_only_is_still_an_error(tmp_path, capsys):
    p = spec_with(tmp_path, _shared(RA) + RB.replace("{u: 7}", "{u: 0}"), USES)
    rc, err, _ = check(p, capsys)
    assert rc == 2 and "rule_defs.rb.state.u: state 'u' is also declared by rule 'ra'" in err[0], err


def test_shared_with_another_initial_value_is_an_error(tmp_path, capsys):
    reader = RB.replace("      u += 1\n      if u > 10:\n          u = 0\n          vx += f\n",
                        "      if u > 0.5:\n          vx += f\n")
    p = spec_with(tmp_path, _shared(RA) + _shared(reader, "0.25"), USES)
    rc, err, _ = check(p, capsys)
    assert rc == 2 and "(ra: fixed, initially 0; rb: fixed, initially 0.25)" in err[0], err


def test_the_long_form_refuses_unknown_keys(tmp_path, capsys):
    p = spec_with(tmp_path, RA.replace("{u: 0}", "{u: {init: 0, shard: true}}"), "  - {rule: ra, f: avoid_factor}")
    rc, err, _ = check(p, capsys)
    assert rc == 2 and "rule_defs.ra.state.u" in err[0] and "shard" in err[0], err


def test_shared_state_written_by_one_read_by_another_is_bit_exact(tmp_path, capsys):
    """One field in the C and in the kernel: ra counts it, rb reads it."""
    from .conftest import require_tool
    from codegen.commands.cli import main

    require_tool("gcc")
    counter = RA.replace("      u = u + f\n      if u > 1:\n          u = 0\n",
                         "      u += 1\n      if u > 20:\n          u = 0\n")
    reader = RB.replace("      u += 1\n      if u > 10:\n          u = 0\n          vx += f\n",
                        "      if u > 10:\n          vx += f\n")
    p = spec_with(tmp_path, _shared(counter) + _shared(reader), USES)
    assert main(["parity", str(p), "--frames", "100", "--order", "both"]) == 0, capsys.readouterr().err
    assert capsys.readouterr().out.count("bit-exact") == 2
