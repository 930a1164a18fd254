"""Type an expression and lower it to IR: every operator becomes a named op.

Typing rules (documented for users in codegen/lang/README.md):
- An integer literal is untyped: it takes the type of what it meets (in
  `vx + 1` the 1 is 1.0; in `count > 3` it is an int), and is an int when
  nothing decides (`n = 0`). A decimal literal (0.5, 1e-3) is fixed.
- `+ - min max clamp`, comparisons and both sides of `a if c else b` need one
  type. `fixed * int` is fixed (op mul_int); `fixed / int` is fixed (op
  div_int, truncating); `int / fixed` is an error; `int / int` truncates
  toward zero (op idiv).
- A neighbour sum (sum_fixed, sum_int) is exact in 64 bits. Compared, given
  to sign(), or divided by an int (the mean: op sum_mean) it is used whole;
  anywhere else it is first wrapped to 32 bits (ops sum_to_fixed /
  sum_to_int, C's fx_acc_fx), as written explicitly by fixed(s) / int(s).
- bool only in conditions, `and or not`, and the condition of `if` and of
  `a if c else b`; no truthiness (`if count:` is an error: `if count > 0:`).
- d2 (square) can only be compared with a square: sq(r), or a literal.

While inferring (the first pass), state variables, sums and locals whose
type is still open are `TVar`s, bound by the first concrete type they meet.
"""
from __future__ import annotations

from fractions import Fraction

from codegen.lang import syntax as s
from codegen.lang.ir import SUMS, Const, Op, Pos, Type
from codegen.lang.ops import ARITH, COMPARE, NEGATE, OPS
from codegen.lang.tvar import LIT, TVar, resolve
from codegen.lang.type_errors import TypeErr
from codegen.lang.calls import call

F, I, B, SF, SI, SQ = Type.FIXED, Type.INT, Type.BOOL, Type.SUM_FIXED, Type.SUM_INT, Type.SQUARE


def _base(t):
    """The 32-bit type a value of type t compares as."""
    return {SF: F, SI: I}.get(t, t)


