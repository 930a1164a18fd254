"""The rule IR printed as C over fixed.h: one printer per IR node.

`expr(e, names)` prints an expression, `block(stmts, locals, names)` a block
of statements with its locals declared at the top of the innermost C block
that holds every use of them. `names` (a `Names`) says what the rule's names
print as where the code lands (a role is P->param, a sum its emitted name,
...); codegen/targets/c/emit.py places the blocks in boids_step.

Every named op prints as ONE fixed.h function (CALL), or as a C operator
for comparisons, conditions and `a if c else b`. Constants are exact: a fixed
literal is rounded to raw for the spec's format (halves away from zero, as
parameters are), 1 prints as FX_ONE and an integer n as n * FX_ONE.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from pysim.fxdecimal import to_raw_exact

from codegen.targets.c.means import CALLS as RECIP_CALLS
from codegen.lang.ir import POSITIONS_ABOUT, Accumulate, Assign, Const, If, Op, Ref, Return, Type
from codegen.lang.ops import OPS

# C precedence levels (higher binds tighter)
ATOM, UNARY, MUL, REL, EQ, AND, OR, COND, TOP = 16, 14, 13, 10, 9, 5, 4, 3, 0

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1

# Ops whose ops.OPS spelling is one fixed.h call with the arguments in order
# are printed as that call (add -> fx_add, ...). These print otherwise: the
# table's inline spellings evaluate an argument twice (min, max, clamp, sign),
# lean on implementation-defined narrowing ((int32_t) of a uint32_t: the int
# ops) or on undefined behaviour (INT32_MIN / -1 in idiv); fixed.h has each
# as one function with both of its spellings (GCC's and FX_PORTABLE).
CALL_OVERRIDE = {
    "mul_int": "fx_imul",  # fixed * int, wraps: the same bits as fx_wrap64((int64_t)a * n)
    "iadd": "fx_iadd",
    "isub": "fx_isub",
    "ineg": "fx_ineg",
    "imul": "fx_imul",
    "idiv": "fx_idiv",  # int / int, truncating, /0 gives 0
    "fixed_to_int": "fx_trunc",  # truncation toward zero
    "min": "fx_min",
    "max": "fx_max",
    "clamp": "fx_clamp",
    "sign": "fx_sign",  # of a sum: fx_acc_sign (its exact 64-bit sign)
}
INFIX = {"lt": ("<", REL), "le": ("<=", REL), "gt": (">", REL), "ge": (">=", REL),
         "eq": ("==", EQ), "ne": ("!=", EQ), "and": ("&&", AND), "or": ("||", OR)}
SPECIAL = {"not", "select", "sum_wrap32"}

_CALL_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\((\{0\}(?:, \{\d\})*)?\)$")


def _call_table() -> dict:
    out = {}
    for name, spec in OPS.items():
        if name in CALL_OVERRIDE or name in INFIX or name in SPECIAL:
            continue
        m = _CALL_RE.match(spec.c)
        args = [f"{{{i}}}" for i in range(spec.arity)]
        if not m or (m.group(2) or "") != ", ".join(args):
            raise AssertionError(f"op {name}: no one-call C spelling for {spec.c!r}")
        out[name] = m.group(1)
    out.update(CALL_OVERRIDE)
    return out


CALL = _call_table()

C_TYPES = {Type.FIXED: "fx", Type.INT: "int32_t", Type.BOOL: "int", Type.SQUARE: "uint64_t",
           Type.SUM_FIXED: "fx_acc", Type.SUM_INT: "fx_acc"}


class EmitError(Exception):
    """The IR holds something the C printer cannot spell (a bug upstream)."""


def decimal_text(v: Fraction) -> str:
    """Exact decimal text of a literal (they come from decimal text: finite)."""
    sign = "-" if v < 0 else ""
    v = abs(v)
    n, d = v.numerator, v.denominator
    k = 0
    while d != 1 and k < 60:
        if (10 ** k) % d == 0:
            break
        k += 1
    if (10 ** k) % d:
        return f"{sign}{float(v)!r}"  # not a finite decimal (not from a literal)
    digits = n * (10 ** k // d)
    ip, fp = divmod(digits, 10 ** k)
    return f"{sign}{ip}" + (f".{fp:0{k}d}".rstrip("0") if fp else "")


def const_c(c: Const, fb: int) -> tuple[str, int]:
    """A literal: fixed rounded to raw for the format (exact decimal in a
    comment), int as itself, bool as 1/0, a square literal as raw 64-bit."""
    t = c.type
    if t == Type.BOOL:
        return ("1" if c.value else "0"), ATOM
    if t == Type.INT:
        n = int(c.value)
        if not INT32_MIN <= n <= INT32_MAX:
            raise EmitError(f"int literal {n} outside 32 bits")
        if n == INT32_MIN:
            return "INT32_MIN", ATOM
        return str(n), (UNARY if n < 0 else ATOM)
    v = Fraction(c.value)
    if t == Type.SQUARE:
        raw = to_raw_exact(v, 2 * fb)
        if not 0 <= raw < (1 << 64):
            raise EmitError(f"square literal {v} outside 64 bits")
        return f"UINT64_C({raw}) /* {decimal_text(v)} */", ATOM
    if t != Type.FIXED:
        raise EmitError(f"a literal of type {t}")
    raw = to_raw_exact(v, fb)
    if not INT32_MIN <= raw <= INT32_MAX:
        raise EmitError(f"fixed literal {v} outside 32 bits at {fb} fraction bits")
    if raw == 0:
        return "0", ATOM
    if v.denominator == 1:
        n = v.numerator
        if n == 1:
            return "FX_ONE", ATOM
        if n == -1:
            return "-FX_ONE", UNARY
        return f"{n} * FX_ONE", MUL
    if raw == INT32_MIN:
        return "FX_MIN", ATOM
    return f"{raw} /* {decimal_text(v)} */", (UNARY if raw < 0 else ATOM)


@dataclass
class Names:
    """What a rule's names print as at one place of the generated code.

    `ref(r)` returns (text, precedence) for every Ref kind but locals;
    `local(name)` the local's C name; `sum(name)` the sum's; `ret` the lines
    a `return` becomes (before only)."""
    fb: int

    def ref(self, r: Ref) -> tuple[str, int]:  # pragma: no cover - interface
        raise NotImplementedError

    def local(self, name: str) -> str:  # pragma: no cover - interface
        raise NotImplementedError

    def sum(self, name: str) -> str:  # pragma: no cover - interface
        raise NotImplementedError

    def ret(self) -> list:  # pragma: no cover - interface
        raise EmitError("return outside before")

    def mean_recip(self, count: str) -> str:
        return f"boids_recip_of({count})"

    def mean32(self, op: str) -> str:
        """The C function of a 32-bit mean (sum_mean, sum_idiv, sum_mean_about)."""
        return "fx_acc32_mean_about" if op == "sum_mean_about" else "fx_acc32_mean"  # 32/32: the M4K's div


def _paren(text_prec: tuple[str, int], need: int) -> str:
    text, prec = text_prec
    return f"({text})" if prec < need else text


def expr(e, names: Names) -> tuple[str, int]:
    """(C text, precedence) of an IR expression."""
    if isinstance(e, Const):
        return const_c(e, names.fb)
    if isinstance(e, Ref):
        if e.kind == "local":
            return names.local(e.name), ATOM
        if e.kind == "sum":
            return names.sum(e.name), ATOM
        return names.ref(e)
    if not isinstance(e, Op):
        raise EmitError(f"not an expression: {e!r}")
    op, args = e.op, e.args
    if op in INFIX:
        sym, prec = INFIX[op]
        # -Wparentheses: a comparison inside a comparison, && inside || get
        # parentheses; so does anything looser than the operator.
        if prec in (REL, EQ):
            left = _paren(expr(args[0], names), REL + 1)
            right = _paren(expr(args[1], names), REL + 1)
        else:
            def side(a):
                tp = expr(a, names)
                same = isinstance(a, Op) and a.op == op
                return tp[0] if same or tp[1] > AND else f"({tp[0]})"
            left, right = side(args[0]), side(args[1])
        return f"{left} {sym} {right}", prec
    if op == "not":
        return "!" + _paren(expr(args[0], names), UNARY), UNARY
    if op == "sum_wrap32":  # a narrowed sum: the fx_acc32 itself holds its low 32 bits
        return expr(args[0], names)
    if op == POSITIONS_ABOUT:  # c_positions.py: a C lowering, not an IR op
        return f"fx_acc32_about({', '.join(expr(a, names)[0] for a in args)})", ATOM
    if op == "select":
        c = _paren(expr(args[0], names), COND + 1)
        a = _paren(expr(args[1], names), COND + 1)
        b = _paren(expr(args[2], names), COND + 1)
        return f"{c} ? {a} : {b}", COND
    fn = CALL.get(op)
    if fn is None:
        raise EmitError(f"unknown op {op!r}")
    if op == "sign" and args[0].type in (Type.SUM_FIXED, Type.SUM_INT):
        fn = "fx_acc_sign"
    if op in ("sum_mean", "sum_idiv", "sum_mean_about") and isinstance(args[0], Op) and args[0].op == "sum_wrap32":
        fn = names.mean32(op)
    if len(args) != OPS[op].arity:
        raise EmitError(f"op {op} takes {OPS[op].arity} arguments, got {len(args)}")
    texts = [expr(a, names)[0] for a in args]
    if fn in RECIP_CALLS:  # means.py: the count's reciprocal, looked up once where it can be
        texts.append(names.mean_recip(texts[1]))
    return f"{fn}({', '.join(texts)})", ATOM


def cond(e, names: Names) -> str:
    """An expression as a condition (no outer parentheses)."""
    return expr(e, names)[0]


def _chain(e, op: str) -> list:
    """The operands of a chain of one of && / || (left to right)."""
    if isinstance(e, Op) and e.op == op:
        return _chain(e.args[0], op) + _chain(e.args[1], op)
    return [e]


def if_head(e, names: Names, ind: str) -> list:
    """`if (cond) {`, broken before a top-level && or || when too long."""
    line = f"{ind}if ({cond(e, names)}) {{"
    if len(line) <= ONE_LINE_MAX or not (isinstance(e, Op) and e.op in ("and", "or")):
        return [line]
    sym = INFIX[e.op][0]
    parts = []
    for a in _chain(e, e.op):
        text, prec = expr(a, names)
        parts.append(text if prec > AND else f"({text})")
    out, cur = [], f"{ind}if ({parts[0]}"
    for part in parts[1:]:
        if len(cur) + len(sym) + len(part) + 2 > ONE_LINE_MAX - 3:
            out.append(cur)
            cur = f"{ind}    {sym} {part}"
        else:
            cur += f" {sym} {part}"
    return out + [cur + ") {"]


# --- statements ----------------------------------------------------------

IND = "    "
ONE_LINE_MAX = 110  # `if (c) stmt;` on one line up to this width (then braces)


def _local_refs(e, out: list) -> None:
    if isinstance(e, Ref):
        if e.kind == "local":
            out.append(e.name)
    elif isinstance(e, Op):
        for a in e.args:
            _local_refs(a, out)


class _Usage:
    """Where each local is used (the statement lists, as paths), how often it
    is assigned and whether it is read."""

    def __init__(self, stmts) -> None:
        self.paths: dict = {}
        self.assigns: dict = {}
        self.reads: set = set()
        self._walk(stmts, ())

    def _use(self, name, path):
        self.paths.setdefault(name, []).append(path)

    def _expr(self, e, path):
        names: list = []
        _local_refs(e, names)
        for n in names:
            self._use(n, path)
            self.reads.add(n)

    def _walk(self, stmts, path):
        for i, st in enumerate(stmts):
            if isinstance(st, Assign):
                self._expr(st.value, path)
                if st.target.kind == "local":
                    self._use(st.target.name, path)
                    self.assigns[st.target.name] = self.assigns.get(st.target.name, 0) + 1
            elif isinstance(st, Accumulate):
                self._expr(st.value, path)
            elif isinstance(st, If):
                self._expr(st.cond, path)
                self._walk(st.then, path + ((i, "t"),))
                self._walk(st.orelse, path + ((i, "e"),))

    def decl_path(self, name):
        paths = self.paths.get(name, [()])
        common = paths[0]
        for p in paths[1:]:
            k = 0
            while k < len(common) and k < len(p) and common[k] == p[k]:
                k += 1
            common = common[:k]
        return common


def block(stmts, local_types: dict, names: Names) -> list:
    """The statements as C lines (indented by four spaces per level, from
    0), the locals (name -> Type) declared at the top of the innermost block
    holding all their uses: a local first assigned by one of the block's
    leading statements is declared with that value (`const` if never
    assigned again), the others start at 0."""
    use = _Usage(stmts)
    decl = {n: use.decl_path(n) for n in local_types if n in use.paths}
    return _Block(local_types, names, use, decl).lines(stmts, (), "")


class _Block:
    def __init__(self, types, names, use, decl):
        self.types, self.names, self.use, self.decl = types, names, use, decl

    def ctype(self, name):
        t = self.types[name]
        if t not in C_TYPES or t in (Type.SUM_FIXED, Type.SUM_INT):
            raise EmitError(f"local '{name}' of type {t}")
        return C_TYPES[t]

    def lines(self, stmts, path, ind) -> list:
        here = [n for n in self.types if self.decl.get(n) == path]
        out: list = []
        k = 0
        hoisted = []
        while k < len(stmts):
            st = stmts[k]
            if not (isinstance(st, Assign) and st.target.kind == "local" and st.target.name in here
                    and st.target.name not in hoisted):
                break
            hoisted.append(st.target.name)
            k += 1
        rest = [n for n in here if n not in hoisted]
        by_type: dict = {}
        for n in rest:
            by_type.setdefault(self.ctype(n), []).append(n)
        for ct, ns in by_type.items():
            out.append(ind + f"{ct} " + ", ".join(f"{self.names.local(n)} = 0" for n in ns) + ";")
        for st in stmts[:k]:
            n = st.target.name
            const = "const " if self.use.assigns.get(n, 0) == 1 else ""
            out.append(ind + f"{const}{self.ctype(n)} {self.names.local(n)} = {cond(st.value, self.names)};")
        for n in here:
            if n not in self.use.reads:
                out.append(ind + f"(void){self.names.local(n)};")
        for i in range(k, len(stmts)):
            out += self.stmt(stmts[i], i, path, ind)
        return out

    def stmt(self, st, i, path, ind) -> list:
        nm = self.names
        if isinstance(st, Assign):
            t = st.target
            if t.kind == "local":
                target = nm.local(t.name)
            elif t.kind in ("state", "self"):
                target = nm.ref(t)[0]
            else:
                raise EmitError(f"assignment to a {t.kind}")
            return [ind + f"{target} = {cond(st.value, nm)};"]
        if isinstance(st, Accumulate):
            if st.op in ("acc32_add", "acc32_sub"):  # a narrowed sum: 32 bits, wrapping
                fn = ("fx_iadd" if st.value.type == Type.INT else "fx_add") if st.op == "acc32_add" else \
                     ("fx_isub" if st.value.type == Type.INT else "fx_sub")
                s = nm.sum(st.sum)
                return [ind + f"{s} = {fn}({s}, {cond(st.value, nm)});"]
            # a 32-bit term into a 64-bit sum (fixed_sums.h: three instructions on the Cortex-M0+)
            return [ind + f"fx_{st.op}_to(&{nm.sum(st.sum)}, {cond(st.value, nm)});"]
        if isinstance(st, Return):
            return [ind + ln for ln in nm.ret()]
        if isinstance(st, If):
            return self.if_(st, i, path, ind, one_line=True)
        raise EmitError(f"not a statement: {st!r}")

    def if_(self, st, i, path, ind, one_line) -> list:
        c = cond(st.cond, self.names)
        then = self.lines(st.then, path + ((i, "t"),), ind + IND)
        if one_line and not st.orelse and len(then) == 1 and not then[0].strip().startswith(("if ", "{")):
            line = f"{ind}if ({c}) {then[0].strip()}"
            if len(line) <= ONE_LINE_MAX and not any(ln.split()[0] in C_TYPES.values() or
                                                       ln.strip().startswith("const ") for ln in then):
                return [line]
        out = if_head(st.cond, self.names, ind) + then
        if not st.orelse:
            return out + [f"{ind}}}"]
        epath = path + ((i, "e"),)
        chained = (len(st.orelse) == 1 and isinstance(st.orelse[0], If)
                   and not any(p == epath for p in self.decl.values()))
        if chained:
            nested = self.if_(st.orelse[0], 0, epath, ind, one_line=False)
            return out + [f"{ind}}} else {nested[0].lstrip()}"] + nested[1:]
        return out + [f"{ind}}} else {{"] + self.lines(st.orelse, epath, ind + IND) + [f"{ind}}}"]
