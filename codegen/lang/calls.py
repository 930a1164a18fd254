"""The language's functions: their argument types and the named op each becomes.

  abs(a)            fixed|int -> same            op abs
  min(a, b)         one type -> that type        op min (ties: a)
  max(a, b)         one type -> that type        op max (ties: a)
  clamp(v, lo, hi)  one type -> that type        op clamp: v < lo ? lo : (v > hi ? hi : v)
  sign(a)           fixed|int|sum -> int         op sign (-1, 0, 1; a sum's exact sign)
  sqrt(a)           fixed -> fixed               op sqrt (fx_sqrt, floor, <= 0 gives 0)
  hypot(a, b)       fixed, fixed -> fixed        op hypot (fx_hypot: exact)
  mag(a, b)         fixed, fixed -> fixed        op mag (fixed_point.magnitude: exact or alpha-max-beta-min)
  sq(a)             fixed -> square              op sq (fx_sq64, to compare with d2)
  fixed(a)          int -> fixed (op int_to_fixed, a units); a fixed sum -> fixed (op sum_to_fixed, wraps)
  int(a)            fixed -> int (op fixed_to_int, truncates toward zero); an int sum -> int (op sum_to_int)
Sums given to anything but sign() and the conversions are wrapped to 32 bits first.
"""
from __future__ import annotations

from codegen.lang import syntax as s
from codegen.lang.type_errors import TypeErr, check_arity, unknown_function
from codegen.lang.ir import Op, Type
from codegen.lang.scope import FUNCTIONS
from codegen.lang.tvar import LIT, TVar, resolve

F, I, B, SF, SI, SQ = Type.FIXED, Type.INT, Type.BOOL, Type.SUM_FIXED, Type.SUM_INT, Type.SQUARE


def call(ex, e: s.Call):
    scope = ex.scope
    if e.func not in FUNCTIONS or e.func in scope.roles:
        raise unknown_function(scope, e.func, e.pos)
    check_arity(e.func, e.args, e.pos)
    args = [ex.expr(a) for a in e.args]
    return _CALLS[e.func](ex, args, e.pos, e.func)


def _numeric(ex, args, pos, name):
    """abs, min, max, clamp: one numeric type, literals adapt."""
    xs = [ex.narrow(a) for a in args]
    xs, t = ex.unify(xs, pos, f"{name}()")
    if t == SQ:
        raise TypeErr(pos, f"{name}() of a squared distance: use dist, or compare d2")
    return Op(name, tuple(xs), t, pos)


def _sign(ex, args, pos, name):
    (a,) = args
    t = resolve(a.type)
    if t == LIT:
        a, t = ex.settle(a, I), I
    if t in (B, SQ):
        raise TypeErr(pos, f"sign() takes a number, got {t}")
    return Op("sign", (a,), I, pos)


def _fixed_args(ex, args, pos, name):
    out = []
    for a in args:
        a = ex.narrow(a)
        t = resolve(a.type)
        if t == LIT:
            a = ex.settle(a, F)
        elif isinstance(t, TVar):
            t.ref = F
        elif t != F:
            fix = " (write fixed(i))" if t == I else ""
            raise TypeErr(a.pos, f"{name}() takes fixed values, got {t}{fix}")
        out.append(a)
    return tuple(out)


def _fixed_fn(ex, args, pos, name):
    return Op(name, _fixed_args(ex, args, pos, name), SQ if name == "sq" else F, pos)


def _to_fixed(ex, args, pos, name):
    (a,) = args
    t = resolve(a.type)
    if t == LIT:
        return ex.settle(a, F)
    if t == SF:
        return Op("sum_to_fixed", (a,), F, pos)
    if t == SI:
        a, t = ex.narrow(a), I
    if t == I:
        return Op("int_to_fixed", (a,), F, pos)
    if t == F or isinstance(t, TVar):
        return a
    raise TypeErr(pos, f"fixed() takes an int or a sum, got {t}")


def _to_int(ex, args, pos, name):
    (a,) = args
    t = resolve(a.type)
    if t == LIT:
        return ex.settle(a, I)
    if t == SI:
        return Op("sum_to_int", (a,), I, pos)
    if t == SF:
        a, t = ex.narrow(a), F
    if t == F:
        return Op("fixed_to_int", (a,), I, pos)
    if t == I or isinstance(t, TVar):
        return a
    raise TypeErr(pos, f"int() takes a fixed value or a sum, got {t}")


_CALLS = {
    "abs": _numeric, "min": _numeric, "max": _numeric, "clamp": _numeric, "sign": _sign,
    "sqrt": _fixed_fn, "hypot": _fixed_fn, "mag": _fixed_fn, "sq": _fixed_fn,
    "fixed": _to_fixed, "int": _to_int,
}
