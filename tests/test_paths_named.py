"""Texts that are true: every path under codegen/, pysim/ or firmware_runtime/
that a source file, template, spec, rule definition or document names exists
(a file, or a folder). Placeholders (<rule>, *, {...}) are read as patterns."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = {".py", ".j2", ".yaml", ".yml", ".md", ".c", ".h", ".toml", ".sh"}
# a path: one of the three roots, then path characters; placeholders allowed
PATH = re.compile(r"(?<![\w./-])((?:codegen|pysim|firmware_runtime)/[\w./<>*{},-]*)")


def tracked() -> list[Path]:
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True, check=True).stdout
    return [ROOT / f for f in out.split() if Path(f).suffix in SUFFIXES and not f.startswith("generated/")]


def exists(named: str) -> bool:
    named = named.rstrip(".,)/")
    if re.search(r"[<>*{}]", named):  # a pattern: <x> and {a,b} match any one name
        glob = re.sub(r"<[^>]*>|\{[^}]*\}", "*", named)
        return any(ROOT.glob(glob))
    return (ROOT / named).exists()


def missing() -> list[str]:
    bad = []
    for p in tracked():
        text = p.read_text(encoding="utf-8", errors="replace")
        for n, line in enumerate(text.splitlines(), 1):
            for m in PATH.finditer(line):
                if not exists(m.group(1)):
                    bad.append(f"{p.relative_to(ROOT)}:{n}: {m.group(1)}")
    return bad


def test_the_check_sees_a_missing_path():
    assert exists("codegen/spec/loader.py") and exists("codegen/rules/defs/<rule>.yaml")
    assert not exists("codegen/rules/" + "gravity/rule.c.j2")  # split: this file is checked too


def test_every_named_path_exists():
    bad = missing()
    assert not bad, f"{len(bad)} named paths do not exist:\n" + "\n".join(bad)
