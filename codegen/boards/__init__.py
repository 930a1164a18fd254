"""The targets boidsgen builds for, each declared once (registry.py), below
every other stage: the spec's schema, the passes and the commands ask here
what a board is and what it has."""