class Exprs:
    """Types expressions against a Scope. `fixed_limit`: the largest fixed
    literal magnitude the narrowest format holds."""

    def __init__(self, scope, fixed_limit: int) -> None:
        self.scope = scope
        self.fixed_limit = fixed_limit

    # --- entry ---
    def expr(self, e):
        """Typed IR for e; may have type LIT (settle() it) or a TVar. Raises TypeErr."""
        if isinstance(e, s.Num):
            return self._fixed_const(e.value, e.pos) if e.decimal else Const(e.value, LIT, e.pos)
        if isinstance(e, s.Bool):
            return Const(e.value, B, e.pos)
        if isinstance(e, s.Name):
            return self._ref(self.scope.read(e.id, e.pos), e.pos)
        if isinstance(e, s.Attr):
            return self._ref(self.scope.attr(e.base, e.field, e.pos), e.pos)
        if isinstance(e, s.Unary):
            return self.unary(e)
        if isinstance(e, s.Binary):
            return self.binary(e.op, self.expr(e.left), self.expr(e.right), e.pos)
        if isinstance(e, s.Compare):
            return self.compare(e.op, self.expr(e.left), self.expr(e.right), e.pos)
        if isinstance(e, s.Logic):
            left, right = self.cond(e.left, e.op), self.cond(e.right, e.op)
            return Op(e.op, (left, right), B, e.pos)
        if isinstance(e, s.IfElse):
            c = self.cond(e.cond, "a if c else b")
            (a, b), t = self.unify([self.narrow(self.expr(e.then)), self.narrow(self.expr(e.orelse))], e.pos,
                                   "the two sides of `a if c else b`", allow_bool=True)
            return Op("select", (c, a, b), t, e.pos)
        if isinstance(e, s.Call):
            return call(self, e)
        raise TypeErr(getattr(e, "pos", Pos(1, 1)), "not an expression")

    def cond(self, e, what: str):
        x = self.expr(e)
        t = resolve(x.type)
        if isinstance(t, TVar):  # only inferring: whatever is tested is a bool
            t.ref = B
            return x
        if t != B:
            shown = "an integer literal" if t == LIT else str(t) if not isinstance(t, TVar) else "a number"
            raise TypeErr(getattr(x, "pos", e.pos), f"{what} needs a condition (bool), got {shown}: compare it, "
                                                    "such as `> 0`")
        return x

    @staticmethod
    def _ref(r, pos: Pos):
        if isinstance(r, str):
            raise TypeErr(pos, r)
        return r

    def _fixed_const(self, value: Fraction, pos: Pos) -> Const:
        if abs(value) >= self.fixed_limit:
            raise TypeErr(pos, f"literal {float(value):g} is outside the fixed-point range "
                               f"(|v| < {self.fixed_limit})")
        return Const(Fraction(value), F, pos)

    # --- literals and sums ---
    def settle(self, x, t):
        """x with every untyped literal in it given type t (F, I or SQ)."""
        t = resolve(t)
        if resolve(x.type) != LIT or isinstance(t, TVar) or t == LIT:
            return x
        if t not in (F, I, SQ):
            raise TypeErr(x.pos, f"an integer literal is a number, not a {t}")
        if isinstance(x, Const):
            if t == F:
                return self._fixed_const(Fraction(x.value), x.pos)
            return Const(int(x.value), t, x.pos)
        args = tuple(self.settle(a, t) if resolve(a.type) == LIT else a for a in x.args)
        if x.op in ("+", "-", "*", "/"):
            if t not in (F, I):
                raise TypeErr(x.pos, f"arithmetic on literals cannot be a {t}")
            return Op(ARITH[(x.op, t, t)], args, t, x.pos)
        if x.op == "neg":
            if t not in (F, I):
                raise TypeErr(x.pos, f"a negated literal cannot be a {t}")
            return Op(NEGATE[t], args, t, x.pos)
        return Op(x.op, args, t, x.pos)  # abs min max clamp select

    def narrow(self, x):
        """A sum used as a 32-bit value: wrapped (fx_acc_fx)."""
        t = resolve(x.type)
        if t == SF:
            return Op("sum_to_fixed", (x,), F, x.pos)
        if t == SI:
            return Op("sum_to_int", (x,), I, x.pos)
        return x

    def unify(self, xs: list, pos: Pos, what: str, allow_bool: bool = False, base=False):
        """Give xs one type: literals adapt, open types bind. -> (xs, type)."""
        types = [resolve(x.type) for x in xs]
        known = [(_base(t) if base else t) for t in types if t != LIT and not isinstance(t, TVar)]
        for t in known:
            if t == B and not allow_bool:
                raise TypeErr(pos, f"a bool in arithmetic ({what}): bools are only for conditions")
            if t == SQ and not base:
                raise TypeErr(pos, "d2 is a 64-bit squared distance: compare it (d2 < sq(r)) or use dist")
        if known and any(t != known[0] for t in known):
            shown = " vs ".join(str(t) for t in (_base(t) if base else t for t in types) if t != LIT
                                and not isinstance(t, TVar))
            raise TypeErr(pos, f"type mismatch in {what}: {shown} (convert one side with fixed(...) or int(...))")
        tvars = [t for t in types if isinstance(t, TVar)]
        if known:
            target = known[0]
            for v in tvars:
                v.ref = target
        elif tvars:
            target = tvars[0]
            for v in tvars[1:]:
                if v is not target:
                    v.ref = target
            return xs, target
        else:
            return xs, LIT
        return [self.settle(x, target) for x in xs], target

    # --- operators ---
    def unary(self, e: s.Unary):
        if e.op == "not":
            return Op("not", (self.cond(e.operand, "not"),), B, e.pos)
        x = self.narrow(self.expr(e.operand))
        t = resolve(x.type)
        if t == LIT or isinstance(t, TVar):  # settled later (LIT) or only inferring (TVar)
            return Op("neg", (x,), t, e.pos)
        if t not in NEGATE:
            raise TypeErr(e.pos, f"cannot negate a {t}" + (": use not" if t == B else ""))
        return Op(NEGATE[t], (x,), t, e.pos)

    def binary(self, sym: str, a, b, pos: Pos):
        ta, tb = resolve(a.type), resolve(b.type)
        for t in (ta, tb):
            if t == B:
                raise TypeErr(pos, f"a bool in arithmetic ({sym}): bools are only for conditions")
            if t == SQ:
                raise TypeErr(pos, "d2 is a 64-bit squared distance: compare it (d2 < sq(r)) or use dist")
        if sym == "/" and ta in SUMS and (tb in (I, LIT) or isinstance(tb, TVar)):
            if isinstance(tb, TVar):
                tb.ref = I
            op = "sum_mean" if ta == SF else "sum_idiv"
            return Op(op, (a, self.settle(b, I)), OPS[op].result, pos)
        a, b = self.narrow(a), self.narrow(b)
        ta, tb = resolve(a.type), resolve(b.type)
        mixed = ARITH.get((sym, ta, tb))
        if mixed in ("mul_int", "div_int"):
            args = (a, b) if ta == F else (b, a)
            return Op(mixed, args, F, pos)
        (a, b), t = self.unify([a, b], pos, f"{sym}")
        if t == LIT or isinstance(t, TVar):  # settled later (LIT) or only inferring (TVar)
            return Op(sym, (a, b), t, pos)
        op = ARITH.get((sym, t, t))
        if op is None:
            raise TypeErr(pos, f"{t} {sym} {t} is not defined")
        return Op(op, (a, b), OPS[op].result, pos)

    def compare(self, sym: str, a, b, pos: Pos):
        ta, tb = resolve(a.type), resolve(b.type)
        if B in (ta, tb):
            raise TypeErr(pos, f"bools cannot be compared with {sym}: combine conditions with and, or, not")
        if ta == LIT and tb == LIT:
            a, b = self.settle(a, I), self.settle(b, I)
        elif ta == LIT:
            a = self.settle(a, _base(tb)) if not isinstance(tb, TVar) else a
        elif tb == LIT:
            b = self.settle(b, _base(ta)) if not isinstance(ta, TVar) else b
        else:
            self.unify([a, b], pos, f"the comparison {sym}", base=True)
        return Op(COMPARE[sym], (a, b), B, pos)
