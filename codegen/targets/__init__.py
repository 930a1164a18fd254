"""Targets: what a spec is printed for, each in a folder of its own."""
