"""The rule language's front end (codegen/lang): the issue's four examples
type-check as written; bad rules give located errors; the library's rule
definitions (codegen/rules/defs/) compile."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from codegen.lang.ruledef import compile_rule
from codegen.lang.library import DEFS, library_files, load_rule_file
from codegen.lang.ops import OPS
from codegen.lang.ir import Accumulate, Assign, Const, If, Ref, Return, Type
from codegen.spec.errors import SpecError
from codegen.spec.yaml_read import read_yaml

from .issue_examples import RULE_DEFS as EXAMPLES

F, I, B, SF, SI = Type.FIXED, Type.INT, Type.BOOL, Type.SUM_FIXED, Type.SUM_INT



def load_defs(tmp_path: Path, text: str, name: str = "spec.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path, read_yaml(path)


def compile_all(tmp_path: Path, text: str, params=None):
    path, doc = load_defs(tmp_path, text)
    return {n: compile_rule(n, node, str(path), params or {}) for n, node in doc["rule_defs"].items()}


@pytest.fixture
def examples(tmp_path):
    return compile_all(tmp_path, EXAMPLES)


def test_wind_roles_shadow_the_position(examples):
    w = examples["wind"]
    assert [(r.name, r.type) for r in w.roles] == [("x", F), ("y", F)]
    assert w.neighbours is None and w.each == () and w.sums == ()
    first = w.apply[0]
    assert isinstance(first, Assign) and first.target.name == "vx"
    assert first.value.op == "add" and first.value.args[1].kind == "role"
    assert w.reads_apply.roles == {"x", "y"} and w.writes == {"vx", "vy"}
    assert (first.pos.line, first.pos.col) == (6, 10)  # the `+=`


def test_crowding_counts_in_an_int_sum(examples):
    c = examples["crowding"]
    assert [(s.name, s.type) for s in c.sums] == [("crowd", SI)]
    acc = c.each[0]
    assert isinstance(acc, Accumulate) and acc.op == "acc_add" and acc.value.type == I
    cond = c.apply[0]
    assert isinstance(cond, If) and cond.cond.op == "gt"
    assert cond.cond.args[0].type == SI and cond.cond.args[1].type == I  # compared whole, in 64 bits
    assert cond.then[0].value.op == "sub" and cond.then[0].value.args[1].op == "mul"
    assert c.neighbours.of == "boids" and c.neighbours.within == "range" and c.neighbours.coincident
    assert not c.needs_dist and c.reads_apply.sums == {"crowd"}


def test_restless_state_is_inferred_fixed(examples):
    r = examples["restless"]
    (urge,) = r.state
    assert urge.type == F and urge.initial.type == F and urge.initial.value == 0
    assert [(lc.name, lc.type, lc.block) for lc in r.locals] == [("t", F, "apply")]
    assert r.apply[0].value.op == "min" and r.apply[0].value.type == F
    reset = r.apply[1].then[-1]
    assert reset.target.kind == "state" and reset.value.type == F  # `urge = 0` is 0.0
    assert r.writes == {"vx", "vy", "urge"}
    assert r.apply[1].then[1].value.op == "neg"


def test_predator_push_sums_offsets_and_scales_by_sign(examples):
    p = examples["predator_push"]
    assert [(s.name, s.type) for s in p.sums] == [("away_x", SF), ("away_y", SF)]
    assert p.neighbours.of == "predators" and p.reads_each.pair == {"dx", "dy"}
    value = p.apply[0].value
    assert value.op == "add"
    scaled = value.args[1]
    assert scaled.op == "mul_int" and scaled.args[0].name == "push"
    assert scaled.args[1].op == "sign" and scaled.args[1].args[0].type == SF  # the exact sum's sign


# --- bad rules: every error at its line:col inside the block ----------------

BAD_TEMPLATE = """\
rule_defs:
  r:
    description: a test rule
    roles: {range: fixed, k: fixed, n: int}
    neighbours: {of: boids, within: range}
    each: |
EACH
    apply: |
