"""Our protothreads (firmware_runtime/core/pt.h) under -Wall -Wextra -Wpedantic -Werror."""
from __future__ import annotations

import subprocess

from .conftest import ROOT, RUNTIME_INCLUDES, compile_c
from .deadline import RUN


def test_threads_interleave_as_specified(tmp_path):
    exe = compile_c([ROOT / "tests" / "c" / "pt_driver.c"], tmp_path / "pt", includes=RUNTIME_INCLUDES)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True, timeout=RUN).stdout.splitlines()
    assert out == [
        "produce 0 at 0",    # producer runs first, sets the flag, then waits for it to clear
        "consume at 0",      # consumer takes it and yields
        "produce 1 at 1",    # flag clear again: next item
        "after yield at 1",  # PT_YIELD gave exactly one turn away
        "consume at 10",     # PT_YIELD_UNTIL(ticks >= 10) held the consumer until tick 10
        "produce 2 at 11",
        "after yield at 11",
        "consume at 12",     # the condition already holds: one yield, then on
        "after yield at 13",
        "done at 15, producer ended, consumer ended",  # PT_END and PT_EXIT both end a thread
    ]
