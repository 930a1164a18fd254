"""The rule library: each rule is a folder holding its C template and its
Python twin side by side (rule.c.j2 / rule.py.j2); catalog.py says what the
rule's spec fields mean and which neighbour zone it accumulates in."""