APPLY
"""
# each's first line is file line 7, apply's line 9; both blocks start at column 7.
PARAMS = {"margin": "fixed", "steps": "int"}


def bad_rule(tmp_path, apply="vx += k", each="s += dx", template=BAD_TEMPLATE):
    text = (template.replace("EACH", textwrap.indent(each, " " * 6))
            .replace("APPLY", textwrap.indent(apply, " " * 6)))
    path, doc = load_defs(tmp_path, text)
    with pytest.raises(SpecError) as e:
        compile_rule("r", doc["rule_defs"]["r"], str(path), PARAMS)
    return e.value.issues


BAD = [
    # (id, each, apply, line, col, reason substring)
    ("syntax error", None, "vx += (k", 9, 13, "syntax error: '(' was never closed"),
    ("unknown name with a hint", None, "vx += kk", 9, 13, "unknown name 'kk' (did you mean 'k'?)"),
    ("unknown parameter with a hint", None, "vx += margn", 9, 13, "did you mean 'margin'?"),
    ("other outside each", None, "vx += other.x", 9, 13, "other.x exists only inside each"),
    ("assign to a role", None, "k = 1.0", 9, 7, "'k' is a role of this rule: roles are read-only"),
    ("assign to a parameter", None, "margin = 1.0", 9, 7, "'margin' is a spec parameter"),
    ("assign to x", None, "x = 1.0", 9, 7, "'x' is the boid's position: read-only"),
    ("assign to self.y", None, "self.y = 1.0", 9, 7, "self.y is read-only"),
    ("unknown function", None, "vx = foo(k)", 9, 12, "'foo' is not a function of the rule language"),
    ("unknown function with a hint", None, "vx = mn(k, k)", 9, 12, "(did you mean 'min'?)"),
    ("wrong argument count", None, "vx = min(k)", 9, 12, "min() takes 2 arguments, got 1"),
    ("wrong argument count of mag", None, "vx += k  # ok\nvy += mag(k)", 10, 13, "mag() takes 2 arguments, got 1"),
    ("fixed + int", None, "vx = k + n", 9, 14, "type mismatch in +: fixed vs int"),
    ("fixed + int over two lines", None, "vx = (k +\n      n)", 9, 15, "type mismatch in +"),
    ("fixed vs int in max", None, "vx = max(k, n)", 9, 12, "type mismatch in max()"),
    ("int / fixed", None, "vx = n / k", 9, 14, "type mismatch in /: int vs fixed"),
    ("fixed compared with int", None, "if k > n:\n    vx = k", 9, 12, "type mismatch in the comparison >"),
    ("assigning int to the velocity", None, "vx = n", 9, 10, "the assignment to vx: fixed vs int"),
    ("bool in arithmetic", None, "vx = k + (n > 1)", 9, 14, "a bool in arithmetic (+)"),
    ("negated bool", None, "vx = -(n > 1)", 9, 12, "cannot negate a bool"),
    ("int as a condition", None, "if count:\n    vx = k", 9, 10, "if needs a condition (bool), got int"),
    ("sum read inside each", "s += dx\nt = s", "vx += k", 8, 11,
     "'s' is a neighbour sum: it cannot be read inside each"),
    ("sum assigned in apply", None, "s = 1", 9, 7, "'s' is a neighbour sum: read-only in apply"),
    ("sum grown by *=", "s *= dx", "vx += k", 7, 7, "it grows with += or -= only"),
    ("velocity changed in each", "s += dx\nvx = 1", "vx += k", 8, 7, "the velocity changes in apply"),
    ("velocity read in each over boids", "s += vx", "vx += k", 7, 12, "cannot be read inside each over boids"),
    ("pair name outside each", None, "vy = dx", 9, 12, "'dx' exists only inside each"),
    ("undeclared field of the kind", "s += other.r", "vx += k", 7, 12, "boids have no field 'r'"),
    ("undeclared section", None, "vx += target.x", 9, 13, "add `uses: [target]`"),
    ("read before assigned", None, "if vx > 0:\n    t = k\nvx = t", 11, 12, "'t' may be read before it is assigned"),
    ("sqrt of an int", None, "vx = sqrt(n)", 9, 17, "sqrt() takes fixed values, got int"),
    ("__import__", None, "vx += __import__('os')", 9, 13, "'__import__' is not a function of the rule language"),
    ("attribute chain", None, "vx += other.x.y", 9, 13, "attribute chains are not allowed"),
    ("os.system", None, "vx += os.system", 9, 13, "'os.system': only other.<field>, self.<field>"),
    ("a call of an attribute", None, "vx = os.system('ls')", 9, 12, "only the language's functions can be called"),
    ("lambda", None, "f = lambda: 1", 9, 11, "lambdas are not allowed"),
    ("list comprehension", None, "vx = [k for k in k]", 9, 12, "comprehensions are not allowed"),
    ("f-string", None, "vx = f'{k}'", 9, 12, "f-strings are not allowed"),
    ("walrus", None, "if (q := k) > 0:\n    vx = q", 9, 11, "the walrus operator (:=) is not allowed"),
    ("for loop", None, "for i in n:\n    vx += k", 9, 7, "loops are not allowed"),
    ("while loop", None, "while vx > k:\n    vx -= k", 9, 7, "loops are not allowed"),
    ("subscript", None, "vx = k[0]", 9, 12, "subscripts (a[i]) are not allowed"),
    ("import", None, "import os", 9, 7, "imports are not allowed"),
    ("string", None, "vx = 'k'", 9, 12, "strings are not a value"),
    ("modulo", None, "vx = k % 2", 9, 14, "% is not in the language"),
    ("floor division", None, "vx = k // 2", 9, 14, "// is not in the language"),
    ("shift", None, "vx = k << 2", 9, 14, "shifts are not in the language"),
    ("huge int literal", None, "vx = 3000000000", 9, 12, "too large (beyond 32 bits)"),
    ("huge fixed literal", None, "vx = 100000.0", 9, 12, "outside the fixed-point range"),
    ("huge int literal used as fixed", None, "vx = 40000", 9, 12, "outside the fixed-point range"),
    ("body over the size limit", None, "vx += k\n" * 201, 209, 7, "a block holds at most 200 lines"),
    ("expression over the depth limit", None, "vx = " + "k + " * 40 + "k", 9, 12,
     "expression nested deeper than 32 levels"),
    ("nesting too deep for Python's parser", None, "vx = " + "-" * 5000 + "k", 8, 12, "nested too deeply to parse"),
    ("parentheses too deep for Python's parser", None, "vx = " + "(" * 300 + "k" + ")" * 300, 9, 212,
     "too many nested parentheses"),
    ("body over the character limit", None, "vx = " + "k + " * 5000 + "k", 8, 12, "at most 16000 characters"),
    ("call nesting over the depth limit", None, "vx = " + "abs(" * 40 + "k" + ")" * 40, 9, 12 + 32 * 4,
     "expression nested deeper than 32 levels"),
    ("C keyword register", None, "register = 3", 9, 7, "'register' is a reserved word in C or Python"),
    ("C keyword goto", None, "vx += k\ngoto = 3", 10, 7, "'goto' is a reserved word"),
    ("C keyword auto in each", "auto = dx\ns += auto", "vx += k", 7, 7, "'auto' is a reserved word"),
    ("C keyword as a sum", "s += dx\nstatic += 1", "vx += k", 8, 7, "'static' is a reserved word"),
    ("Python keyword as a name", None, "vx = lambda_ + class", 9, 22, "syntax error"),
    ("generated identifier", None, "none = 3", 9, 7, "'none' is reserved: the generated code uses it"),
    ("C predefined macro", None, "unix = 3", 9, 7, "'unix' is a predefined macro"),
    ("language name as a local", None, "count = 1", 9, 7, "'count' is a name of the rule language"),
    ("function name as a local", None, "min = 1", 9, 7, "'min' is a name of the rule language"),
    ("upper-case name", None, "Vx = k", 9, 7, "is not a name of the language"),
    ("chained assignment", None, "a = b = k", 9, 7, "one target per assignment"),
    ("unpacking", None, "vx, vy = k, k", 9, 7, "one name per assignment"),
    ("/=", None, "vx /= k", 9, 10, "only +=, -= and *= update a name in place"),
    ("a bare expression", None, "vx + k", 9, 7, "an expression alone does nothing"),
    ("d2 in arithmetic", "s += d2", "vx += k", 7, 9, "a sum adds fixed or int values, not square"),
    ("d2 compared with a fixed", "if d2 < range:\n    s += dx", "vx += k", 7, 13, "type mismatch in the comparison <"),
    ("is", None, "if k is k:\n    vx = k", 9, 12, "'is' is not in the language"),
    ("return outside before", None, "return", 9, 7, "return is only allowed in before"),
    ("del", None, "del vx", 9, 7, "'delete' statements are not in the language"),
    ("assert", None, "assert vx > 0", 9, 7, "'assert' statements are not in the language"),
]


@pytest.mark.parametrize("each, apply, line, col, reason", [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_bad_rule_is_located(tmp_path, each, apply, line, col, reason):
    issues = bad_rule(tmp_path, apply=apply, each=each or "s += dx")
    assert issues, "no error"
    first = issues[0]
    assert (first.line, first.col) == (line, col), str(first)
    if reason is not None:
        assert reason in first.reason, str(first)
    assert first.path.endswith("spec.yaml") and first.field.startswith("rule_defs.r.")


# --- the definition's keys, and where their errors point ---------------------

def one_rule(tmp_path, body: str, params=None):
    """Compile `r` from `rule_defs:\\n  r:\\n` + body (body indented 4)."""
    text = "rule_defs:\n  r:\n" + textwrap.indent(textwrap.dedent(body), " " * 4)
    path, doc = load_defs(tmp_path, text)
    return compile_rule("r", doc["rule_defs"]["r"], str(path), params or PARAMS)


def one_rule_issues(tmp_path, body: str, params=None):
    with pytest.raises(SpecError) as e:
        one_rule(tmp_path, body, params)
    return [(i.line, i.col, i.field, i.reason) for i in e.value.issues]


HEADER_BAD = [
    ("state without an initial value", """\
        description: d
        roles: {k: fixed}
        state: {urge: }
        apply: |
          urge = urge + k
        """, 5, 13, "rule_defs.r.state.urge", "state 'urge' needs an initial value"),
    ("undeclared neighbour kind", """\
        description: d
        roles: {range: fixed}
        neighbours: {of: boid, within: range}
        each: |
          s += dx
        apply: |
          vx += s
        """, 5, 22, "rule_defs.r.neighbours.of", "(did you mean 'boids'?)"),
    ("within is not a role", """\
        description: d
        roles: {range: fixed}
        neighbours: {of: boids, within: rnge}
        apply: |
          vx += 1
        """, 5, 37, "rule_defs.r.neighbours.within", "'rnge' is not a role of this rule (a range is a fixed role) "
                                                     "(did you mean 'range'?)"),
    ("boids without a range", """\
        description: d
        neighbours: {of: boids}
        apply: |
          vx += 1
        """, 4, 17, "rule_defs.r.neighbours.within", "boids need `within: <range role>`"),
    ("each without neighbours", """\
        description: d
        each: |
          s += 1
        apply: |
          vx += 1
        """, 4, 5, "rule_defs.r.each", "each needs `neighbours:`"),
    ("unknown key", """\
        description: d
        aply: |
          vx += 1
        """, 4, 5, "rule_defs.r.aply", "unknown key 'aply' (did you mean 'apply'?)"),
    ("role type", """\
        description: d
        roles: {k: fixd}
        apply: |
          vx += k
        """, 4, 16, "rule_defs.r.roles.k", "(did you mean 'fixed'?)"),
    ("role named vx", """\
        description: d
        roles: {vx: fixed}
        apply: |
          vy += 1
        """, 4, 13, "rule_defs.r.roles.vx", "a role cannot be named 'vx'"),
    ("state named like a role", """\
        description: d
        roles: {k: fixed}
        state: {k: 0}
        apply: |
          vx += k
        """, 5, 13, "rule_defs.r.state.k", "'k' is a role of this rule"),
    ("missing description", """\
        roles: {k: fixed}
        apply: |
          vx += k
        """, 3, 5, "rule_defs.r.description", "a rule needs a description"),
    ("folded block", """\
        description: d
        apply: >
          vx += 1
        """, 4, 12, "rule_defs.r.apply", "a folded block (`>`) joins its lines"),
    ("plain one-line block", """\
        description: d
        apply: vx += kk
        """, 4, 18, "rule_defs.r.apply", "unknown name 'kk'"),
    ("quoted one-line block", """\
        description: d
        apply: "vx += kk"
        """, 4, 19, "rule_defs.r.apply", "unknown name 'kk'"),
    ("block with an indentation indicator", """\
        description: d
        apply: |2
          vx += kk
        """, 5, 13, "rule_defs.r.apply", "unknown name 'kk'"),
    ("block after blank lines and a comment", """\
        description: d
        apply: |  # the code

          vx += 1

          vy += kk
        """, 8, 13, "rule_defs.r.apply", "unknown name 'kk'"),
    ("state initial expression", """\
        description: d
        roles: {k: fixed}
        state: {b: "k + nn"}
        apply: |
          vx += b
        """, 5, 21, "rule_defs.r.state.b", "unknown name 'nn'"),
    ("state initial reads the velocity", """\
        description: d
        state: {b: vx}
        apply: |
          vy += b
        """, 4, 16, "rule_defs.r.state.b", "a state's initial value is computed at spawn"),
    ("role shadows a function", """\
        description: d
        roles: {min: fixed, max: fixed}
        apply: |
          vx = max(vx, min)
        """, 6, 12, "rule_defs.r.apply", "'max' is a role of this rule here, not the function max()"),
    ("sum of two types", """\
        description: d
        roles: {range: fixed, n: int}
        neighbours: {of: boids, within: range}
        each: |
          s += dx
          s += n
        apply: |
          vx += s
        """, 8, 9, "rule_defs.r.each", "the sum 's' adds fixed values, this is int"),
    ("a kind's field on another kind", """\
        description: d
        roles: {range: fixed}
        neighbours: {of: predators, within: range}
        each: |
          s += other.r
        apply: |
          vx += s
        """, 7, 12, "rule_defs.r.each", "predators have no field 'r' (fields: x, y, vx, vy)"),
]


@pytest.mark.parametrize("body, line, col, fld, reason", [c[1:] for c in HEADER_BAD], ids=[c[0] for c in HEADER_BAD])
def test_bad_definition_is_located(tmp_path, body, line, col, fld, reason):
    issues = one_rule_issues(tmp_path, body)
    assert any((ln, cl, f) == (line, col, fld) and reason in r for ln, cl, f, r in issues), issues


def test_every_error_of_a_rule_is_reported_in_file_order(tmp_path):
    issues = one_rule_issues(tmp_path, """\
        description: d
        roles: {range: fixed, n: int}
        neighbours: {of: boids, within: range}
        each: |
          s += other.q
        apply: |
          vx += kk
          vy = n
          goto = 1
        """)
    assert [(ln, cl) for ln, cl, _, _ in issues] == [(7, 12), (9, 13), (10, 10), (11, 7)]
    assert "unknown name 'kk'" in issues[1][3] and "fixed vs int" in issues[2][3]


# --- decisions: what the language means --------------------------------------

def test_position_stays_reachable_as_self_when_roles_shadow_it(tmp_path):
    r = one_rule(tmp_path, """\
        description: d
        roles: {x: fixed}
        apply: |
          vx += x - self.x
        """)
    sub = r.apply[0].value.args[1]
    assert sub.op == "sub" and sub.args[0].kind == "role" and sub.args[1].kind == "self"


def test_integer_literals_adapt_and_decimals_are_fixed(tmp_path):
    r = one_rule(tmp_path, """\
        description: d
        roles: {n: int}
        apply: |
          vx = 1
          vy = 1 / 2 + 0.25
          m = n * 2
          z = 0
        """)
    one = r.apply[0].value
    assert one.type == F and one.value == 1  # 1 is 1.0: the emitter converts it with the format
    half = r.apply[1].value
    assert half.op == "add" and half.args[0].op == "div" and half.args[0].args[0].type == F
    assert r.apply[2].value.op == "imul"
    assert {(lc.name, lc.type) for lc in r.locals} == {("m", I), ("z", I)}  # nothing decides: int


def test_mixed_int_and_fixed_are_named_ops(tmp_path):
    r = one_rule(tmp_path, """\
        description: d
        roles: {k: fixed, n: int}
        apply: |
          vx = k * n
          vy = k / n
          m = n / 2
          vx += fixed(m) - fixed(int(k))
        """)
    assert [st.value.op for st in r.apply[:3]] == ["mul_int", "div_int", "idiv"]
    conv = r.apply[3].value.args[1]
    assert conv.args[0].op == "int_to_fixed" and conv.args[1].args[0].op == "fixed_to_int"


def test_sums_are_whole_when_compared_or_averaged_and_wrapped_elsewhere(tmp_path):
    r = one_rule(tmp_path, """\
        description: d
        roles: {range: fixed, k: fixed}
        neighbours: {of: boids, within: range, coincident: false}
        each: |
          s += other.vx
          c -= dx
          n += 1
        apply: |
          if count > 0 and s > 0:
              vx += (s / count - vx) * k
          vy += c * k
          if n > 2:
              vy += fixed(n / 2)
        """)
    assert [(x.name, x.type) for x in r.sums] == [("s", SF), ("c", SF), ("n", SI)]
    assert r.each[1].op == "acc_sub"
    cond = r.apply[0].cond
    assert cond.op == "and" and cond.args[1].args[0].type == SF  # 64-bit compare
    mean = r.apply[0].then[0].value.args[1].args[0].args[0]
    assert mean.op == "sum_mean" and mean.args[1].kind == "count"
    assert r.apply[1].value.args[1].args[0].op == "sum_to_fixed"
    assert r.apply[2].then[0].value.args[1].args[0].op == "sum_idiv"
    assert r.neighbours.coincident is False and r.reads_apply.count


def test_dist_is_needed_only_where_used(tmp_path):
    r = one_rule(tmp_path, """\
        description: d
        roles: {range: fixed}
        neighbours: {of: boids, within: range, coincident: false}
        each: |
          s += dx / dist
          if d2 < sq(range / 2):
              near += 1
        apply: |
          vx += s
        """)
    assert r.needs_dist and r.reads_each.pair == {"dx", "dist", "d2"}
    cmp = r.each[1].cond
    assert cmp.op == "lt" and cmp.args[0].type == Type.SQUARE and cmp.args[1].op == "sq"


def test_other_kinds_see_the_velocity_and_their_own_fields(tmp_path):
    r = one_rule(tmp_path, """\
        description: d
        roles: {w: fixed}
        neighbours: {of: obstacles}
        each: |
          if vx * dx + vy * dy < 0 and dist > other.r:
              s += dx
        apply: |
          vx += s * w
        """)
    assert r.neighbours.within is None and r.reads_each.other_fields == {"r"}
    assert r.reads_each.self_fields == {"vx", "vy"}


def test_state_types_come_from_initial_values_and_uses(tmp_path):
    r = one_rule(tmp_path, """\
        description: d
        roles: {k: fixed, n: int}
        uses: [scouts]
        state: {a: k, b: 0, c: 0, d: "k if index < scouts.group1 else 0", e: 0.5, f: false}
        apply: |
          b = b + 1
          if c > 2 and not f:
              c = 0
          vx += a + d + e
        """)
    types = {st.name: st.type for st in r.state}
    assert types == {"a": F, "b": I, "c": I, "d": F, "e": F, "f": B}
    d = next(st for st in r.state if st.name == "d")
    assert d.initial.op == "select" and d.initial.args[2].type == F


# --- the library in the language: op for op with today's C templates --------



def c_expr(e) -> str:
    """The IR in fixed.h spelling (ops.OPS[...].c), to hold it against the templates."""
    if isinstance(e, Const):
        if e.type == F:
            return {0: "0", 1: "FX_ONE"}.get(e.value, f"FX({e.value})")
        return str(int(e.value))
    if isinstance(e, Ref):
        if e.kind == "other":
            return f"o->{e.name}"
        if e.kind == "world":
            return "f->" + e.name.replace(".", "_")
        if e.kind == "screen":
            return f"BOIDS_{e.name.upper()}_FX"
        return e.name
    return OPS[e.op].c.format(*(c_expr(a) for a in e.args))


def c_lines(body, out=None, ind="") -> list:
    out = [] if out is None else out
    for st in body:
        if isinstance(st, Assign):
            out.append(f"{ind}{st.target.name} = {c_expr(st.value)};")
        elif isinstance(st, Return):
            out.append(f"{ind}return;")
        elif isinstance(st, Accumulate):
            out.append(f"{ind}{st.sum} {'+=' if st.op == 'acc_add' else '-='} {c_expr(st.value)};")
        else:
            out.append(f"{ind}if {c_expr(st.cond)} {{")
            c_lines(st.then, out, ind + "    ")
            if st.orelse:
                out.append(f"{ind}}} else {{")
                c_lines(st.orelse, out, ind + "    ")
            out.append(f"{ind}}}")
    return out


def same_c(body, expected: str) -> None:
    assert c_lines(body) == textwrap.dedent(expected).strip().splitlines()


# Expected code: the C of each rule's former template (rule.c.j2, replaced by
# codegen/rules/defs/<rule>.yaml), with the template's
# names (a role for {{ r.c('role') }}, count for n_visual / r.count_var) and
# one statement per line, as the IR spells it.
OP_FOR_OP = {
    "separation": ("""
        close_dx += dx;
        close_dy += dy;
        """, """
        vx = fx_add(vx, fx_mul(fx_acc_fx(close_dx), factor));
        vy = fx_add(vy, fx_mul(fx_acc_fx(close_dy), factor));
        """),
    "alignment": ("""
        sum_vx += o->vx;
        sum_vy += o->vy;
        """, """
        if (count > 0) {
            vx = fx_add(vx, fx_mul(fx_sub(fx_acc_mean(sum_vx, count), vx), factor));
            vy = fx_add(vy, fx_mul(fx_sub(fx_acc_mean(sum_vy, count), vy), factor));
        }
        """),
    "cohesion": ("""
        sum_x += o->x;
        sum_y += o->y;
        """, """
        if (count > 0) {
            vx = fx_add(vx, fx_mul(fx_sub(fx_acc_mean(sum_x, count), x), factor));
            vy = fx_add(vy, fx_mul(fx_sub(fx_acc_mean(sum_y, count), y), factor));
        }
        """),
    "edges": ("", """
        if (y < top) {
            vy = fx_add(vy, factor);
        }
        if (x > fx_sub(BOIDS_WIDTH_FX, right)) {
            vx = fx_sub(vx, factor);
        }
        if (x < left) {
            vx = fx_add(vx, factor);
        }
        if (y > fx_sub(BOIDS_HEIGHT_FX, bottom)) {
            vy = fx_sub(vy, factor);
        }
        """),
    "speed_limit": ("", """
        speed = BOIDS_MAG(vx, vy);
        if (speed < min) {
            if (speed == 0) {
                vx = min;
                vy = 0;
            } else {
                vx = fx_mul(fx_div(vx, speed), min);
                vy = fx_mul(fx_div(vy, speed), min);
            }
        } else {
            if (speed > max) {
                vx = fx_mul(fx_div(vx, speed), max);
                vy = fx_mul(fx_div(vy, speed), max);
            }
        }
        """),
    "alignment_force": ("""
        sum_vx += o->vx;
        sum_vy += o->vy;
        """, """
        if (count > 0) {
            ax = fx_acc_mean(sum_vx, count);
            ay = fx_acc_mean(sum_vy, count);
            m = BOIDS_MAG(ax, ay);
            if (m > max_force) {
                ax = fx_mul(fx_div(ax, m), max_force);
                ay = fx_mul(fx_div(ay, m), max_force);
            }
            vx = fx_add(vx, fx_mul(ax, weight));
            vy = fx_add(vy, fx_mul(ay, weight));
        }
        """),
    "alignment_unit": ("""
        sum_vx += o->vx;
        sum_vy += o->vy;
        """, """
        if (count > 0) {
            ax = fx_acc_mean(sum_vx, count);
            ay = fx_acc_mean(sum_vy, count);
            m = BOIDS_MAG(ax, ay);
            if (m > 0) {
                vx = fx_add(vx, fx_mul(fx_div(ax, m), weight));
                vy = fx_add(vy, fx_mul(fx_div(ay, m), weight));
            }
        }
        """),
    "cohesion_force": ("""
        to_x -= dx;
        to_y -= dy;
        """, """
        if (count > 0) {
            cx = fx_acc_mean(to_x, count);
            cy = fx_acc_mean(to_y, count);
            m = BOIDS_MAG(cx, cy);
            if (m > max_force) {
                cx = fx_mul(fx_div(cx, m), max_force);
                cy = fx_mul(fx_div(cy, m), max_force);
            }
            vx = fx_add(vx, fx_mul(cx, weight));
            vy = fx_add(vy, fx_mul(cy, weight));
        }
        """),
    "cohesion_radius": ("""
        sum_x += o->x;
        sum_y += o->y;
        """, """
        if (count > 0) {
            vx = fx_add(vx, fx_mul(fx_sub(fx_acc_mean(sum_x, count), x), weight));
            vy = fx_add(vy, fx_mul(fx_sub(fx_acc_mean(sum_y, count), y), weight));
        }
        """),
    "food_tracking": ("""
        to_x += fx_sub(o->x, x);
        to_y += fx_sub(o->y, y);
        """, """
        if (count > 0) {
            vx = fx_add(vx, fx_mul(fx_acc_fx(to_x), factor));
            vy = fx_add(vy, fx_mul(fx_acc_fx(to_y), factor));
        }
        """),
    "gravity": ("", """
        vy = fx_add(vy, g);
        """),
    "obstacle_avoidance": ("""
        surf = fx_sub(dist, o->r);
        if (surf < 0) {
            surf = 0;
        }
        if ((dist > 0) && (surf < range)) {
            ux = fx_div(dx, dist);
            uy = fx_div(dy, dist);
            s = fx_div(FX_ONE, fx_add(FX_ONE, surf));
            dot = fx_add(fx_mul(vx, ux), fx_mul(vy, uy));
            push_x += fx_mul(ux, s);
            push_y += fx_mul(uy, s);
            if (dot < 0) {
                px = fx_sub(vx, fx_mul(dot, ux));
                py = fx_sub(vy, fx_mul(dot, uy));
                pm = BOIDS_MAG(px, py);
                if (pm > 0) {
                    px = fx_div(px, pm);
                    py = fx_div(py, pm);
                } else {
                    px = fx_neg(uy);
                    py = ux;
                }
                push_x += fx_mul(px, s);
                push_y += fx_mul(py, s);
            }
        }
        """, """
        vx = fx_add(vx, fx_mul(fx_acc_fx(push_x), weight));
        vy = fx_add(vy, fx_mul(fx_acc_fx(push_y), weight));
        """),
    "predator_avoidance": ("""
        sum_dx += dx;
        sum_dy += dy;
        """, """
        if (count > 0) {
            if (sum_dy > 0) {
                vy = fx_add(vy, factor);
            }
            if (sum_dy < 0) {
                vy = fx_sub(vy, factor);
            }
            if (sum_dx > 0) {
                vx = fx_add(vx, factor);
            }
            if (sum_dx < 0) {
                vx = fx_sub(vx, factor);
            }
        }
        """),
    "predator_flee": ("""
        s = fx_div(FX_ONE, fx_add(FX_ONE, dist));
        flee_x += fx_mul(fx_div(dx, dist), s);
        flee_y += fx_mul(fx_div(dy, dist), s);
        """, """
        vx = fx_add(vx, fx_mul(fx_acc_fx(flee_x), weight));
        vy = fx_add(vy, fx_mul(fx_acc_fx(flee_y), weight));
        """),
    "scout_bias": ("", """
        group = ((index < f->scouts_group1) ? 1 : (((int32_t)((uint32_t)index - (uint32_t)f->scouts_group1) < f->scouts_group2) ? 2 : 0));
        if (group != 0) {
            if (dynamic != 0) {
                b = bias;
                if (((group == 1) && (vx > 0)) || ((group == 2) && (vx < 0))) {
                    b = fx_add(b, increment);
                    if (b > max_bias) {
                        b = max_bias;
                    }
                } else {
                    b = fx_sub(b, increment);
                    if (b < increment) {
                        b = increment;
                    }
                }
            } else {
                b = ((group == 1) ? bias1 : bias2);
            }
            bias = b;
            vx = fx_add(fx_mul(fx_sub(FX_ONE, b), vx), ((group == 1) ? b : fx_neg(b)));
        }
        """),
    "separation_force": ("""
        d = ((dist < FX_ONE) ? FX_ONE : dist);
        push_x += fx_div(fx_div(dx, dist), d);
        push_y += fx_div(fx_div(dy, dist), d);
        """, """
        if (count > 0) {
            vx = fx_add(vx, fx_mul(fx_acc_mean(push_x, count), weight));
            vy = fx_add(vy, fx_mul(fx_acc_mean(push_y, count), weight));
        }
        """),
    "separation_inverse": ("""
        s = fx_div(FX_ONE, fx_add(FX_ONE, dist));
        push_x += fx_mul(fx_div(dx, dist), s);
        push_y += fx_mul(fx_div(dy, dist), s);
        """, """
        vx = fx_add(vx, fx_mul(fx_acc_fx(push_x), weight));
        vy = fx_add(vy, fx_mul(fx_acc_fx(push_y), weight));
        """),
    "speed_cap": ("", """
        m = BOIDS_MAG(vx, vy);
        if (m > max) {
            vx = fx_mul(fx_div(vx, m), max);
            vy = fx_mul(fx_div(vy, m), max);
        }
        vx = fx_mul(vx, multiplier);
        vy = fx_mul(vy, multiplier);
        """),
    "speed_regulation": ("", """
        speed = BOIDS_MAG(vx, vy);
        goal = fx_sub(speed, fx_mul(rate, fx_sub(speed, default)));
        if (speed == 0) {
            vx = goal;
            vy = 0;
        } else {
            vx = fx_mul(fx_div(vx, speed), goal);
            vy = fx_mul(fx_div(vy, speed), goal);
        }
        """),
    "target_seek": ("", """
        if f->target_on {
            vx = fx_add(vx, fx_mul(fx_sub(f->target_x, x), factor));
            vy = fx_add(vy, fx_mul(fx_sub(f->target_y, y), factor));
        }
        """),
}


def test_perching_rests_in_before_as_the_template_continues():
    rule = load_rule_file(DEFS / "perching.yaml")
    same_c(rule.before, """
        if (perch > 0) {
            perch = (int32_t)((uint32_t)perch - (uint32_t)1);
            if (perch > 0) {
                vx = 0;
                vy = 0;
                return;
            }
            vx = 0;
            vy = fx_neg(takeoff);
        }
        """)
    landing = ("if (((((perch == 0) && (y < f->ledge_y)) && (fx_add(y, vy) >= f->ledge_y)) && (x >= f->ledge_left))"
               " && (x <= f->ledge_right)) {")
    same_c(rule.apply, "        " + landing + """
            perch = time;
            vx = 0;
            vy = fx_sub(f->ledge_y, y);
        }
        """)
    assert [(s.name, s.type) for s in rule.state] == [("perch", I)]
    assert rule.writes == {"vx", "vy", "perch"} and rule.reads_before.state == {"perch"}


def test_before_sees_no_sums_and_only_before_may_return(tmp_path):
    issues = one_rule_issues(tmp_path, """\
        description: d
        roles: {range: fixed}
        neighbours: {of: boids, within: range}
        before: |
          if s > 0:
              return 1
        each: |
          s += dx
        apply: |
          vx += s
        """)
    assert [(ln, cl) for ln, cl, _, _ in issues] == [(7, 10), (8, 18)]
    assert "before runs ahead of the neighbours" in issues[0][3] and "return takes no value" in issues[1][3]


@pytest.mark.parametrize("path", library_files(), ids=lambda p: p.stem)
def test_library_rule_compiles(path):
    rule = load_rule_file(path)
    assert rule.name == path.stem and rule.description and rule.seed


@pytest.mark.parametrize("name", sorted(OP_FOR_OP))
def test_library_rule_is_the_template_op_for_op(name):
    rule = load_rule_file(DEFS / f"{name}.yaml")
    each, apply = OP_FOR_OP[name]
    same_c(rule.each, each)
    same_c(rule.apply, apply)


def test_library_zones_are_the_seed_zones():
    sep, ali, coh = (load_rule_file(DEFS / f"{n}.yaml") for n in ("separation", "alignment", "cohesion"))
    assert (sep.neighbours.within, sep.neighbours.zone) == ("range", "protected")
    for r in (ali, coh):
        assert (r.neighbours.within, r.neighbours.zone) == ("range", "visual") and r.neighbours.coincident
    assert not any(r.needs_dist for r in (sep, ali, coh))


@pytest.mark.parametrize("frac_bits", [15, 16])
def test_library_compiles_in_both_formats(frac_bits):
    from codegen.lang.library import load_library

    assert len(load_library(frac_bits=frac_bits)) == 23


# --- hostile or random bodies: a located SpecError or an IR, never a traceback

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_ATOMS = ["vx", "vy", "x", "k", "n", "count", "s", "dx", "d2", "dist", "other.x", "self.y", "target.on",
          "1", "0", "0.5", "True", "index", "width", "kk", "q"]
_FUNCS = ["abs", "min", "max", "clamp", "sign", "sqrt", "hypot", "mag", "sq", "fixed", "int", "foo"]


def _expr(depth: int):
    leaf = st.sampled_from(_ATOMS)
    if depth == 0:
        return leaf
    sub = _expr(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(sub, st.sampled_from(["+", "-", "*", "/", "<", ">=", "==", "and", "or", "%"]), sub)
        .map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(["-", "not "]), sub).map(lambda t: f"{t[0]}{t[1]}"),
        st.tuples(st.sampled_from(_FUNCS), st.lists(sub, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(sub, sub, sub).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
    )


_STMT = st.one_of(
    st.tuples(st.sampled_from(["vx", "vy", "t", "urge", "k", "s", "x"]), st.sampled_from(["=", "+=", "-=", "*="]),
              _expr(3)).map(lambda t: f"{t[0]} {t[1]} {t[2]}"),
    st.tuples(_expr(2), st.sampled_from(["vx", "t", "urge"]), _expr(2))
    .map(lambda t: f"if {t[0]}:\n    {t[1]} = {t[2]}\nelse:\n    pass"),
)


def _fuzz_compile(tmp_path, each: str, apply: str):
    text = ("rule_defs:\n  r:\n    description: fuzz\n    roles: {range: fixed, k: fixed, n: int}\n"
            "    neighbours: {of: boids, within: range}\n    state: {urge: 0}\n    uses: [target]\n"
            "    each: |\n" + textwrap.indent(each or "s += dx", " " * 6) + "\n"
            "    apply: |\n" + textwrap.indent(apply or "pass", " " * 6) + "\n")
    path = tmp_path / "fuzz.yaml"
    path.write_text(text)
    doc = read_yaml(path)
    nlines = len(text.splitlines())
    try:
        compile_rule("r", doc["rule_defs"]["r"], str(path), PARAMS)
    except SpecError as e:
        for i in e.issues:
            assert 1 <= i.line <= nlines + 1 and i.col >= 1 and i.reason, str(i)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(each=st.lists(_STMT, max_size=3).map("\n".join), apply=st.lists(_STMT, min_size=1, max_size=4).map("\n".join))
def test_random_bodies_give_an_ir_or_located_errors(tmp_path, each, apply):
    _fuzz_compile(tmp_path, each, apply)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(apply=st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=80))
def test_random_text_gives_located_errors(tmp_path, apply):
    if apply.strip() and not apply.lstrip().startswith(("#", "|", ">", "-", "'", '"', "%", "@", "&", "*", "!", "`")):
        _fuzz_compile(tmp_path, "s += dx", apply.strip())
