"""pysim/jit_call.py: a function that kernels call is compiled once per
argument kinds, however many constants its call sites pass."""
from __future__ import annotations

from numba import njit

from pysim import fxops
from pysim.fxops_checked import new_status
from pysim.jit_call import call_twin


def test_constant_arguments_share_one_compiled_copy():
    mul = call_twin(fxops.fx_mul)
    assert call_twin(fxops.fx_mul) is mul  # one twin a process, shared by every kernel

    @njit
    def caller(a):  # the constants a kernel passes: the frac bits, literal operands
        return mul(a, 3, 16) + mul(a, 5, 15) + mul(7, a, 12)

    assert caller(1 << 16) == fxops.fx_mul(1 << 16, 3, 16) + fxops.fx_mul(1 << 16, 5, 15) + fxops.fx_mul(7, 1 << 16, 12)
    assert len(mul.signatures) == 1, mul.signatures


def test_the_checked_sites_share_one_compiled_copy():
    ck_add = call_twin(fxops.ck_add)

    @njit
    def caller(a, st):  # a checked kernel: every call site passes its own number
        return ck_add(ck_add(a, 1, st, 0), ck_add(a, 2, st, 1), st, 2)

    st = new_status()
    assert caller((1 << 31) - 2, st) == fxops.fx_add(fxops.fx_add((1 << 31) - 2, 1),
                                                     fxops.fx_add((1 << 31) - 2, 2))
    assert st[0] == 1 and st[1] == 1  # one result left 32 bits: (2^31 - 2) + 2, at site 1
    assert st[2] == 1 << 31
    assert len(ck_add.signatures) == 1, ck_add.signatures
