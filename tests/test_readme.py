"""The README and the documentation stay true: CI runs the README's test
command verbatim, its main command works (boidsgen build is exercised in
test_cli.py; the quick start itself in test_quick_start.py), and the
reference pages cover every command, option, rule and spec."""
from __future__ import annotations

import re
import subprocess
import sys

from .conftest import ROOT
from .deadline import RUN

DOCS = ROOT / "docs"


def quick_start_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_quick_start_has_two_commands():
    cmds = quick_start_commands()
    assert cmds[0] == "bash tools/setup.sh && .venv/bin/boidsgen build"
    assert cmds[1] == "bash tools/setup.sh && .venv/bin/python -m pytest -q"


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert ci[-1] == quick_start_commands()[1]


def test_the_readme_is_short_with_a_picture_in_its_first_screen():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 250, len(lines)
    assert any(re.search(r"!\[[^]]*\]\(docs/\w+\.png\)", line) for line in lines[:24])


def test_the_readme_links_every_page_of_the_site():
    text = (ROOT / "README.md").read_text()
    nav = re.findall(r":\s*([\w-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(), re.M)
    pages = [p for p in nav if p not in ("index.md", "tour.md", "troubleshooting.md")]
    assert pages and all(f"](docs/{p})" in text for p in pages), [p for p in pages if f"](docs/{p})" not in text]


def test_cli_page_lists_every_command():
    from codegen.commands import parser

    text = (DOCS / "cli.md").read_text()
    out = subprocess.run([sys.executable, "-m", "codegen.commands.cli", "--help"], capture_output=True, text=True,
                         timeout=RUN).stdout
    cmds = re.search(r"\{([a-z,]+)\}", out).group(1).split(",")
    assert cmds and all(f"`boidsgen {c}" in text.split("## Every command")[0] for c in cmds), cmds
    assert parser.DEFAULT_SPEC == "spec/boids.yaml"


def test_spec_page_documents_every_rule_and_spec():
    from codegen.lang.library import library_files

    text = (DOCS / "spec.md").read_text()
    for name in (p.stem for p in library_files()):
        assert f"| `{name}` |" in text, name
    for spec in (ROOT / "spec").glob("*.yaml"):
        assert f"| `{spec.name}` |" in text, spec.name


def test_serial_page_command_list_is_the_command_table():
    """The firmware's command list in docs/serial.md is `boidsgen commands`, so
    it is the table the firmware dispatches from and `help` prints."""
    text = (DOCS / "serial.md").read_text()
    block = re.search(r"<!-- generated: commands -->\n(.*?)<!-- /generated -->", text, re.S)
    assert block, "docs/serial.md has the generated command list"
    out = subprocess.run([sys.executable, "-m", "codegen.commands.cli", "commands", "spec/boids.yaml"], capture_output=True,
                         text=True, timeout=RUN, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert block.group(1) == out.stdout


def test_every_boids_host_option_is_documented():
    """The strings host_main.c compares its arguments with, in docs/serial.md
    (the boidsgen commands' options are the generated part of docs/cli.md)."""
    text = (DOCS / "serial.md").read_text()
    host = (ROOT / "firmware_runtime" / "host" / "host_main.c").read_text()
    missing = [o for o in re.findall(r'strcmp\(a, "(--[a-z0-9-]+)"\)', host)
               if o != "--help" and not re.search(r"(?<![\w-])" + re.escape(o) + r"(?![\w-])", text)]
    assert not missing, missing
