"""IR expressions back to the rule language's text, for the range report.

`unparse(e, names)` prints an expression as a rule would write it, with
the fewest parentheses Python's precedence needs. Roles print as the spec
parameter bound to them (`names`: role -> parameter), since those are what
a spec's author can narrow; a position hidden by a role of its name prints
as `self.x`. The implicit narrowing of a sum to 32 bits (`sum_to_fixed`)
prints as the sum's name, as written.
"""
from __future__ import annotations

from fractions import Fraction

from codegen.lang.ir import Const, Op, Ref

_BIN = {"add": ("+", 5), "sub": ("-", 5), "iadd": ("+", 5), "isub": ("-", 5),
        "mul": ("*", 6), "imul": ("*", 6), "mul_int": ("*", 6),
        "div": ("/", 6), "idiv": ("/", 6), "div_int": ("/", 6), "sum_mean": ("/", 6), "sum_idiv": ("/", 6),
        "sum_mean_about": ("/", 6),  # offsets.py: printed as written, `sum_x / count`
        "lt": ("<", 4), "le": ("<=", 4), "gt": (">", 4), "ge": (">=", 4), "eq": ("==", 4), "ne": ("!=", 4),
        "and": ("and", 2), "or": ("or", 1)}
_CALL = {"sqrt": "sqrt", "hypot": "hypot", "mag": "mag", "sq": "sq", "abs": "abs", "min": "min", "max": "max",
         "clamp": "clamp", "sign": "sign", "int_to_fixed": "fixed", "fixed_to_int": "int"}
_MAG_CMP = {"mag_lt": "<", "mag_le": "<=", "mag_gt": ">", "mag_ge": ">=", "mag_eq": "==", "mag_ne": "!="}
_SILENT = ("sum_to_fixed", "sum_to_int")


def const_text(c: Const) -> str:
    v = c.value
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, Fraction) and v.denominator != 1:
        text = f"{float(v):.10g}"
        return text
    return str(int(v))


def unparse(e, names: dict | None = None, shadow: frozenset = frozenset()) -> str:
    return _un(e, names or {}, shadow)[0]


def _un(e, names, shadow) -> tuple[str, int]:
    if isinstance(e, Const):
        t = const_text(e)
        return t, (7 if t.startswith("-") else 9)
    if isinstance(e, Ref):
        return _ref(e, names, shadow), 9
    assert isinstance(e, Op), e
    op, args = e.op, e.args
    if op in _SILENT:
        return _un(args[0], names, shadow)
    if op in ("neg", "ineg"):
        a, p = _un(args[0], names, shadow)
        return "-" + (a if p >= 7 else f"({a})"), 7
    if op == "not":
        a, p = _un(args[0], names, shadow)
        return "not " + (a if p >= 3 else f"({a})"), 3
    if op == "select":
        c, pc = _un(args[0], names, shadow)
        a, pa = _un(args[1], names, shadow)
        b, pb = _un(args[2], names, shadow)
        return f"{a if pa > 0 else f'({a})'} if {c if pc > 0 else f'({c})'} else {b}", 0
    if op in _BIN:
        sym, prec = _BIN[op]
        a, pa = _un(args[0], names, shadow)
        b, pb = _un(args[1], names, shadow)
        left = a if pa >= prec and not (prec == 4 and pa == 4) else f"({a})"
        right = b if pb > prec else f"({b})"
        return f"{left} {sym} {right}", prec
    if op in _MAG_CMP:  # codegen/passes/roots.py: floor(sqrt(s)) OP m, printed as that compare
        a, pa = _un(args[0], names, shadow)
        b, pb = _un(args[1], names, shadow)
        return f"{a if pa > 4 else f'({a})'} {_MAG_CMP[op]} {b if pb > 4 else f'({b})'}", 4
    if op == "mag2":
        return f"mag({', '.join(_un(a, names, shadow)[0] for a in args)})^2", 9
    if op == "mag_root":
        return f"sqrt({_un(args[0], names, shadow)[0]})", 9
    if op in ("random", "random_int"):  # the draw itself is not written (args[0])
        args = args[1:]
    name = _CALL.get(op, op)
    return f"{name}({', '.join(_un(a, names, shadow)[0] for a in args)})", 9


def _ref(r: Ref, names: dict, shadow: frozenset) -> str:
    if r.kind == "role":
        return names.get(r.name, r.name)
    if r.kind == "other":
        return f"other.{r.name}"
    if r.kind == "self" and r.name in shadow:
        return f"self.{r.name}"
    return r.name
