"""The shadow check: fixed-point arithmetic that reports a wrap.

`sim --check-overflow` runs the kernel's `step_checked`: the same loops as
`step_fixed`, each fixed-point operation through pysim/fxops.py's ck_
variant, which returns exactly the fx_ result and records the first one
whose exact value leaves 32 bits (a value the C would wrap). So a checked
frame is bit for bit a fixed frame; after a frame with a finding the engine
raises `OverflowFound` naming the frame, the boid (or predator, or food),
the rule, the expression as written in the rule, and where it is written
(the rule's file:line:col; generated code such as the pair loop's offsets
has no file).
"""
from __future__ import annotations

from pysim.arith import FixedArith
from pysim.fxops import OVERFLOW, ST_COUNT, ST_KIND, ST_SITE, ST_VALUE

WHO = ("boid", "predator", "food")


class OverflowFound(ArithmeticError):
    def __init__(self, frame: int | None, who: str, index: int, expr: str, rule: str, value: int,
                 where: str, frac_bits: int, kind: str = "overflow") -> None:
        self.frame, self.who, self.index, self.expr, self.rule = frame, who, index, expr, rule
        self.value, self.where, self.kind = value, where, kind
        at = f" ({where})" if where else ""
        if kind == "shift":
            what = f"shift count {value} is outside the value's width"
        else:
            what = f"= {value / (1 << frac_bits):g} (raw {value}) is outside 32 bits"
        super().__init__(f"overflow at frame {frame}, {who} {index}, rule '{rule}': `{expr}` {what}{at}")


class CheckedFixedArith(FixedArith):
    """FixedArith whose simulation runs the kernel's checked step."""
    name = "fixed"
    checked = True

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self.frame_of = lambda: None  # kept for callers that set it; the engine knows the frame


def overflow_found(kernel, st, frame: int, frac_bits: int) -> OverflowFound:
    """The first finding of a checked frame's status array, as the exception."""
    rule, expr, path, line, col = kernel.SITES[int(st[ST_SITE])]
    where = f"{path}:{line}:{col}" if path and line else ""
    who = WHO[int(st[4])] if 0 <= int(st[4]) < len(WHO) else "boid"
    return OverflowFound(frame, who, int(st[5]), expr, rule, int(st[ST_VALUE]), where, frac_bits,
                         "overflow" if int(st[ST_KIND]) == OVERFLOW else "shift")


def checked_arith_for(model) -> CheckedFixedArith:
    return CheckedFixedArith(model.FRAC_BITS, getattr(model, "MAGNITUDE", "exact"),
                             getattr(model, "AMB_ALPHA_RAW", 0), getattr(model, "AMB_BETA_RAW", 0))


__all__ = ["OverflowFound", "CheckedFixedArith", "checked_arith_for", "overflow_found",
           "ST_COUNT"]
