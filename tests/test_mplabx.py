"""The MPLAB X project generated beside each spec's Makefile
(generated/<name>/firmware/<name>.X/): well-formed XML for the
PIC32MX250F128B with XC32 at the budget's -O1, every listed file present,
every source the Makefile's `pic32` target compiles listed, byte-identical
and free of absolute paths; the configuration bits set once, in the source."""
from __future__ import annotations

import inspect
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from codegen.spec import escape
from codegen.targets.pic32 import mplabx
from codegen.model.gen_model import build_model
from codegen.output.render import render
from codegen.model.spec_load import load_spec

from .conftest import ROOT, RUNTIME, require_tool
from .deadline import RUN

SPECS = sorted((ROOT / "spec").glob("*.yaml"))


def _project(name: str) -> tuple[Path, ET.Element, ET.Element]:
    proj = ROOT / "generated" / name / "firmware" / f"{name}.X"
    return (proj, ET.parse(proj / "nbproject" / "project.xml").getroot(),
            ET.parse(proj / "nbproject" / "configurations.xml").getroot())


def _make_var(fw: Path, var: str) -> list[str]:
    require_tool("make")
    res = subprocess.run(["make", "-s", "-C", str(fw), "--eval", f"print-var: ; @echo $({var})", "print-var"],
                         capture_output=True, text=True, timeout=RUN)
    assert res.returncode == 0, res.stderr
    return res.stdout.split()


@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
def test_the_project_lists_what_the_makefile_builds(spec):
    name = build_model(load_spec(spec)[0], spec).name
    proj, project, conf = _project(name)
    ns = {"p": "http://www.netbeans.org/ns/project/1", "d": "http://www.netbeans.org/ns/make-project/1"}
    assert project.findtext("p:type", namespaces=ns) == "com.microchip.mplab.nbide.embedded.makeproject"
    assert project.findtext("p:configuration/d:data/d:name", namespaces=ns) == name

    tools = conf.find("confs/conf/toolsSet")
    assert tools.findtext("targetDevice") == "PIC32MX250F128B"
    assert tools.findtext("languageToolchain") == "XC32"
    c32 = {p.get("key"): p.get("value") for p in conf.findall("confs/conf/C32/property")}
    assert c32["optimization-level"] == "-O1"
    assert c32["additional-warnings"] == c32["make-warnings-into-errors"] == "true"

    items = [i.text for i in conf.iter("itemPath")]
    for item in items:
        assert not Path(item).is_absolute() and (proj / item).is_file(), item
    for inc in c32["extra-include-directories"].split(";"):
        assert (proj / inc).is_dir(), inc
    listed = {(proj / i).resolve() for i in items}

    fw = proj.parent
    built = {(fw / f).resolve() for f in _make_var(fw, "PIC32_SRC")}
    assert built and built <= listed, sorted(map(str, built - listed))
    listed_c = {p for p in listed if p.suffix == ".c"}
    assert listed_c == built, "the project compiles exactly the Makefile's pic32 sources"

    # the Makefile's pic32 flags are the project's
    flags = _make_var(fw, "PIC32_CFLAGS")
    assert "-mprocessor=32MX250F128B" in flags and mplabx.OPTIMIZATION in flags
    assert all(f"-D{d}" in flags for d in c32["preprocessor-macros"].split(";"))


def test_the_optimisation_is_the_budgets():
    from codegen.drivers.pic32.budget.measure import run_budget

    assert mplabx.OPTIMIZATION == inspect.signature(run_budget).parameters["opts"].default[0] == "-O1"


