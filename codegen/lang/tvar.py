"""Open types while inferring: state variables, sums and locals whose type the
first pass has not yet seen (`state: {urge: 0}` is fixed once `urge + rate`
meets a fixed role). `LIT` marks an untyped integer-literal expression, which
takes the type of what it meets. Neither survives into the IR."""
from __future__ import annotations

LIT = "lit"


class TVar:
    """An open type; `ref` is what it is bound to (a Type or another TVar)."""
    __slots__ = ("ref",)

    def __init__(self) -> None:
        self.ref = None

    def __repr__(self) -> str:
        return f"TVar({resolve(self)!r})"


def resolve(t):
    while isinstance(t, TVar) and t.ref is not None:
        t = t.ref
    return t


def is_open(t) -> bool:
    return isinstance(resolve(t), TVar)
