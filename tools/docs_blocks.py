#!/usr/bin/env python3
"""Rewrite the generated blocks of the documentation from their sources, so
the pages cannot drift from the tool:

    <!-- generated: cli -->      every `boidsgen` command and option, from the CLI's own parser
    <!-- generated: schema -->   every spec key, from `boidsgen schema` (the Pydantic models)
    <!-- generated: commands --> the firmware's serial commands, `boidsgen commands spec/boids.yaml`
    <!-- generated: m4k-sizes --> every spec's board image size (mipsel-linux-gnu-gcc -march=m4k)
    ...
    <!-- /generated -->

    python3 tools/docs_blocks.py           # rewrite the blocks in docs/*.md
    python3 tools/docs_blocks.py --check   # write nothing; exit 1 naming each stale block
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BLOCK = re.compile(r"(<!-- generated: ([\w-]+) -->\n)(.*?)(<!-- /generated -->)", re.S)


def _cell(text: str) -> str:
    """Text for a Markdown table cell: one line, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def cli_reference() -> str:
    from codegen.commands import cli
    from codegen.commands.parser import build

    parser = build(cli)
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {c.dest: c.help for c in subs._choices_actions}
    out = []
    for name, sub in subs.choices.items():
        usage = " ".join(sub.format_usage().replace("usage: ", "", 1).split())
        out += [f"### `boidsgen {name}`", "", _cell(helps.get(name, "")), "", "```", usage, "```", ""]
        rows = [a for a in sub._actions if a.dest != "help"]
        if rows:
            out += ["| argument | meaning |", "| --- | --- |"]
            for a in rows:
                names = ", ".join(a.option_strings) or a.metavar or a.dest
                choices = f" One of: {', '.join(map(str, a.choices))}." if a.choices else ""
                out.append(f"| `{names}` | {_cell(a.help or '')}{choices} |")
            out.append("")
    return "\n".join(out)


def _type_of(prop) -> str:
    if not isinstance(prop, dict):  # `additionalProperties: true`
        return "any"
    if "$ref" in prop:
        name = prop["$ref"].rsplit("/", 1)[1]
        return f"[{name}](#{name.lower()})"
    if "anyOf" in prop:
        return " or ".join(_type_of(p) for p in prop["anyOf"] if p.get("type") != "null")
    if "enum" in prop:
        return " \\| ".join(f"`{v}`" for v in prop["enum"])
    if prop.get("type") == "array":
        return f"list of {_type_of(prop.get('items', {}))}"
    if prop.get("type") == "object" and "additionalProperties" in prop:
        return f"map to {_type_of(prop['additionalProperties'])}"
    return prop.get("type", "any")


def _range_of(prop: dict) -> str:
    bits = []
    for key, word in (("minimum", ">="), ("exclusiveMinimum", ">"), ("maximum", "<="), ("exclusiveMaximum", "<"),
                      ("maxLength", "length <="), ("pattern", "matches")):
        if key in prop:
            bits.append(f"{word} `{prop[key]}`")
    return ", ".join(bits)


def _table(schema: dict) -> list[str]:
    required = set(schema.get("required", ()))
    rows = ["| key | type | default | allowed | meaning |", "| --- | --- | --- | --- | --- |"]
    for key, prop in schema.get("properties", {}).items():
        default = "(required)" if key in required else f"`{json.dumps(prop.get('default'))}`"
        if len(default) > 40:
            default = "(see the type)"
        rows.append(f"| `{key}` | {_type_of(prop)} | {_cell(default)} | {_range_of(prop)} | "
                    f"{_cell(prop.get('description', ''))} |")
    return rows


def spec_reference() -> str:
    from codegen.spec.schema import Spec

    schema = Spec.model_json_schema()
    out = ["### The spec (top level)", ""] + _table(schema) + [""]
    for name, sub in sorted(schema.get("$defs", {}).items()):
        out += [f"### {name}", ""]
        if sub.get("description"):
            out += [_cell(sub["description"]), ""]
        out += _table(sub) if "properties" in sub else [f"{_type_of(sub)}"]
        out.append("")
    return "\n".join(out)


def commands_table() -> str:
    from codegen.model.serial_commands import markdown
    from codegen.output.pipeline import load

    return markdown(load(ROOT / "spec" / "boids.yaml").spec)


def m4k_sizes() -> str:
    from codegen.drivers.pic32.compile_check import SIZE_HEADER, check_image, size_row

    specs = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "spec").glob("*.yaml"))
    return "\n".join([SIZE_HEADER] + [size_row(check_image(s)) for s in specs])


RENDER = {"cli": cli_reference, "schema": spec_reference, "commands": commands_table, "m4k-sizes": m4k_sizes}
# Blocks whose --check would repeat a slow build another test already runs:
# tests/test_pic32_build.py checks each spec's row of the m4k size table.
CHECKED_ELSEWHERE = {"m4k-sizes"}


def refresh(text: str, skip: set[str] = frozenset()) -> str:
    def one(m: re.Match) -> str:
        if m.group(2) in skip:
            return m.group(0)
        body = RENDER[m.group(2)]().rstrip("\n") + "\n"
        return m.group(1) + body + m.group(4)

    return BLOCK.sub(one, text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 naming each stale page")
    args = ap.parse_args(argv)
    stale = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        new = refresh(text, CHECKED_ELSEWHERE if args.check else frozenset())
        if new != text:
            stale.append(page.relative_to(ROOT))
            if not args.check:
                page.write_text(new, encoding="utf-8")
    for p in stale:
        print(f"{p}: {'stale generated block (run python3 tools/docs_blocks.py)' if args.check else 'rewritten'}")
    return 1 if (stale and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
