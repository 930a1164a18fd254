"""A rule's type error (where, why) and the checks on a call that both the
expression checker (exprs.py) and the functions (calls.py) raise."""
from __future__ import annotations

from codegen.lang.ir import Pos
from codegen.lang.scope import COMPONENTS, FUNCTIONS, hint


class TypeErr(Exception):
    def __init__(self, pos: Pos, reason: str) -> None:
        super().__init__(reason)
        self.pos, self.reason = pos, reason


def check_arity(name: str, args: tuple, pos: Pos) -> None:
    want = FUNCTIONS[name] if name in FUNCTIONS else COMPONENTS[name]
    if len(args) != want:
        raise TypeErr(pos, f"{name}() takes {want} argument{'s' if want != 1 else ''}, got {len(args)}")


def unknown_function(scope, name: str, pos: Pos) -> TypeErr:
    if name in scope.roles:
        return TypeErr(pos, f"'{name}' is a role of this rule here, not the function {name}()")
    return TypeErr(pos, f"'{name}' is not a function of the rule language (functions: "
                        f"{', '.join(sorted(FUNCTIONS))}){hint(name, FUNCTIONS)}")
