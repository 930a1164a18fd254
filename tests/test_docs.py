"""The documentation site builds, and its generated parts are current.

`mkdocs build --strict` fails on a broken link, a missing page or anchor, or
a README section the home page includes that is gone; tools/docs_blocks.py
--check fails when the CLI reference, the spec reference or the command table
no longer match the parser, the schema or `boidsgen commands`."""
from __future__ import annotations

import subprocess
import sys

from .conftest import ROOT, require_tool
from .deadline import RUN


def test_generated_blocks_are_current():
    res = subprocess.run([sys.executable, str(ROOT / "tools" / "docs_blocks.py"), "--check"], capture_output=True,
                         text=True, timeout=RUN, cwd=ROOT)
    assert res.returncode == 0, res.stdout + res.stderr


def test_a_stale_block_is_found(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import docs_blocks
    finally:
        sys.path.remove(str(ROOT / "tools"))
    stale = "<!-- generated: cli -->\n| old |\n<!-- /generated -->\n"
    fresh = docs_blocks.refresh(stale)
    assert fresh != stale and "`boidsgen watch`" in fresh and "--timeout" in fresh
    assert docs_blocks.refresh(fresh) == fresh


def test_the_site_builds_strictly(tmp_path):
    require_tool("mkdocs")
    res = subprocess.run(["mkdocs", "build", "--strict", "-d", str(tmp_path / "site")], capture_output=True,
                         text=True, timeout=RUN, cwd=ROOT, env={**__import__("os").environ, "NO_MKDOCS_2_WARNING": "1"})
    # (not -q: with it mkdocs drops the warnings that --strict counts, and passes)
    assert res.returncode == 0 and "WARNING" not in res.stderr, res.stdout + res.stderr
    tour = (tmp_path / "site" / "tour" / "index.html").read_text()
    assert "boids-gui" in tour and "--8&lt;--" not in tour  # the README's tour, included
    assert (tmp_path / "site" / "search" / "search_index.json").is_file()
