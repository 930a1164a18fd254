"""boidsgen generate: write (or --check) a spec's generated files."""
from __future__ import annotations

from pathlib import Path


def cmd_generate(a) -> int:
    from codegen.output.pipeline import OutputError, claim_output, gate, load, render_files, write_tree
    from codegen.spec.project import output_dir
    from codegen.output.render import differing

    m = load(a.spec)
    out = Path(a.output) if a.output else output_dir(a.spec, m.name)
    if out.exists() and not out.is_dir():
        raise OutputError(f"-o {out}: that is a file, not a folder")
    if a.check:  # a check only reads: no gate, nothing written
        bad = differing(render_files(m, out, a.spec), out)
        if bad:
            print(f"{out}: {len(bad)} file(s) differ from a fresh render of {a.spec}:")
            for b in bad:
                print(f"  {b}")
            print("run `boidsgen generate` and commit the result")
            return 1
        print(f"{out}: up to date with {a.spec} (hash {m.hash})")
        return 0
    rep = gate(a.spec, m)
    files = render_files(m, out, a.spec)
    claim_output(a.spec, m, out)
    written = write_tree(files, out)
    print(f"range analysis: {len(rep.sites)} expressions within 32 bits "
          f"({sum(1 for s in rep.sites if s.kind != '32')} in 64 bits); details: boidsgen check {a.spec}")
    print(f"{out}: {len(written)} of {len(files)} file(s) written (spec hash {m.hash})")
    for w in written:
        print(f"  {w}")
    return 0
