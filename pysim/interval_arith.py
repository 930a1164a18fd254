"""What is left of the numpy interval analysis: the call-site locator.

The range analysis no longer runs the generated numpy model over intervals:
it is interval arithmetic over the rule IR (codegen/lang/ranges.py). Only
`call_site` stays here, because pysim/checked_arith.py (`sim
--check-overflow` over the numpy model) names the generated source line of
a failing `A.*` call with it; this file goes with checked_arith.py when the
compiled simulator's checked variant replaces it.
"""
from __future__ import annotations

import ast
import linecache
import re
import sys
from dataclasses import dataclass


# ---------------------------------------------------------------- call sites
@dataclass(frozen=True)
class Site:
    """Where an operation is in the generated source."""
    file: str
    func: str
    line: int
    col: int
    end_col: int
    rule: str  # the `# <rule>` section it is in, or 'neighbours' / 'predators' / 'food'
    text: str  # the call as written: A.mul(A.acc_fx(separation_close_dx), P.avoid_factor)
    expr: str  # the same in infix: separation_close_dx * avoid_factor
    source_line: str

    @property
    def key(self) -> tuple:
        return (self.file, self.line, self.col, self.end_col)


_site_cache: dict = {}
_RULE_RE = re.compile(r"^\s*# (\w+)\s*$")


def _rule_of(filename: str, func: str, lineno: int) -> str:
    if '"x":' in linecache.getline(filename, lineno):
        return "move"  # p += v, after every rule
    if func != "update":
        return {"predators_step": "predators", "food_step": "food"}.get(func, func)
    for ln in range(lineno, 0, -1):
        text = linecache.getline(filename, ln)
        m = _RULE_RE.match(text)
        if m:
            return m.group(1)
        if text.lstrip().startswith("def "):
            break
    return "neighbours"


def call_site(depth: int = 2) -> Site | None:
    """The call being executed `depth` frames up (the generated code calling A.*)."""
    f = sys._getframe(depth)
    key = (f.f_code, f.f_lasti)
    s = _site_cache.get(key)
    if s is None:
        pos = None
        for i, p in enumerate(f.f_code.co_positions()):
            if i == f.f_lasti // 2:
                pos = p
                break
        line = pos[0] if pos and pos[0] else f.f_lineno
        src = linecache.getline(f.f_code.co_filename, line)
        col, end = (pos[2], pos[3]) if pos and pos[2] is not None and pos[1] == line else (0, len(src.rstrip()))
        text = src[col:end] if src else "?"
        s = Site(f.f_code.co_filename, f.f_code.co_name, line, col, end,
                 _rule_of(f.f_code.co_filename, f.f_code.co_name, line), text, infix(text), src.strip())
        _site_cache[key] = s
    return s


# The C-like reading of the A.* vocabulary, for messages.
_BIN = {"add": ("+", 1), "sub": ("-", 1), "mul": ("*", 2), "div": ("/", 2), "idiv": ("/", 2),
        "acc_mean": ("/", 2)}


def _unparse(node, prec: int = 0) -> str:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            isinstance(node.func.value, ast.Name) and node.func.value.id == "A":
        op, args = node.func.attr, node.args
        if op in _BIN and len(args) == 2:
            sym, p = _BIN[op]
            s = f"{_unparse(args[0], p)} {sym} {_unparse(args[1], p + 1)}"
            return f"({s})" if p < prec else s
        if op == "d2" and len(args) == 2:
            a, b = _unparse(args[0], 3), _unparse(args[1], 3)
            s = f"{a}*{a} + {b}*{b}"
            return f"({s})" if prec > 1 else s
        if op == "sq" and len(args) == 1:
            a = _unparse(args[0], 3)
            return f"{a}*{a}"
        if op in ("neg", "neg_wide") and len(args) == 1:
            return f"-{_unparse(args[0], 3)}"
        if op == "abs":
            return f"|{_unparse(args[0])}|"
        if op in ("acc_fx",) and len(args) == 1:
            return _unparse(args[0], prec)
        if op == "acc_sum" and args:
            return f"sum({_unparse(args[0])})"
        if op in ("mag", "hypot") and len(args) == 2:
            return f"|({_unparse(args[0])}, {_unparse(args[1])})|"
        if op == "where" and len(args) == 3:
            return f"({_unparse(args[0])} ? {_unparse(args[1])} : {_unparse(args[2])})"
        return f"{op}({', '.join(_unparse(a) for a in args)})"
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("P", "K", "W", "A"):
        return node.attr
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):  # x[:, None], W.px[None, :]
        return _unparse(node.value, prec)
    if isinstance(node, ast.BinOp):
        sym = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}.get(type(node.op), "?")
        p = 1 if sym in "+-" else 2
        s = f"{_unparse(node.left, p)} {sym} {_unparse(node.right, p + 1)}"
        return f"({s})" if p < prec else s
    try:
        return ast.unparse(node)
    except Exception:  # noqa: BLE001 - a message, best effort
        return "?"


def infix(text: str) -> str:
    try:
        return _unparse(ast.parse(text.strip(), mode="eval").body)
    except SyntaxError:
        return text.strip()
