"""The world and the panel (codegen/boards/pic32/panel.py, firmware_runtime/core/panel_view.h):
a world larger than the ILI9340's 320x240 is drawn scaled to fit, positions
only, and the host's pictures are the panel's size for every spec."""
from __future__ import annotations

import random
import subprocess

import pytest

from codegen.boards.pic32.panel import PanelView, panel_view
from codegen.commands.parity import prepare
from codegen.model.spec_load import load_spec

from .conftest import ROOT, RUNTIME_INCLUDES, compile_c, require_tool
from .deadline import RUN
from .test_host_image import decode_png

SPECS = sorted((ROOT / "spec").glob("*.yaml"))


def test_the_lab_panel_and_the_vga_worlds():
    lab = panel_view(320, 240, 0x28)
    assert (lab.width, lab.height, lab.scaled) == (320, 240, False)
    vga = panel_view(640, 480, 0x28)
    assert (vga.width, vga.height, vga.mul, vga.shift) == (320, 240, 1, 1)  # half scale: one shift
    assert not panel_view(200, 100, 0x28).scaled  # a small world stays 1:1 in the corner
    portrait = panel_view(320, 240, 0x48)  # no MV: the glass upright, 240 wide
    assert (portrait.width, portrait.height, portrait.mul, portrait.shift) == (240, 320, 3, 2)


def test_any_world_lands_inside_the_panel_at_nearly_the_best_ratio():
    rng = random.Random(14)
    for _ in range(2000):
        w, h = rng.randint(1, 4096), rng.randint(1, 4096)
        v = panel_view(w, h, 0x28)
        assert 0 <= v.to_panel(w - 1) < v.width and 0 <= v.to_panel(h - 1) < v.height
        best = min(1, v.width / w, v.height / h)
        assert best - 1 / 4096 <= float(v.ratio) <= best
        assert not v.scaled or v.mul < 1 << 12  # the product stays below 2^28


@pytest.mark.parametrize("mul, shift", [(1, 0), (1, 1), (3, 2), (1875, 12)])
def test_the_firmware_scales_as_the_generator(tmp_path, mul, shift):
    src = tmp_path / "px.c"
    src.write_text('#include <stdio.h>\n#include <stdlib.h>\n#include "panel_view.h"\n'
                   "int main(int c, char **v) { int i; for (i = 1; i < c; i++) "
                   'printf("%d\\n", PANEL_PX((int32_t)strtol(v[i], 0, 10))); return 0; }\n')
    exe = compile_c([src], tmp_path / "px", defines={"FX_FRAC_BITS": 15, "BOIDS_VIEW_MUL": mul,
                                                     "BOIDS_VIEW_SHIFT": shift},
                    includes=[ROOT / "tests" / "c" / "draw_cfg", *RUNTIME_INCLUDES])
    raws = [0, 1, -1, 32767, 32768, -32768, -32769, 639 << 15, (639 << 15) + 32767, -(65536 << 15), 2**31 - 1]
    out = subprocess.run([str(exe), *map(str, raws)], capture_output=True, text=True, check=True, timeout=RUN)
    v = PanelView(320, 240, mul, shift)
    assert [int(x) for x in out.stdout.split()] == [v.to_panel(r >> 15) for r in raws]


def positions(trace: str, frame: int, kind: str):
    """(x, y) world pixels of every `kind` in the trace's frame."""
    fields = next(line.split()[3].split(",") for line in trace.splitlines() if line.startswith(f"# kind: {kind} "))
    ix, iy = fields.index("x"), fields.index("y")
    out = []
    for line in trace.splitlines():
        parts = line.split(",")
        if not line.startswith("#") and len(parts) > 3 and parts[0] == str(frame) and parts[2] == kind:
            out.append((int(parts[3 + ix]), int(parts[3 + iy])))
    return out


@pytest.mark.parametrize("spec", ["scouts_vga", "predator_vga"])
def test_a_vga_world_is_drawn_whole_at_half_scale(spec, tmp_path):
    """Every boid at (x/2, y/2) of a 320x240 picture, lit in the spec's colour;
    nothing else in that colour; boids in every quadrant, among them boids
    that a 1:1 drawing would have put off the panel."""
    require_tool("gcc")
    require_tool("make")
    m, exe, _ = prepare(str(ROOT / "spec" / f"{spec}.yaml"))
    png = tmp_path / "frame.png"
    res = subprocess.run([str(exe), "--frames", "300", "--png", str(png), "--trace", "-"], capture_output=True,
                         text=True, check=True, timeout=RUN)
    w, h, rgb_bytes = decode_png(png)
    rows = [rgb_bytes[3 * w * y:3 * w * (y + 1)] for y in range(h)]
    assert (w, h) == (320, 240)
    fb = m.frac_bits
    boids = [(x >> fb, y >> fb) for x, y in positions(res.stdout, 300, "boid")]
    assert len(boids) == m.spec.flock.size
    assert any(x >= 320 or y >= 240 for x, y in boids)  # off a 1:1 panel
    c = m.boid_rgb565  # as the PNG expands RGB565
    rgb = bytes([(c >> 11) * 255 // 31, ((c >> 5) & 63) * 255 // 63, (c & 31) * 255 // 31])
    lit = {(x, y) for y in range(h) for x in range(w) if rows[y][3 * x:3 * x + 3] == rgb}
    # predators: 3x3 red squares around their scaled positions, drawn over the boids
    preds = [((x >> fb) // 2, (y >> fb) // 2) for x, y in positions(res.stdout, 300, "predator")] \
        if "predator" in res.stdout.split("frame,index")[0] else []
    covered = {(px + dx, py + dy) for px, py in preds for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    for x, y in covered:
        if 0 <= x < w and 0 <= y < h:
            assert rows[y][3 * x:3 * x + 3] == b"\xff\x00\x00"
    want = {(x // 2, y // 2) for x, y in boids if 0 <= x < 640 and 0 <= y < 480} - covered
    assert len(want) > 0.9 * len(boids)
    assert lit == want
    assert {(x >= 160, y >= 120) for x, y in want} == {(a, b) for a in (False, True) for b in (False, True)}
    assert spec != "predator_vga" or preds


@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
def test_every_spec_draws_on_the_lab_panel(spec):
    """Committed specs need no panel key: the ILI9340 landscape, 1:1 or scaled."""
    s, _ = load_spec(str(spec))
    v = panel_view(s.display.width, s.display.height, s.board.tft.madctl)
    assert (v.width, v.height) == (320, 240)
    cfg = (ROOT / "generated" / s.name / "firmware" / "boids_config.h").read_text()
    assert f"#define BOIDS_PANEL_WIDTH 320\n#define BOIDS_PANEL_HEIGHT 240\n" in cfg
    assert f"#define BOIDS_VIEW_MUL {v.mul}\n#define BOIDS_VIEW_SHIFT {v.shift}\n" in cfg


def test_check_says_how_the_world_is_drawn(capsys):
    from codegen.commands.cli import main

    assert main(["check", str(ROOT / "spec" / "scouts_vga.yaml")]) == 0
    assert "display: world 640x480 on the ILI9340's 320x240 panel, scaled by 1/2\n" in capsys.readouterr().out
