"""The shared passes: the IR rewrites both targets print, in order. They fix
the bits the firmware and the simulator compute, so every target runs them
whatever `performance.optimize` says (the simulator does not know the mode);
widths.lowered(m) is the same list's result."""
from __future__ import annotations

from ..lang.offsets import Offsets
from ..lang.roots import Roots
from ..lang.widths import Widths

SHARED = (Offsets(), Roots(), Widths())
