"""The rule library's data: defs/<rule>.yaml, one rule a file, written in the
rule language (docs/rules.md) like a spec's own `rule_defs:` entry;
codegen/lang/library.py compiles them. No Python lives here."""
