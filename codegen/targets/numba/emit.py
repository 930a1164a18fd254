"""Rule IR -> Python text over pysim/fxops.py, for the simulator's numba kernel.

One emitter, three arithmetics (`Arith`): the same IR statement becomes the
same line in each, only the function names differ (fxops' namespaces):

  fixed    fx_NAME(...)              bit for bit fixed.h (int64 carriers)
  float    fl_NAME(...)              float64, the ideal the fixed point approximates
  checked  ck_NAME(..., st, SITE)    fx_NAME plus a record of the first
                                     result outside 32 bits; SITE indexes the
                                     kernel's SITES table (rule, expression,
                                     spec file:line:col)

Int values (the `int` type, int sums, counts, the index) are int64 holding
32-bit values in every arithmetic, with fixed.h's wrapping int ops (fx_, or
ck_ when checked); only fixed values change representation. Each IR op maps
to exactly one function (ops.OPS says what it means); nothing here relies on
Python's own `/`, `//`, `%` or wrapping.

Names are resolved by the caller (`refs`: Ref -> text), so the same emitter
serves a boid's rules, the predators' borrowed rules and a state's initial
value. `ir_text` prints an IR expression back in the language's surface
syntax, for the checked run's messages (`vx / speed`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from pysim.fxdecimal import to_raw_exact

from codegen.lang.ir import Accumulate, Assign, Const, If, Op, Ref, Return, Type

ARITHS = ("fixed", "float", "checked")
PREFIX = {"fixed": "fx_", "float": "fl_", "checked": "ck_"}
INDENT = "    "

# ops on fixed values: op -> (fxops name, takes FRAC_BITS); arguments in IR order
_FIXED = {
    "add": ("add", False), "sub": ("sub", False), "neg": ("neg", False), "mul": ("mul", True),
    "div": ("div", True), "div_int": ("idiv", False), "sqrt": ("sqrt", True), "hypot": ("hypot", False),
    "sq": ("sq64", False), "sum_to_fixed": ("acc_fx", False), "sum_mean": ("acc_mean", False),
    "sum_mean_about": ("acc_mean_about", False),  # codegen/passes/offsets.py
    "sum_wrap32": ("wrap32", False),  # a narrowed sum (codegen/passes/widths.py): the C's 32-bit bits
    # a magnitude compared without its root (codegen/passes/roots.py)
    "mag2": ("mag2", False), "mag_root": ("mag_root", False), "mag_lt": ("mag_lt", False),
    "mag_le": ("mag_le", False), "mag_gt": ("mag_gt", False), "mag_ge": ("mag_ge", False),
    "mag_eq": ("mag_eq", False), "mag_ne": ("mag_ne", False),
    "random": ("random", True),  # a draw (pysim/fx_draws.py)
    # angles in turns, vectors (pysim/fx_angles.py)
    "sin": ("sin", True), "cos": ("cos", True), "atan2": ("atan2", True), "unit_x": ("unit_x", True),
    "unit_y": ("unit_y", True), "rotate_x": ("rotate_x", True), "rotate_y": ("rotate_y", True),
}
# ops on int values, wrapping as fixed.h's int ops (fx_ in fixed and float alike)
_INT = {
    "iadd": "add", "isub": "sub", "ineg": "neg", "imul": "imul", "idiv": "idiv",
    "sum_to_int": "acc_fx", "sum_idiv": "acc_mean", "random_int": "random_int",
}
_COMPARE = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}
# generic ops: fxops' function of the value's type (an int's in every arithmetic)
_GENERIC = {"abs": "abs", "min": "min", "max": "max", "clamp": "clamp", "sign": "sign"}


def fixed_raw(value, frac_bits: int) -> int:
    """A fixed constant's raw value: round(value * 2^F), halves away from
    zero (as the generator converts parameters), wrapped to 32 bits."""
    raw = to_raw_exact(Fraction(value), frac_bits)
    return ((raw & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000


@dataclass
class Sites:
    """The checked kernel's findings table: one row per checked call."""
    rows: list = field(default_factory=list)  # (rule, expression text, file, line, col)

    def add(self, rule: str, text: str, path: str, line: int, col: int) -> int:
        self.rows.append((rule, text, path, line, col))
        return len(self.rows) - 1


