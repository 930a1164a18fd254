"""Compiled functions that generated kernels call: one machine copy per
argument types, not one per constant.

numba compiles a jitted function called from jitted code for the types of
the call's arguments, and a constant's type is its value (`Literal[int](16)`).
The checked kernel passes each call site's number as a constant, so in one
run of the suite ck_mul was compiled 142 times and the ck_ and call twins
1,424 times in all, where their argument types make 132 (each compilation
a tenth of a second or more, on every new machine and in every kernel). A
function made by `call` is typed by its arguments' kinds only: a constant
argument is an int64 like any other. The result is the same machine code a
variable argument gets; only the constant folding LLVM could have done
inside the callee is lost, and these are calls kept apart to be cheap to
compile, not fast (the inlined fx_ are what the fixed kernel runs).

This reaches into numba's typing (Dispatcher.get_call_template, numba 0.60
to 0.68); tests/test_jit_call.py fails if that hook stops being used.
"""
from __future__ import annotations

from functools import cache

from numba import njit
from numba.core import types


def call(fn):
    """fn compiled by numba as a called (not inlined) function, cached on
    disk, one compiled copy per argument kinds."""
    d = njit(cache=True)(fn)
    typed_by_value = getattr(d, "get_call_template", None)
    if typed_by_value is None:  # NUMBA_DISABLE_JIT=1: the plain Python function
        return d

    def typed_by_kind(args, kws):
        return typed_by_value(tuple(types.unliteral(a) for a in args),
                              {k: types.unliteral(v) for k, v in kws.items()})

    d.get_call_template = typed_by_kind
    return d


@cache
def call_twin(dispatcher):
    """A called twin of an inlined fxops function (the kernels' calls):
    one per function in a process, shared by every kernel loaded in it."""
    return call(getattr(dispatcher, "py_func", dispatcher))
