"""The shared passes: the IR rewrites both targets print, in order. They fix
the bits the firmware and the simulator compute, so every target runs them
whatever `performance.optimize` says (the simulator does not know the mode);
widths.lowered(m) is the same list's result."""
from __future__ import annotations

from codegen.passes.offsets import Offsets
from codegen.passes.roots import Roots
from codegen.passes.widths import Widths

SHARED = (Offsets(), Roots(), Widths())
