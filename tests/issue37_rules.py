"""Issue 37's rules of randomness and angles, as specs: the issue's `jitter`
exactly as written, and `steer` (every new function: random_int in before
with a return, atan2, unit, rotate, sin, cos), each in a copy of
spec/lab_tft_predator.yaml (tests/test_issue37_draws_angles.py)."""
from __future__ import annotations

from pathlib import Path

JITTER = """\
  jitter:
    description: a little random wander
    roles: {amount: fixed}
    apply: |
      vx += (random() - 0.5) * amount
      vy += (random() - 0.5) * amount
"""
STEER = """\
  steer:
    description: turn toward the screen's centre by at most limit a frame, now and then at random
    roles: {limit: fixed, odds: int}
    before: |
      if random_int(1, 400) == 1:
          return
    apply: |
      want = atan2(height / 2 - y, width / 2 - x)
      d = want - atan2(vy, vx)
      if d > 0.5:
          d -= 1
      elif d < -0.5:
          d += 1
      if random_int(1, odds) == 1:
          d = (random() - 0.5) * 0.5
      a = clamp(d, -limit, limit)
      s = min(hypot(vx, vy), 10)
      ux, uy = unit(vx, vy)
      vx, vy = rotate(ux * s, uy * s, a)
      vx += sin(a) * 0.01
      vy -= cos(a + 0.25) * 0.01
"""
PARAMS = """\
  jitter:           {default: 0.2, min: 0, max: 2, unit: px/frame, id: 15, description: "random wander"}
  turn_max:         {default: 0.02, min: 0, max: 0.25, id: 16, description: "largest turn a frame, in turns"}
  wander_odds:      {default: 8, min: 1, max: 100, type: int, id: 17, description: "1 in N frames a random turn"}
"""


def spec(folder: Path, name: str, rules: str, defs: str, extra: dict | None = None) -> Path:
    """A copy of spec/lab_tft_predator.yaml named `name` with the three
    parameters, `rules` before speed_limit, `defs` as its rule_defs, and
    top-level lines replaced by `extra` (key -> line)."""
    from .conftest import ROOT

    text = (ROOT / "spec" / "lab_tft_predator.yaml").read_text(encoding="utf-8")
    text = text.replace("name: lab_tft_predator", f"name: {name}", 1)
    text = text.replace("\n  margin: ", "\n" + PARAMS + "  margin: ", 1)
    text = text.replace("  - {rule: speed_limit", rules + "  - {rule: speed_limit", 1)
    for key, line in (extra or {}).items():
        lines = text.split("\n")
        at = [k for k, ln in enumerate(lines) if ln.startswith(key + ":")]
        if at:
            lines[at[0]] = line
        else:
            lines.insert(1, line)
        text = "\n".join(lines)
    text += "\nrule_defs:\n" + defs
    path = folder / "spec" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
