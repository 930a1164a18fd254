"""The named operations of the IR: one entry per meaning, never a host operator.

Every operation whose result differs between C and Python (division,
multiplication's rounding, wrapping, square roots, 64-bit sums, conversions)
has its own name here, with the fixed.h function that defines it. An emitter
maps names to its spelling; the interval analysis maps them to interval
functions. `result` is the IR type of the result (None: the type the checker
gives the node, for the generic ones like min/max/select).

Rounding, as fixed.h defines it:
  add sub neg abs  wrap modulo 2^32
  mul              64-bit product, arithmetic shift right by F (floor)
  div              (a << F) / b in 64 bits, truncating toward zero; b == 0 gives 0
  div_int          a / n (fixed by an int), truncating; n == 0 gives 0
  idiv             int / int, truncating toward zero (C's /); n == 0 gives 0
  sum_mean         64-bit sum / n truncating, wrapped to 32 bits; n == 0 gives 0
  sum_mean_about   (sum of offsets + n * base) / n truncating, wrapped (codegen/passes/offsets.py)
  sum_wrap32       a sum's low 32 bits (sum_mean of it: a 32/32 division in C)
  sqrt             floor(sqrt(a * 2^F)), exact; a <= 0 gives 0
  hypot            floor(sqrt(x^2 + y^2)) from the exact 64-bit sum of squares
  mag              hypot, or alpha-max-plus-beta-min (fixed_point.magnitude)
  mag2, mag_OP     x^2 + y^2 exactly; floor(sqrt(s)) OP m exactly, no root (roots.py)
  mag_root         floor(sqrt(s)), saturated at INT32_MAX
  fixed_to_int     truncation toward zero (as C's cast of a real number)
"""
from __future__ import annotations

from dataclasses import dataclass

from codegen.lang.ir import Type

F, I, B, SF, SI, SQ = Type.FIXED, Type.INT, Type.BOOL, Type.SUM_FIXED, Type.SUM_INT, Type.SQUARE


@dataclass(frozen=True)
class OpSpec:
    name: str
    arity: int
    result: Type | None
    c: str  # the C spelling over fixed.h, {0} {1} ... the arguments
    doc: str