class Emitter:
    """IR -> Python expressions and statements in one arithmetic.

    refs(ref) gives a Ref's Python text; `rule` and `path` name where the
    code comes from (for the checked sites); `frac_bits` converts constants."""

    def __init__(self, arith: str, frac_bits: int, refs: Callable[[Ref], str], *, sites: Sites | None = None,
                 rule: str = "", path: str = "") -> None:
        assert arith in ARITHS
        self.arith, self.fb, self.refs = arith, frac_bits, refs
        self.sites, self.rule, self.path = sites, rule, path
        self.used: set = set()  # fxops names the text calls (for the module's import)

    # --- calls ---
    @property
    def checked(self) -> bool:
        return self.arith == "checked"

    def call(self, name: str, args: list[str], *, fb: bool = False, int_op: bool = False, node=None,
             text: str | None = None) -> str:
        """fxops' `name` in this arithmetic (int ops: the fixed one, or
        checked), with FRAC_BITS and, when checked, (st, site)."""
        prefix = ("ck_" if self.checked else "fx_") if int_op else PREFIX[self.arith]
        fn = prefix + name
        self.used.add(fn)
        args = list(args) + (["FRAC_BITS"] if fb else [])
        if prefix == "ck_":
            args += ["st", str(self.site(node, text))]
        return f"{fn}({', '.join(args)})"

    def site(self, node, text: str | None = None) -> int:
        if self.sites is None:
            return -1
        pos = getattr(node, "pos", None)
        return self.sites.add(self.rule, text if text is not None else (ir_text(node) if node is not None else ""),
                              self.path, pos.line if pos else 0, pos.col if pos else 0)

    # --- expressions ---
    def const(self, c: Const) -> str:
        if c.type == Type.BOOL:
            return "True" if c.value else "False"
        if c.type == Type.INT:
            return str(int(c.value))
        if c.type == Type.SQUARE:  # n px^2: n << 2F raw (uint64, compared with d2)
            n = int(c.value)
            return repr(float(n)) if self.arith == "float" else f"np.uint64({n << (2 * self.fb)})"
        if self.arith == "float":
            return repr(float(Fraction(c.value)))
        raw = fixed_raw(c.value, self.fb)
        return str(raw) if raw >= 0 else f"({raw})"

    def expr(self, e) -> str:
        if isinstance(e, Const):
            return self.const(e)
        if isinstance(e, Ref):
            return self.refs(e)
        assert isinstance(e, Op), e
        a = [self.expr(x) for x in e.args]
        op = e.op
        if op in _COMPARE:
            return f"({a[0]} {_COMPARE[op]} {a[1]})"
        if op in ("and", "or"):
            return f"({a[0]} {op} {a[1]})"
        if op == "not":
            return f"(not {a[0]})"
        if op == "select":
            return f"({a[1]} if {a[0]} else {a[2]})"
        if op in _FIXED:
            name, fb = _FIXED[op]
            return self.call(name, a, fb=fb, node=e)
        if op in _INT:
            return self.call(_INT[op], a, int_op=True, node=e)
        if op == "mul_int":  # (fixed, int): fx_imul(n, a) = wrap(n * a)
            return self.call("imul", [a[1], a[0]], node=e)
        if op == "mag":
            return self.call("mag", a + ["USE_AMB", "AMB_ALPHA", "AMB_BETA"], fb=True, node=e)
        if op == "int_to_fixed":
            return self.call("from_int", a, fb=True, node=e)
        if op == "fixed_to_int":  # C's (f / FX_ONE): truncation toward zero
            return self.call("to_int", a, fb=True, node=e)
        if op in _GENERIC:
            t = e.args[0].type if op == "sign" else e.type
            return self.call(_GENERIC[op], a, int_op=t in (Type.INT, Type.SUM_INT), node=e)
        raise NotImplementedError(f"op {op}")  # every op of ops.OPS is handled above

    # --- statements ---
    def block(self, stmts, depth: int, on_return: Callable[[int], list[str]] | None = None) -> list[str]:
        """Lines (indented `depth` levels) for the statements; a Return
        becomes on_return(depth)'s lines."""
        out: list[str] = []
        pad = INDENT * depth
        for st in stmts:
            if isinstance(st, Assign):
                out.append(f"{pad}{self.refs(st.target)} = {self.expr(st.value)}")
            elif isinstance(st, Accumulate):
                target = self.refs(Ref("sum", st.sum, Type.SUM_FIXED, st.pos))
                is_int = st.value.type == Type.INT
                name = "acc_add" if st.op in ("acc_add", "acc32_add") else "acc_sub"  # acc32: wrapped at the read
                out.append(f"{pad}{target} = "
                           f"{self.call(name, [target, self.expr(st.value)], int_op=is_int, node=st.value)}")
            elif isinstance(st, If):
                out.extend(self._if(st, depth, on_return, "if"))
            elif isinstance(st, Return):
                assert on_return is not None, "return outside before"
                out.extend(on_return(depth))
            else:
                raise NotImplementedError(type(st).__name__)
        return out

    def _if(self, st: If, depth: int, on_return, word: str) -> list[str]:
        pad = INDENT * depth
        out = [f"{pad}{word} {self.expr(st.cond)}:"]
        out += self.block(st.then, depth + 1, on_return) or [f"{pad}{INDENT}pass"]
        if len(st.orelse) == 1 and isinstance(st.orelse[0], If):
            out += self._if(st.orelse[0], depth, on_return, "elif")
        elif st.orelse:
            out.append(f"{pad}else:")
            out += self.block(st.orelse, depth + 1, on_return)
        return out


