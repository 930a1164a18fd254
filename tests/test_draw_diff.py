"""Drawing only what changed (issue 16, item 3): pixel boids as a pixel set
(firmware_runtime/core/draw.c, flock_draw.h) must leave on the panel exactly what
erasing every old pixel and drawing every new one leaves -- decoded by the
host's strict ILI9340 decoder, so the board's panel shows the same -- with
far fewer SPI bytes a frame."""
from __future__ import annotations

import re
import subprocess

import pytest

from codegen.drivers.pic32.budget.measure import build_host_driver, render_variant, spec_variant
from codegen.output.pipeline import checked_model

from .conftest import DEFAULT_SPEC, ROOT, RUNTIME, RUNTIME_INCLUDES, compile_c, require_tool
from .deadline import RUN

CFG = ROOT / "tests" / "c" / "draw_cfg"


@pytest.fixture(scope="module")
def pixset_driver(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pixset")
    return compile_c([ROOT / "tests" / "c" / "pixset_driver.c", RUNTIME / "core" / "draw.c", RUNTIME / "core" / "font5x7.c",
                      RUNTIME / "core" / "tft_ili9340.c", RUNTIME / "host" / "platform_host.c", RUNTIME / "host" / "host_ili9340.c",
                      RUNTIME / "host" / "host_image.c"], tmp / "pixset_driver", includes=[CFG, *RUNTIME_INCLUDES])


def run_pixset(exe, mode, frames, seed, out):
    res = subprocess.run([str(exe), mode, str(frames), str(seed), str(out)], capture_output=True, text=True,
                         check=True, timeout=RUN)
    return {k: int(v) for k, v in (line.split("=") for line in res.stdout.split())}


@pytest.mark.parametrize("frames, seed", [(1, 1), (2, 2), (9, 3), (40, 4), (101, 5)])
def test_a_pixel_set_leaves_the_picture_a_full_redraw_leaves(pixset_driver, tmp_path, frames, seed):
    """Random pixels moving (clusters, neighbours in a row, duplicates, off
    the panel), rectangles and text drawn over them, a cleared screen: the
    same picture after every frame, decoded without a protocol error, for
    fewer bytes."""
    diff = run_pixset(pixset_driver, "diff", frames, seed, tmp_path / "d.ppm")
    full = run_pixset(pixset_driver, "full", frames, seed, tmp_path / "f.ppm")
    assert diff["errors"] == full["errors"] == 0
    assert [diff[f"frame{f}"] for f in range(frames)] == [full[f"frame{f}"] for f in range(frames)]
    assert (tmp_path / "d.ppm").read_bytes() == (tmp_path / "f.ppm").read_bytes()
    assert diff["spi_bytes"] < full["spi_bytes"]


def build_budget_host(fw, out, full: bool):
    """codegen/drivers/pic32/budget/measure.py's warm-up / SPI-counting driver, the flock drawn by
    difference or (full) the whole-flock way."""
    return build_host_driver(fw, out, ("BOIDS_DRAW_FULL",) if full else ())


def test_a_frame_sends_fewer_spi_bytes(tmp_path):
    """The default flock warmed up, one frame at 100 and 222 boids: the whole
    flock costs up to 13 bytes a pixel (a lone pixel's CASET, PASET, RAMWR
    and colour; a half of the window equal to the last one is not sent);
    by difference, row by row, at most 10."""
    require_tool("gcc")
    spec = spec_variant(checked_model(DEFAULT_SPEC).spec, capacity=222)
    render_variant(spec, DEFAULT_SPEC, tmp_path / "g")
    fw = tmp_path / "g" / "firmware"
    full, diff = build_budget_host(fw, tmp_path / "full", True), build_budget_host(fw, tmp_path / "diff", False)
    for n in (100, 222):
        got = {}
        for name, exe in (("full", full), ("diff", diff)):
            out = subprocess.run([str(exe), str(n), "300", "3", str(tmp_path / f"s{n}.bin")], capture_output=True,
                                 text=True, check=True, timeout=RUN).stdout
            got[name] = {k: int(v) for k, v in re.findall(r"^(\w+)=(\d+)$", out, re.M)}
        pixels = got["full"]["pixels"]
        assert got["diff"]["pixels"] == pixels > 1.8 * n * 0.9  # nearly every boid on the panel, before and after
        assert 12 * pixels < got["full"]["spi_bytes"] <= 13 * pixels
        assert got["diff"]["spi_bytes"] <= 10 * pixels, (n, got)


@pytest.mark.parametrize("spec", ["boids", "predator_vga", "scouts_vga"])
def test_the_firmware_draws_the_full_redraws_picture(spec, tmp_path):
    """The generated firmware (pixel boids, predators drawn over them, the
    stats line over them once a second, a scaled world) frame by frame: its
    GIF and its last frame are those of the same firmware built with
    -DBOIDS_DRAW_FULL (erase everything before the step, draw after)."""
    require_tool("gcc")
    require_tool("make")
    path = ROOT / "spec" / f"{spec}.yaml"
    render_variant(checked_model(str(path)).spec, str(path), tmp_path / "g")
    fw = tmp_path / "g" / "firmware"
    shots = {}
    for name, flags in (("diff", "-O2"), ("full", "-O2 -DBOIDS_DRAW_FULL")):
        subprocess.run(["make", "-s", "-C", str(fw), "host", f"BUILD={tmp_path / name}", f"HOST_CFLAGS={flags}",
                        f"RUNTIME={RUNTIME}"], check=True, capture_output=True, timeout=RUN)
        gif, ppm = tmp_path / f"{name}.gif", tmp_path / f"{name}.ppm"
        subprocess.run([str(tmp_path / name / "boids_host"), "--frames", "150", "--gif", str(gif),
                        "--gif-frames", "150", "--screenshot", str(ppm)], check=True, capture_output=True,
                       timeout=RUN)
        shots[name] = (gif.read_bytes(), ppm.read_bytes())
    assert shots["diff"] == shots["full"]
