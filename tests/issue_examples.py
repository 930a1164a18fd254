"""The rule language's four examples exactly as its issue writes them (wind,
crowding, restless, predator_push): one copy for every test that uses them."""

WIND = """\
  wind:
    description: a steady drift added every frame
    roles: {x: fixed, y: fixed}
    apply: |
      vx += x
      vy += y
"""
ISSUE_RULES = WIND + """\
  crowding:
    description: slow down in a crowd
    roles: {range: fixed, slow: fixed}
    neighbours: {of: boids, within: range}
    each: |
      crowd += 1
    apply: |
      if crowd > 3:
          vx -= vx * slow
          vy -= vy * slow
  restless:
    description: an urge to turn builds up until the boid turns left
    roles: {rate: fixed, limit: fixed}
    state: {urge: 0}
    apply: |
      urge = min(urge + rate, limit)
      if urge >= limit:
          t = vx
          vx = -vy
          vy = t
          urge = 0
  predator_push:
    description: turn away from predators, summed
    roles: {range: fixed, push: fixed}
    neighbours: {of: predators, within: range}
    each: |
      away_x += dx
      away_y += dy
    apply: |
      vx += sign(away_x) * push
      vy += sign(away_y) * push
"""
RULE_DEFS = "rule_defs:\n" + ISSUE_RULES
