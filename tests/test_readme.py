"""The README's quick start stays true: CI runs its test command verbatim,
and its main command works (boidsgen build is exercised in test_cli.py)."""
from __future__ import annotations

import re
import subprocess
import sys

from .conftest import ROOT
from .deadline import RUN


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


def test_readme_cli_table_lists_every_command():
    from codegen import cli

    text = (ROOT / "README.md").read_text()
    out = subprocess.run([sys.executable, "-m", "codegen.cli", "--help"], capture_output=True, text=True,
                         timeout=RUN).stdout
    cmds = re.search(r"\{([a-z,]+)\}", out).group(1).split(",")
    assert cmds and all(f"`boidsgen {c}" in text for c in cmds), cmds
    assert cli.DEFAULT_SPEC == "spec/boids.yaml"


def test_readme_documents_every_rule_and_spec():
    from codegen.lang.library import library_files

    text = (ROOT / "README.md").read_text()
    for name in (p.stem for p in library_files()):
        assert f"| `{name}` |" in text, name
    for spec in (ROOT / "spec").glob("*.yaml"):
        assert f"| `{spec.name}` |" in text, spec.name


def test_readme_command_list_is_the_command_table():
    """The firmware's command list in the README is `boidsgen commands`, so it
    is the table the firmware dispatches from and `help` prints."""
    text = (ROOT / "README.md").read_text()
    block = re.search(r"<!-- commands: boidsgen commands spec/boids.yaml -->\n(.*?)<!-- /commands -->", text,
                      re.S)
    assert block, "README has the generated command list"
    out = subprocess.run([sys.executable, "-m", "codegen.cli", "commands", "spec/boids.yaml"], capture_output=True,
                         text=True, timeout=RUN, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert block.group(1) == out.stdout


def test_readme_documents_every_option():
    """Every long option of every `boidsgen` command and of `boids_host`
    (the strings host_main.c compares its arguments with)."""
    import argparse

    from codegen import cli
    from codegen.cli_parser import build

    text = (ROOT / "README.md").read_text()

    def documented(opt: str) -> bool:  # "-o" as an option, not inside another word
        return re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", text) is not None

    opts = set()
    for action in build(cli)._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                opts |= {(name, o) for a in sub._actions for o in a.option_strings
                         if o.startswith("--") and o != "--help" and not any(documented(s) for s in a.option_strings)}
    host = (ROOT / "firmware_runtime" / "host_main.c").read_text()
    opts |= {("boids_host", o) for o in re.findall(r'strcmp\(a, "(--[a-z0-9-]+)"\)', host)
             if o != "--help" and not documented(o)}
    assert not opts, sorted(opts)
