"""Generated output: committed files equal a fresh render, renders are
byte-identical, banners say what made them, and the runtime version check
bites."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from codegen.commands.cli import main
from codegen.model.gen_model import build_model
from codegen.output.render import render
from codegen.model.spec_load import load_spec

from .conftest import ROOT, RUNTIME, require_tool

SPECS = sorted((ROOT / "spec").glob("*.yaml"))


def _git_files(folder: Path) -> dict[str, str]:
    """The files under folder as git's index has them (what a commit holds),
    not the working tree, which other tests regenerate."""
    git = require_tool("git")
    rel = folder.relative_to(ROOT).as_posix()
    names = subprocess.run([git, "-C", str(ROOT), "ls-files", "-z", "--", rel], capture_output=True, check=True,
                           timeout=60).stdout.decode().split("\0")
    out = {}
    for n in filter(None, names):
        blob = subprocess.run([git, "-C", str(ROOT), "show", f":{n}"], capture_output=True, check=True, timeout=60)
        out[n[len(rel) + 1:]] = blob.stdout.decode("utf-8")
    return out


@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
def test_committed_output_is_fresh(spec):
    """A fresh in-memory render equals the committed files, whatever ran before."""
    s, _ = load_spec(spec)
    m = build_model(s, spec)
    out = ROOT / "generated" / m.name
    fresh = render(m, out)
    committed = _git_files(out)
    stale = sorted(k for k in fresh.keys() | committed.keys() if fresh.get(k) != committed.get(k))
    assert not stale, f"generated/{m.name}: {stale} differ from a fresh render: run `boidsgen generate {spec}` " \
                      f"and commit (git add) the result"


@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
def test_render_is_deterministic_and_bannered(spec):
    s, _ = load_spec(spec)
    a = render(build_model(s, spec))
    b = render(build_model(load_spec(spec)[0], spec))
    assert a == b
    for rel, text in a.items():
        head = "\n".join(text.splitlines()[:3])
        assert "DO NOT EDIT" in head and f"spec/{spec.name}" in head and "boidsgen 0." in head, rel


def test_check_names_a_changed_file(tmp_path, capsys):
    (tmp_path / "spec").mkdir()
    spec = tmp_path / "spec" / "boids.yaml"
    spec.write_text((ROOT / "spec" / "boids.yaml").read_text())
    assert main(["generate", str(spec)]) == 0
    target = tmp_path / "generated" / "boids" / "firmware" / "boids_flock.c"
    target.write_text(target.read_text() + "\n/* hand edit */\n")
    (tmp_path / "generated" / "boids" / "python" / "stray.py").write_text("")
    capsys.readouterr()
    assert main(["generate", str(spec), "--check"]) == 1
    out = capsys.readouterr().out
    assert "firmware/boids_flock.c" in out and "python/stray.py (not generated any more)" in out
    assert "python/boids_model.py" not in out


def test_spec_hash_changes_with_values_not_comments(tmp_path):
    text = (ROOT / "spec" / "boids.yaml").read_text()
    (tmp_path / "a.yaml").write_text(text)
    (tmp_path / "b.yaml").write_text("# another comment\n" + text)
    (tmp_path / "c.yaml").write_text(text.replace("seed: 1", "seed: 2"))
    h = [build_model(load_spec(tmp_path / f"{n}.yaml")[0], "x.yaml").hash for n in "abc"]
    assert h[0] == h[1] != h[2]


def test_runtime_version_mismatch_is_an_error(tmp_path):
    require_tool("gcc")
    fw = ROOT / "generated" / "boids" / "firmware"
    rt = tmp_path / "rt"
    rt.mkdir()
    for f in (RUNTIME / "core").iterdir():  # the portable runtime: params.h holds the version
        if f.is_file():
            (rt / f.name).write_text(f.read_text().replace("#define BOIDSRT_VERSION_MAJOR 1", "#define BOIDSRT_VERSION_MAJOR 2"))
    res = subprocess.run(["gcc", "-std=c99", "-c", f"-I{fw}", f"-I{rt}", str(fw / "boids_params.c"), "-o",
                          str(tmp_path / "x.o")], capture_output=True, text=True)
    assert res.returncode != 0 and "firmware_runtime version does not match" in res.stderr


def test_stale_python_model_is_refused(tmp_path):
    from pysim.model_support import ModelMismatch, load_model

    with pytest.raises(ModelMismatch, match="run `boidsgen generate`"):
        load_model(ROOT / "generated" / "boids" / "python" / "boids_model.py", expect_hash="0" * 16)


def test_schema_command(capsys):
    import json

    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["title"] == "boidsgen spec"
    assert {"params", "rules", "spawn", "name"} <= set(schema["required"])
    assert "visual_range" not in schema["properties"]  # structure only, no spec values
    assert schema["additionalProperties"] is False


def test_output_elsewhere_builds(tmp_path, capsys):
    require_tool("make")
    require_tool("gcc")
    out = tmp_path / "deep" / "place"
    assert main(["generate", str(ROOT / "spec" / "boids.yaml"), "-o", str(out)]) == 0
    assert main(["generate", str(ROOT / "spec" / "boids.yaml"), "-o", str(out), "--check"]) == 0
    res = subprocess.run(["make", "-s", "-C", str(out / "firmware"), "host", f"BUILD={tmp_path / 'b'}"],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "b" / "boids_host").exists()
