"""The untyped tree `parse` builds from Python's `ast`: only what the language
has, every node with its spec-file position. Binary nodes carry the
position of their OPERATOR (not of their left operand, as `ast` does), so a
type error points at the `+` that mixes the types. The checker (`exprs`,
`blocks`) turns this tree into the typed IR.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Union

from codegen.lang.ir import Pos


@dataclass(frozen=True)
class Num:
    value: Union[int, Fraction]
    decimal: bool  # written with a point or exponent: fixed; else an untyped integer
    pos: Pos


@dataclass(frozen=True)
class Bool:
    value: bool
    pos: Pos


@dataclass(frozen=True)
class Name:
    id: str
    pos: Pos


@dataclass(frozen=True)
class Attr:
    """base.field with a plain name as base: other.x, self.vx, target.on."""
    base: str
    field: str
    pos: Pos


@dataclass(frozen=True)
class Unary:
    op: str  # '-' or 'not'
    operand: "Expr"
    pos: Pos


@dataclass(frozen=True)
class Binary:
    op: str  # + - * /
    left: "Expr"
    right: "Expr"
    pos: Pos  # the operator


@dataclass(frozen=True)
class Compare:
    op: str  # < <= > >= == !=
    left: "Expr"
    right: "Expr"
    pos: Pos  # the operator


@dataclass(frozen=True)
class Logic:
    op: str  # and, or
    left: "Expr"
    right: "Expr"
    pos: Pos  # the keyword


@dataclass(frozen=True)
class IfElse:
    cond: "Expr"
    then: "Expr"
    orelse: "Expr"
    pos: Pos


@dataclass(frozen=True)
class Call:
    func: str
    args: tuple
    pos: Pos  # the function's name


Expr = Union[Num, Bool, Name, Attr, Unary, Binary, Compare, Logic, IfElse, Call]


@dataclass(frozen=True)
class SAssign:
    target: Union[Name, Attr]
    value: Expr
    pos: Pos  # the `=`


@dataclass(frozen=True)
class SPairHead(SAssign):
    """The first of the three assignments `a, b = unit(...)` becomes
    (parse.py: pair_assign): when it fails, the other two are not checked (one
    error, not a cascade)."""


@dataclass(frozen=True)
class SAug:
    target: Union[Name, Attr]
    op: str  # + - *
    value: Expr
    pos: Pos  # the operator (+=)


@dataclass(frozen=True)
class SIf:
    cond: Expr
    body: tuple
    orelse: tuple
    pos: Pos


@dataclass(frozen=True)
class SPass:
    pos: Pos


@dataclass(frozen=True)
class SReturn:
    """`return` (only in before): the boid's frame ends here."""
    pos: Pos


Stmt = Union[SAssign, SAug, SIf, SPass, SReturn]
