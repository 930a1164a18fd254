"""Optimisations as passes (issue 34): each a named object saying what it
assumes and what it preserves; a target runs its list of them
(pipeline.py) and prints what they leave."""
