"""The pass lists every C target starts from (each target's pass_list.py adds its own):

  C_FAST  the C passes any compiler gains from, after the shared ones: the
          guarded copy, the C's positions, each pair once, the zones, window
          sums and mean tables (each preserves every bit the step computes)
  PLAIN   the shared passes and roots_as_written: the seed's one pair loop
          (`performance.optimize: plain`)
"""
from __future__ import annotations

from codegen.passes.c_positions import CPositions
from codegen.passes.guards import Guards
from codegen.passes.mean_table import MeanTable
from codegen.passes.pairs_once import PairsOnce
from codegen.passes.roots import RootsAsWritten
from codegen.passes.shared import SHARED
from codegen.passes.window_sums import WindowSums
from codegen.passes.zones import ZoneApart, ZonesHiLo

C_FAST = (Guards(), CPositions(), PairsOnce(), ZonesHiLo(), ZoneApart(), WindowSums(), MeanTable())
PLAIN = SHARED + (RootsAsWritten(),)
