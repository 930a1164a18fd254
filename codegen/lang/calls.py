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
  sin(a), cos(a)    fixed (turns) -> fixed in [-1, 1]  ops sin cos (fixed_angles.h: a table)
  atan2(y, x)       fixed, fixed -> turns in [-1/2, 1/2]   op atan2
  ux, uy = unit(x, y)        (parse.py: ops unit_x, unit_y) x / hypot, y / hypot; (0, 0) -> (0, 0)
  rx, ry = rotate(x, y, a)   (ops rotate_x, rotate_y) (x cos a - y sin a, x sin a + y cos a)
  random()          -> fixed in [0, 1)                op random(d): the draw d's top F bits as a fraction
  random_int(a, b)  int, int -> int in [a, b]         op random_int(d, a, b): a + d % (b - a + 1); a when b <= a
The draws (before and apply only): the rule's k-th call reads the boid's k-th draw of the frame,
Ref('draw', k), every one drawn at the boid's turn whether reached or not (docs/rules.md).
Sums given to anything but sign() and the conversions are wrapped to 32 bits first.
"""
from __future__ import annotations

from codegen.lang import syntax as s
from codegen.lang.type_errors import TypeErr, check_arity, unknown_function
from codegen.lang.ir import Op, Ref, Type
from codegen.lang.scope import COMPONENTS, DRAWS, FUNCTIONS, PAIRS
from codegen.lang.tvar import LIT, TVar, resolve

F, I, B, SF, SI, SQ = Type.FIXED, Type.INT, Type.BOOL, Type.SUM_FIXED, Type.SUM_INT, Type.SQUARE


def call(ex, e: s.Call):
    scope = ex.scope
    if (e.func not in FUNCTIONS and e.func not in COMPONENTS) or e.func in scope.roles:
        raise unknown_function(scope, e.func, e.pos)
    if e.func in PAIRS:
        names = {"unit": "ux, uy = unit(x, y)", "rotate": "rx, ry = rotate(x, y, a)"}
        raise TypeErr(e.pos, f"{e.func}() gives two values: write `{names[e.func]}`")
    check_arity(e.func, e.args, e.pos)
    if e.func in DRAWS and scope.block not in ("before", "apply"):
        where = "a state's initial value" if scope.block == "init" else "each (the pair loop)"
        raise TypeErr(e.pos, f"{e.func}() draws from the PRNG once a boid a frame: allowed in before and "
                             f"apply, not in {where}")
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
    shown = name[:-2] if name in COMPONENTS else name  # unit_x: unit() as written
    return Op(name, _fixed_args(ex, args, pos, shown), SQ if name == "sq" else F, pos)


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


def _draw(ex, pos):
    """The next of the boid's draws of the frame (numbered in source order)."""
    k = ex.scope.draws
    ex.scope.draws += 1
    return Ref("draw", str(k), I, pos)


def _random(ex, args, pos, name):
    return Op("random", (_draw(ex, pos),), F, pos)


def _random_int(ex, args, pos, name):
    xs = []
    for a in args:
        a = ex.narrow(a)
        t = resolve(a.type)
        if t == LIT:
            a = ex.settle(a, I)
        elif isinstance(t, TVar):
            t.ref = I
        elif t != I:
            fix = " (write int(f))" if t == F else ""
            raise TypeErr(a.pos, f"random_int() takes int bounds, got {t}{fix}")
        xs.append(a)
    return Op("random_int", (_draw(ex, pos), *xs), I, pos)


_CALLS = {
    "abs": _numeric, "min": _numeric, "max": _numeric, "clamp": _numeric, "sign": _sign,
    "sqrt": _fixed_fn, "hypot": _fixed_fn, "mag": _fixed_fn, "sq": _fixed_fn,
    "fixed": _to_fixed, "int": _to_int, "random": _random, "random_int": _random_int,
    "sin": _fixed_fn, "cos": _fixed_fn, "atan2": _fixed_fn,
    "unit_x": _fixed_fn, "unit_y": _fixed_fn, "rotate_x": _fixed_fn, "rotate_y": _fixed_fn,
}
