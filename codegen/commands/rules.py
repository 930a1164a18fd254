"""boidsgen rules / schema: the rule library and the spec's JSON schema."""
from __future__ import annotations

import json
from pathlib import Path

from codegen.commands.messages import err
from codegen.spec.yaml_read import read_text


def cmd_rules(a) -> int:
    """The library (and a spec's own rules with --spec): a table, or one definition."""
    from codegen.lang.library import DEFS
    from codegen.lang.library import library

    rules = dict(library(15))
    own = {}
    if a.spec_file:
        from codegen.model.spec_load import load_spec

        spec, _ = load_spec(a.spec_file)
        own = {n: r for n, r in spec._rules.items() if r.path != rules.get(n, r).path or n not in rules}
        rules.update(own)
    if a.name is None:
        print(f"{'rule':<20} {'seed':<14} roles; summary")
        for name in sorted(rules):
            r = rules[name]
            where = " (spec)" if name in own else ""
            roles = ", ".join(f"{x.name}: {x.type}" for x in r.roles)
            print(f"{name:<20} {(r.seed or '-'):<14} {roles}; {r.description}{where}")
        print(f"\n{len(rules)} rules; `boidsgen rules NAME` prints a definition (library: {DEFS})")
        return 0
    r = rules.get(a.name)
    if r is None:
        import difflib

        near = difflib.get_close_matches(a.name, list(rules), n=1)
        err(f"no rule '{a.name}'" + (f" (did you mean '{near[0]}'?)" if near else "") + "; `boidsgen rules` lists them")
        return 2
    path = Path(r.path)
    if a.name in own:
        from codegen.spec.yaml_read import read_yaml

        doc = read_yaml(path)
        node = doc["rule_defs"][a.name]
        first, last = node.lc.line, _last_line(path, node.lc.line)
        lines = read_text(path).splitlines()[first - 1:last]
        print(f"# {path}, rule_defs.{a.name}")
        print("\n".join(ln[2:] if ln.startswith("  ") else ln for ln in lines))
    else:
        print(read_text(path), end="")
    return 0


def _last_line(path: Path, start: int) -> int:
    """The last line of the block that starts at 0-based line `start` (by indentation)."""
    lines = read_text(path).splitlines()
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) >= indent):
        end += 1
    return end


def cmd_schema(a) -> int:
    from codegen.spec.schema import Spec

    schema = Spec.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "boidsgen spec"
    print(json.dumps(schema, indent=2, sort_keys=True))
    return 0