@pytest.mark.parametrize("spec", SPECS[:1], ids=[s.stem for s in SPECS[:1]])
def test_byte_identical_and_relative(spec, tmp_path):
    m = build_model(load_spec(spec)[0], spec)
    a, b = render(m), render(build_model(load_spec(spec)[0], spec))
    proj = {k: v for k, v in a.items() if f"/{m.name}.X/" in k}
    assert sorted(proj) == [f"firmware/{m.name}.X/{f}" for f in
                            ("Makefile", "nbproject/configurations.xml", "nbproject/project.xml")]
    assert all(a[k] == b[k] for k in proj)
    for text in proj.values():
        assert str(ROOT) not in text and "/home/" not in text and not re.search(r"\d{4}-\d\d-\d\d", text)
        assert text.isascii()
    # output outside the project: it carries its own firmware_runtime/ (codegen/spec/runtime_files.py),
    # which the project names relatively
    out = tmp_path / "deep" / "out"
    files = render(m, out, ROOT)
    conf = ET.fromstring(files[f"firmware/{m.name}.X/nbproject/configurations.xml"])
    items = [i.text for i in conf.iter("itemPath") if "firmware_runtime" in i.text]
    assert items
    for item in items:
        assert not Path(item).is_absolute()
        rel = (out / "firmware" / f"{m.name}.X" / item).resolve().relative_to(out.resolve()).as_posix()
        folder = Path(item).parent.name  # core/ or pic32/
        assert rel in files and files[rel].endswith((RUNTIME / folder / Path(item).name).read_text())


def test_configuration_bits_are_set_once_in_the_source():
    sources = [p for p in RUNTIME.rglob("*") if p.suffix in (".c", ".h")]
    sources += [p for p in (ROOT / "generated").rglob("*") if p.suffix in (".c", ".h")]
    sources += [p for p in (ROOT / "codegen" / "templates").rglob("*.j2")]
    where = [p for p in sources if "#pragma config" in p.read_text(encoding="utf-8", errors="replace")]
    assert where == [RUNTIME / "pic32" / "pic32_main.c"]
    text = (RUNTIME / "pic32" / "pic32_main.c").read_text()
    bits = dict(re.findall(r"(\w+) = (\w+)", " ".join(re.findall(r"#pragma config (.*)", text))))
    want = {"FNOSC": "FRCPLL", "FPLLIDIV": "DIV_2", "FPLLMUL": "MUL_20", "FPLLODIV": "DIV_2",
            "FPBDIV": "DIV_1", "FWDTEN": "OFF", "JTAGEN": "OFF"}
    assert {k: bits.get(k) for k in want} == want
    # 8 MHz FRC / 2 x 20 / 2 = the 40 MHz board_pins.h assumes; FPBDIV 1: PBCLK = SYSCLK
    pins = (RUNTIME / "pic32" / "board_pins.h").read_text()
    assert "#define BOARD_SYSCLK_HZ 40000000u" in pins and "#define BOARD_PBCLK_HZ BOARD_SYSCLK_HZ" in pins
    assert 8_000_000 // 2 * 20 // 2 == 40_000_000


def test_regenerating_keeps_what_mplabx_wrote(tmp_path):
    from codegen.output.pipeline import write_tree

    m = build_model(*[load_spec(SPECS[0])[0], SPECS[0]])
    files = render(m, tmp_path)
    write_tree(files, tmp_path)
    proj = tmp_path / "firmware" / f"{m.name}.X"
    ide = [proj / "nbproject" / "private" / "configurations.xml", proj / "dist" / "default" / "production" / "x.hex",
           proj / "nbproject" / "Makefile-default.mk"]
    for p in ide:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("ide")
    assert write_tree(files, tmp_path) == []  # nothing changed: nothing rewritten
    changed = dict(files, **{"firmware/boids_config.h": files["firmware/boids_config.h"] + "\n"})
    assert write_tree(changed, tmp_path) == ["firmware/boids_config.h"]
    assert all(p.read_text() == "ide" for p in ide)
    assert (proj / "nbproject" / "project.xml").read_text() == files[f"firmware/{m.name}.X/nbproject/project.xml"]


@pytest.mark.parametrize("text", ['a"b', "<x>&y", "it's", "caf\u00e9 \U0001f426", "--> <!--"])
def test_xml_escaping(text):
    attr = ET.fromstring(f'<a v="{escape.xml_text(text)}">{escape.xml_text(text)}</a>')
    assert attr.get("v") == text and attr.text == text
    comment = escape.xml_comment(text)
    assert "--" not in comment and not comment.endswith("-") and comment.isascii()
    ET.fromstring(f"<a><!-- {comment} --></a>")
    with pytest.raises(escape.UnsafePath):
        escape.xml_text("a\x01b")