# --- the IR printed back as the language's surface syntax ---------------------------------------

_INFIX = {"add": "+", "iadd": "+", "sub": "-", "isub": "-", "mul": "*", "imul": "*", "mul_int": "*",
          "div": "/", "idiv": "/", "div_int": "/", "sum_mean": "/", "sum_idiv": "/",
          "sum_mean_about": "/"}  # offsets.py: as written, `sum_x / count`
_PREC = {"or": 1, "and": 2, "not": 3, "cmp": 4, "+": 5, "-": 5, "*": 6, "/": 6, "neg": 7}
_MAG_CMP = {"mag_lt": "lt", "mag_le": "le", "mag_gt": "gt", "mag_ge": "ge", "mag_eq": "eq", "mag_ne": "ne"}
_CALLED = {"abs", "min", "max", "clamp", "sign", "sqrt", "hypot", "mag", "sq", "sin", "cos", "atan2",
           "unit_x", "unit_y", "rotate_x", "rotate_y"}
_DRAWN = {"random": "random", "random_int": "random_int"}  # the draw itself is not written


def _decimal(v: Fraction) -> str:
    if v.denominator == 1:
        return str(v.numerator)
    d = v.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return repr(float(v))
    digits = max(twos, fives)
    s = f"{abs(v.numerator) * (10 ** digits) // v.denominator:0{digits + 1}d}"
    s = f"{s[:-digits]}.{s[-digits:]}".rstrip("0").rstrip(".")
    return ("-" if v < 0 else "") + s


def ir_text(e, prec: int = 0) -> str:
    """An IR expression as the rule's author would write it (`vx / speed`)."""
    if isinstance(e, Const):
        if e.type == Type.BOOL:
            return "True" if e.value else "False"
        return _decimal(Fraction(e.value)) if e.type == Type.FIXED else str(e.value)
    if isinstance(e, Ref):
        return f"other.{e.name}" if e.kind == "other" else e.name
    op, args = e.op, e.args
    if op in ("sum_to_fixed", "sum_to_int", "sum_wrap32"):
        return ir_text(args[0], prec)
    if op in ("int_to_fixed", "fixed_to_int"):
        return f"{'fixed' if op == 'int_to_fixed' else 'int'}({ir_text(args[0])})"
    if op in _MAG_CMP:  # floor(sqrt(s)) OP m: printed as the compare it stands for
        p = _PREC["cmp"]
        s = f"{ir_text(args[0], p + 1)} {_COMPARE[_MAG_CMP[op]]} {ir_text(args[1], p + 1)}"
        return f"({s})" if prec > p else s
    if op == "mag2":
        return f"mag({ir_text(args[0])}, {ir_text(args[1])})^2"
    if op == "mag_root":
        return f"sqrt({ir_text(args[0])})"
    if op in _CALLED:
        return f"{op}({', '.join(ir_text(a) for a in args)})"
    if op in _DRAWN:
        return f"{op}({', '.join(ir_text(a) for a in args[1:])})"
    if op == "select":
        s = f"{ir_text(args[1], 1)} if {ir_text(args[0], 1)} else {ir_text(args[2], 1)}"
        return f"({s})" if prec > 0 else s
    if op in ("neg", "ineg"):
        s = f"-{ir_text(args[0], _PREC['neg'])}"
        return f"({s})" if prec > _PREC["neg"] else s
    if op == "not":
        s = f"not {ir_text(args[0], _PREC['not'])}"
        return f"({s})" if prec > _PREC["not"] else s
    if op in ("and", "or"):
        p = _PREC[op]
        s = f"{ir_text(args[0], p)} {op} {ir_text(args[1], p + 1)}"
        return f"({s})" if prec > p else s
    if op in _COMPARE:
        p = _PREC["cmp"]
        s = f"{ir_text(args[0], p + 1)} {_COMPARE[op]} {ir_text(args[1], p + 1)}"
        return f"({s})" if prec > p else s
    sym = _INFIX[op]
    p = _PREC[sym]
    s = f"{ir_text(args[0], p)} {sym} {ir_text(args[1], p + 1)}"
    return f"({s})" if prec > p else s