_OPS = (
    # fixed point (32-bit, wrapping)
    OpSpec("add", 2, F, "fx_add({0}, {1})", "fixed + fixed, wraps"),
    OpSpec("sub", 2, F, "fx_sub({0}, {1})", "fixed - fixed, wraps"),
    OpSpec("neg", 1, F, "fx_neg({0})", "-fixed, wraps"),
    OpSpec("mul", 2, F, "fx_mul({0}, {1})", "fixed * fixed, floor"),
    OpSpec("div", 2, F, "fx_div({0}, {1})", "fixed / fixed, truncating; /0 gives 0"),
    OpSpec("mul_int", 2, F, "fx_wrap64((int64_t){0} * {1})", "fixed * int (args: fixed, int), wraps"),
    OpSpec("div_int", 2, F, "fx_idiv({0}, {1})", "fixed / int, truncating; /0 gives 0"),
    OpSpec("sqrt", 1, F, "fx_sqrt({0})", "exact floor square root; <= 0 gives 0"),
    OpSpec("hypot", 2, F, "fx_hypot({0}, {1})", "exact magnitude of (x, y)"),
    OpSpec("mag", 2, F, "BOIDS_MAG({0}, {1})", "magnitude per fixed_point.magnitude (exact or alpha-max-beta-min)"),
    OpSpec("sq", 1, SQ, "fx_sq64({0})", "fixed squared, exact 64-bit (compare with d2)"),
    # int (32-bit, wrapping: the emitter must not rely on C's signed overflow)
    OpSpec("iadd", 2, I, "(int32_t)((uint32_t){0} + (uint32_t){1})", "int + int, wraps"),
    OpSpec("isub", 2, I, "(int32_t)((uint32_t){0} - (uint32_t){1})", "int - int, wraps"),
    OpSpec("ineg", 1, I, "(int32_t)(0u - (uint32_t){0})", "-int, wraps"),
    OpSpec("imul", 2, I, "(int32_t)((uint32_t){0} * (uint32_t){1})", "int * int, wraps"),
    OpSpec("idiv", 2, I, "({1} == 0 ? 0 : {0} / {1})", "int / int, truncating toward zero; /0 gives 0"),
    # conversions
    OpSpec("int_to_fixed", 1, F, "fx_from_int({0})", "fixed(i): i units, wraps"),
    OpSpec("fixed_to_int", 1, I, "({0} / FX_ONE)", "int(f): truncation toward zero"),
    # neighbour sums (64-bit, exact)
    OpSpec("sum_to_fixed", 1, F, "fx_acc_fx({0})", "a fixed sum wrapped to 32 bits"),
    OpSpec("sum_to_int", 1, I, "fx_wrap64({0})", "an int sum wrapped to 32 bits"),
    OpSpec("sum_mean", 2, F, "fx_acc_mean({0}, {1})", "fixed sum / int count, truncating, wrapped; /0 gives 0"),
    OpSpec("sum_mean_about", 3, F, "fx_acc_mean_about({0}, {1}, {2})",
           "trunc((sum + n * base) / n), wrapped; /0 gives 0: a mean of positions from their offsets (offsets.py)"),
    OpSpec("sum_idiv", 2, I, "fx_acc_mean({0}, {1})", "int sum / int, truncating, wrapped; /0 gives 0"),
    # a sum narrowed to 32 bits (codegen/passes/widths.py): its low 32 bits, two's complement. C: the
    # fx_acc32 itself (read by fx_acc32_mean when divided); Python: fx_wrap32 of the exact int64 sum
    OpSpec("sum_wrap32", 1, None, "fx_wrap64({0})", "a sum's low 32 bits (a narrowed sum's every read)"),
    # a magnitude compared without its root (codegen/passes/roots.py): s = mag2(x, y) is the exact
    # squared magnitude (64-bit, never wraps); mag_OP(s, m) is floor(sqrt(s)) OP m exactly, for every
    # s and m; mag_root(s) the root, saturated at INT32_MAX (fx_hypot's value wherever it does not wrap)
    OpSpec("mag2", 2, SQ, "fx_mag2({0}, {1})", "x^2 + y^2, exact 64-bit (an exact magnitude, squared)"),
    OpSpec("mag_root", 1, F, "fx_mag_root({0})", "floor(sqrt(s)), saturated at INT32_MAX"),
    OpSpec("mag_lt", 2, B, "fx_mag_lt({0}, {1})", "floor(sqrt(s)) < m, without the root"),
    OpSpec("mag_le", 2, B, "fx_mag_le({0}, {1})", "floor(sqrt(s)) <= m"),
    OpSpec("mag_gt", 2, B, "fx_mag_gt({0}, {1})", "floor(sqrt(s)) > m"),
    OpSpec("mag_ge", 2, B, "fx_mag_ge({0}, {1})", "floor(sqrt(s)) >= m"),
    OpSpec("mag_eq", 2, B, "fx_mag_eq({0}, {1})", "floor(sqrt(s)) == m"),
    OpSpec("mag_ne", 2, B, "fx_mag_ne({0}, {1})", "floor(sqrt(s)) != m"),
    # angles in turns (1.0 a full circle) and vectors: fixed_angles.h, over pysim/angle_tables.py's tables
    OpSpec("sin", 1, F, "fx_sin({0})", "sine of turns: the quarter table, a linear step, rounded: [-1, 1]"),
    OpSpec("cos", 1, F, "fx_cos({0})", "cosine of turns (sin a quarter turn on): [-1, 1]"),
    OpSpec("atan2", 2, F, "fx_atan2({0}, {1})", "atan2(y, x) in turns: [-1/2, 1/2]; (0, 0) gives 0"),
    OpSpec("unit_x", 2, F, "fx_unit_x({0}, {1})",
           "x / hypot(x, y), both scaled to [2^29, 2^30) first (fx_div): [-1, 1]; (0, 0) gives 0"),
    OpSpec("unit_y", 2, F, "fx_unit_y({0}, {1})", "y / hypot(x, y): [-1, 1]"),
    OpSpec("rotate_x", 3, F, "fx_rotate_x({0}, {1}, {2})", "x cos a - y sin a (fx_mul, floor; wraps)"),
    OpSpec("rotate_y", 3, F, "fx_rotate_y({0}, {1}, {2})", "x sin a + y cos a"),
    # the PRNG (rng.h): the boid's draw d (a raw uint32, drawn at its turn: docs/rules.md) as a value
    OpSpec("random", 1, F, "fx_random({0})", "the draw's top F bits as a fraction: [0, 1)"),
    OpSpec("random_int", 3, I, "fx_random_int({0}, {1}, {2})",
           "a + d % (b - a + 1) (span in 64 bits); a when b <= a: [a, b]"),
    # generic over fixed, int (and sums / squares for sign and comparisons)
    OpSpec("abs", 1, None, "fx_abs({0})", "|a|, wraps (abs of the most negative value is itself)"),
    OpSpec("min", 2, None, "({1} < {0} ? {1} : {0})", "the lesser; ties give the first"),
    OpSpec("max", 2, None, "({1} > {0} ? {1} : {0})", "the greater; ties give the first"),
    OpSpec("clamp", 3, None, "({0} < {1} ? {1} : ({0} > {2} ? {2} : {0}))",
           "v < lo ? lo : (v > hi ? hi : v): lo wins when lo > hi"),
    OpSpec("sign", 1, I, "(({0} > 0) - ({0} < 0))", "-1, 0 or 1 (of a sum: of its exact 64-bit value)"),
    OpSpec("select", 3, None, "({0} ? {1} : {2})", "a if cond else b (only the chosen side matters: no side effects)"),
    # comparisons: operands of one class (fixed | int | sum_fixed with fixed | sum_int with int | square)
    OpSpec("lt", 2, B, "({0} < {1})", "<, exact (a sum compares in 64 bits)"),
    OpSpec("le", 2, B, "({0} <= {1})", "<="),
    OpSpec("gt", 2, B, "({0} > {1})", ">"),
    OpSpec("ge", 2, B, "({0} >= {1})", ">="),
    OpSpec("eq", 2, B, "({0} == {1})", "=="),
    OpSpec("ne", 2, B, "({0} != {1})", "!="),
    # conditions
    OpSpec("and", 2, B, "({0} && {1})", "short-circuit and (operands are pure)"),
    OpSpec("or", 2, B, "({0} || {1})", "short-circuit or"),
    OpSpec("not", 1, B, "(!{0})", "not"),
)

OPS: dict[str, OpSpec] = {o.name: o for o in _OPS}

COMPARE = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}

# Surface arithmetic -> named op, by (symbol, left type, right type) after
# literals adapted and sums narrowed. Anything absent is a type error.
ARITH = {
    ("+", F, F): "add", ("-", F, F): "sub", ("*", F, F): "mul", ("/", F, F): "div",
    ("+", I, I): "iadd", ("-", I, I): "isub", ("*", I, I): "imul", ("/", I, I): "idiv",
    ("*", F, I): "mul_int", ("*", I, F): "mul_int", ("/", F, I): "div_int",
    ("/", SF, I): "sum_mean", ("/", SI, I): "sum_idiv",
}
NEGATE = {F: "neg", I: "ineg"}
