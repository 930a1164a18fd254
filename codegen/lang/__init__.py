"""The rule language's front end: a rule definition -> parse -> typed IR -> checks.

  locate.py   positions inside YAML blocks -> file:line:col
  parse.py    Python's `ast`, whitelisted -> the untyped tree (syntax.py)
  header.py   the definition's keys: roles, neighbours, uses, state, blocks
  scope.py    what a name means in each block; which names a rule may define
  exprs.py    typing expressions, lowering operators to named ops (ops.py)
  calls.py    the language's functions
  blocks.py   statements: locals, sums, definite assignment
  check.py    the two passes (infer, then check and lower)
  ir.py       the IR the emitters read
  ruledef.py  compile_rule(): the public entry
  library.py  the built-in rules (codegen/rules/defs/*.yaml)
See README.md beside this file for the language and its decisions.
"""
