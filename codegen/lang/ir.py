"""The typed IR of a rule: what the checker produces and every emitter reads.

Small frozen dataclasses. Expressions are leaves (`Const`, `Ref`) or `Op`,
an operation NAMED in `ops.OPS` (never a host-language operator), so a C,
numba or interval emitter maps each name to its one definition: `mul` is
fx_mul (floor), `div` is fx_div (truncating, /0 -> 0), `sum_mean` is
fx_acc_mean, and so on. Statements are `Assign`, `Accumulate` (a 64-bit
neighbour sum, only in `each`), `If` and `Return` (only in `before`). Every node carries its position in
the spec file (1-based line and column), so a later pass (the range analysis)
can blame `file:line:col`.

Types (`Type`):
  fixed      32-bit fixed point (raw int32, F fraction bits)
  int        32-bit integer (wraps as the emitters' int ops define)
  bool       a condition; never a number
  sum_fixed  a 64-bit exact neighbour sum of fixed values (fx_acc)
  sum_int    a 64-bit exact neighbour sum of ints (a count)
  square     a 64-bit squared distance, 2F fraction bits (fx_d2, fx_sq64)
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from typing import Union


class Type(str, Enum):
    FIXED = "fixed"
    INT = "int"
    BOOL = "bool"
    SUM_FIXED = "sum_fixed"
    SUM_INT = "sum_int"
    SQUARE = "square"

    def __str__(self) -> str:  # error messages say `fixed`, not `Type.FIXED`
        return self.value


NUMERIC = (Type.FIXED, Type.INT)
SUMS = (Type.SUM_FIXED, Type.SUM_INT)


@dataclass(frozen=True)
class Pos:
    line: int  # 1-based, in the spec file
    col: int  # 1-based

    def __str__(self) -> str:
        return f"{self.line}:{self.col}"


# --- expressions -------------------------------------------------------------

@dataclass(frozen=True)
class Const:
    """A literal. A fixed constant keeps its exact decimal value (the emitter
    rounds it to raw for the spec's format, halves away from zero, as the
    generator does for parameters); an int literal used as fixed means that
    many units (1 is 1.0)."""
    value: Union[int, Fraction, bool]
    type: Type
    pos: Pos


# Ref kinds: where a name's value lives.
REF_KINDS = (
    "role",    # a parameter the rule takes (P->param in C); read-only
    "param",   # another spec parameter, by name; read-only
    "state",   # per-boid state (boid_t field); read and write in apply
    "local",   # a local of the block it is assigned in
    "sum",     # a neighbour sum (64-bit); written in each, read in apply
    "count",   # the number of neighbours in range (int)
    "self",    # the boid: x y (read-only), vx vy (read and write in apply)
    "index",   # the boid's index (int)
    "screen",  # width, height (fixed)
    "pair",    # in each: dx dy (fixed, self - other), d2 (square), dist (fixed)
    "other",   # in each: the neighbour's field (other.x ...)
    "world",   # a declared section's field: target.x, ledge.y, scouts.group1
    "draw",    # the boid's k-th PRNG draw of the frame (name: str(k)), a raw uint32; read only
               # by the ops random / random_int (calls.py): every boid draws all of its rules'
               # draws at its turn, in index order, whether or not the code reaches them
)


@dataclass(frozen=True)
class Ref:
    kind: str
    name: str
    type: Type
    pos: Pos


@dataclass(frozen=True)
class Op:
    """A named operation (ops.OPS) applied to its arguments, in order."""
    op: str
    args: tuple
    type: Type
    pos: Pos


Expr = Union[Const, Ref, Op]


# --- statements --------------------------------------------------------------

@dataclass(frozen=True)
class Assign:
    """target = value; target is a local, a state variable, or self vx/vy."""
    target: Ref
    value: Expr
    pos: Pos


@dataclass(frozen=True)
class Accumulate:
    """sum += value (op 'acc_add') or sum -= value ('acc_sub'): a 32-bit value
    added to a 64-bit sum exactly (C: fx_acc_add_to / fx_acc_sub_to,
    fixed_sums.h). Only inside each.
    'acc32_add' / 'acc32_sub': the same into a sum narrowed to 32 bits
    (codegen/passes/widths.py; C: fx_add/fx_sub into an fx_acc32, wrapping;
    Python: the exact int64 sum, wrapped where it is read)."""
    sum: str
    op: str
    value: Expr
    pos: Pos


@dataclass(frozen=True)
class If:
    cond: Expr
    then: tuple
    orelse: tuple
    pos: Pos


@dataclass(frozen=True)
class Return:
    """Only in before: the boid's frame ends here. Its velocity and state are
    stored as they stand; no neighbour is visited, no later code of any rule
    runs, and the boid does not move (perching's rest)."""
    pos: Pos


Stmt = Union[Assign, Accumulate, If, Return]

# The one op of the C target's lowered form that is no IR op (ops.py): fx_acc32_about(P, n, base),
# written by the c_positions pass (c_positions.py), printed by emit_c_expr.py
POSITIONS_ABOUT = "positions_about"


def map_stmts(stmts, expr, acc=None) -> tuple:
    """The statements with `expr` applied to each expression they hold (an
    If's condition, an Assign's or Accumulate's value), into If branches;
    `acc`, if given, rewrites an Accumulate whole (None: as any other). The
    one walk of the passes that rewrite a rule's IR (offsets, widths,
    c_positions)."""
    out = []
    for st in stmts:
        new = acc(st) if acc is not None and isinstance(st, Accumulate) else None
        if new is not None:
            out.append(new)
        elif isinstance(st, If):
            out.append(replace(st, cond=expr(st.cond), then=map_stmts(st.then, expr, acc),
                               orelse=map_stmts(st.orelse, expr, acc)))
        elif isinstance(st, (Assign, Accumulate)):
            out.append(replace(st, value=expr(st.value)))
        else:
            out.append(st)
    return tuple(out)


# --- a whole rule ------------------------------------------------------------

@dataclass(frozen=True)
class Role:
    name: str
    type: Type
    pos: Pos


@dataclass(frozen=True)
class Neighbours:
    """Which neighbours `each` runs for. A neighbour is in range when
    d2 < within^2 (no `within`: every entity of the kind; boids need one) and,
    with coincident false, d2 != 0. With `zone` (boids only) the rule joins
    the seed's zone chain instead (seed 000): inside the box |dx|, |dy| <
    the outer zone's range, `protected` when d2 < protected^2, else `visual`
    when d2 < visual^2. pick 'nearest': only the one with the least d2 (ties:
    the lower index), so count is 0 or 1. Ranges are role names."""
    of: str
    within: str | None
    zone: str | None
    coincident: bool
    pick: str
    pos: Pos


@dataclass(frozen=True)
class StateVar:
    name: str
    type: Type
    initial: Expr  # evaluated at spawn: literals, roles, params, index, sections
    pos: Pos
    shared: bool = False  # declared {init:, shared: true}: other rules may declare it alike (rule_set.py)


@dataclass(frozen=True)
class Sum:
    name: str
    type: Type  # SUM_FIXED or SUM_INT
    pos: Pos  # the first `+=` / `-=`
    bits: int = 64  # 32: narrowed by codegen/passes/widths.py (C: fx_acc32; reads go through sum_wrap32)


@dataclass(frozen=True)
class Local:
    name: str
    type: Type
    block: str  # 'before', 'each' or 'apply'
    pos: Pos  # the first assignment


@dataclass(frozen=True)
class Reads:
    """What one block reads, by kind of name (sets of names)."""
    roles: frozenset = frozenset()
    params: frozenset = frozenset()
    state: frozenset = frozenset()
    sums: frozenset = frozenset()
    self_fields: frozenset = frozenset()  # x y vx vy
    other_fields: frozenset = frozenset()  # x y vx vy r
    pair: frozenset = frozenset()  # dx dy d2 dist
    world: frozenset = frozenset()  # 'target.x', ...
    screen: frozenset = frozenset()  # width height
    count: bool = False
    index: bool = False


@dataclass(frozen=True)
class RuleIR:
    name: str
    description: str
    seed: str
    path: str
    pos: Pos  # the rule definition's mapping
    roles: tuple  # Role, in declaration order
    neighbours: Neighbours | None
    uses: tuple  # declared sections: 'target', 'ledge', 'scouts'
    state: tuple  # StateVar
    sums: tuple  # Sum, in first-use order
    locals: tuple  # Local
    each: tuple  # Stmt
    apply: tuple  # Stmt
    before: tuple = ()  # Stmt: run ahead of the neighbour loop; may Return
    reads_each: Reads = field(default_factory=Reads)
    reads_apply: Reads = field(default_factory=Reads)
    reads_before: Reads = field(default_factory=Reads)
    writes: frozenset = frozenset()  # 'vx' 'vy' and state names
    draws: int = 0  # random() / random_int() calls: the boid's draws 0 .. draws - 1, in source order

    @property
    def needs_dist(self) -> bool:
        """`dist` (an exact hypot per pair) is computed only when each reads it."""
        return "dist" in self.reads_each.pair

    @property
    def role_types(self) -> dict:
        return {r.name: r.type for r in self.roles}
