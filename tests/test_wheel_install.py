"""The tool installs anywhere (issue 34): a wheel built from the project and
installed into a fresh virtualenv outside the repository runs on a spec in
an empty folder: build (host binary, M4K check), parity, sim, generate
--check, watch, budget, experiment and boids-gui.

The fresh virtualenv gets boidsgen from the wheel only. Its dependencies
(numba, pydantic, ...) are the test environment's, seen through a .pth file
that names that environment's site-packages: a plain path line adds the
folder but does not run the .pth files inside it, so the editable install's
finder (which would import codegen from the work tree) stays out; the test
checks which codegen the new environment imports."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from .conftest import ROOT, require_tool
from .deadline import RUN
from .test_quick_start import fresh_copy
from .test_serial_pty import Host

# Each step is bounded by RUN; all of them took 25-35 s here, numba's cache cold
# (not `slow`: a packaging slip, e.g. a new subfolder left out of the wheel, shows in every run).
pytestmark = [pytest.mark.timeout(8 * RUN), pytest.mark.slow]  # the quick tier (-m "not slow") leaves it out: a wheel, a virtualenv and an install


def _run(cmd: list, cwd: Path, env: dict | None = None) -> str:
    res = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=RUN)
    assert res.returncode == 0, f"{' '.join(map(str, cmd))} (in {cwd}) failed:\n{res.stdout}{res.stderr}"
    return res.stdout


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    """A fresh virtualenv outside the repository with the project's wheel installed."""
    for tool in ("git", "gcc", "make", "mipsel-linux-gnu-gcc"):
        require_tool(tool)
    tmp = tmp_path_factory.mktemp("wheel")
    src = fresh_copy(tmp / "src")  # a copy: the build writes build/ and *.egg-info into its source
    _run([sys.executable, "-m", "pip", "wheel", src, "--no-deps", "-w", tmp / "dist"], tmp)
    wheel, = (tmp / "dist").glob("boidsgen-*.whl")
    env = tmp / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", env], tmp)
    site = Path(_run([env / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     tmp).strip())
    ours = sysconfig.get_paths()
    (site / "_boidsgen_test_deps.pth").write_text("".join(f"{p}\n" for p in {ours["purelib"], ours["platlib"]}))
    _run([sys.executable, "-m", "pip", "--python", env / "bin" / "python", "install", "--no-deps", "-q", wheel], tmp)
    return env


def _clean_env(venv: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "RUNTIME")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def test_the_wheel_is_what_runs(venv, tmp_path):
    where = _run([venv / "bin" / "python", "-c", "import codegen, pysim; print(codegen.__file__); print(pysim.__file__)"],
                 tmp_path, _clean_env(venv)).split()
    assert all(Path(p).is_relative_to(venv) for p in where), where
    # the whole runtime ships, subfolders included
    site = Path(where[0]).parent.parent
    shipped = sorted(p.relative_to(site / "firmware_runtime").as_posix()
                     for p in (site / "firmware_runtime").rglob("*") if p.is_file())
    tracked = subprocess.run(["git", "ls-files", "firmware_runtime"], cwd=ROOT, capture_output=True, text=True,
                             check=True, timeout=60).stdout.split()
    assert shipped == sorted(t[len("firmware_runtime/"):] for t in tracked if (ROOT / t).is_file())


def test_the_installed_tool_finds_a_clones_output_up_to_date(venv):
    """Committed generated/ is byte-identical whoever generates it from wherever:
    the wheel's tool on the copy of this repository it was built from."""
    src = venv.parent / "src"
    specs = sorted(str(p) for p in (src / "spec").glob("*.yaml"))
    check_all = ("import sys; from codegen.commands.cli import main; "
                 "sys.exit(max(main(['generate', s, '--check']) for s in sys.argv[1:]))")  # one start, not 8
    said = _run([venv / "bin" / "python", "-c", check_all, *specs], src, _clean_env(venv))
    assert specs and said.count("up to date") == len(specs), said


def test_every_command_runs_on_a_spec_in_an_empty_folder(venv, tmp_path):
    require_tool("qemu-mipsel")  # budget
    env, tool = _clean_env(venv), venv / "bin" / "boidsgen"
    work = tmp_path / "empty folder"
    work.mkdir()
    (work / "boids.yaml").write_text((ROOT / "spec" / "boids.yaml").read_text())
    said = _run([tool, "build", "boids.yaml"], work, env)
    assert (work / "build" / "boids" / "boids_host").is_file() and (work / "build" / "boids" / "frame.png").is_file()
    assert "PIC32 compile check (mipsel-linux-gnu-gcc -march=m4k): flash" in said
    said = _run([tool, "parity", "boids.yaml", "--frames", "300"], work, env)
    assert re.search(r"parity: 300 frames x \d+ boids bit-exact", said), said
    _run([tool, "sim", "boids.yaml", "--frames", "60", "--trace", "sim.trace"], work, env)
    assert (work / "sim.trace").stat().st_size > 0
    assert "up to date" in _run([tool, "generate", "boids.yaml", "--check"], work, env)
    host = Host(work / "build" / "boids" / "boids_host")  # watch: the lockstep against the host on a pty
    try:
        said = _run([tool, "watch", "--spec", "boids.yaml", "--frames", "60", host.path], work, env)
    finally:
        host.stop()
    assert re.search(r"^watch: 60 frames in step", said, re.M), said
    # the budget's drivers and the experiment's model come from the package too
    said = _run([tool, "budget", "boids.yaml", "--boids", "100", "--variant", "spec", "--frames", "300", "--seeds", "1"], work, env)
    assert re.search(r"^\| brute \(sequential\) \| 100 \| [\d,]+ \|", said, re.M), said
    (work / "tiny.yaml").write_text("name: tiny\nspec: boids.yaml\nseed: 7\ntrials: 2\nframes: 40\nwarmup: 10\n"
                                    "sample_every: 10\nboids: 20\nvary: {matching_factor: [0.01, 0.05]}\n"
                                    "metrics: [polarisation]\n")
    _run([tool, "experiment", "tiny.yaml", "--workers", "0"], work, env)
    assert (work / "build" / "experiments" / "tiny" / "summary.md").is_file()
    # the generated folder names no path outside the project, the tool's least of all
    out = work / "generated" / "boids"
    fw = out / "firmware"
    runtime = re.search(r"^RUNTIME \?= (\S+)$", (fw / "Makefile").read_text(), re.M)[1]
    paths = [runtime] + [i.text for i in ET.parse(fw / "boids.X" / "nbproject" / "configurations.xml").iter("itemPath")]
    for p in paths:
        assert not Path(p).is_absolute() and "$" not in p, p
    assert (fw / runtime).resolve().is_relative_to(work.resolve()) and (fw / runtime / "core" / "fixed.h").is_file()
    for p in out.rglob("*"):
        if p.is_file() and "__pycache__" not in p.parts:
            text = p.read_text(encoding="utf-8")
            assert str(venv) not in text and "site-packages" not in text and str(ROOT) not in text, p


def test_the_gui_loads_a_spec_in_an_empty_folder(venv, tmp_path):
    """boids-gui from the wheel on a spec never generated: it renders the model
    itself (templates from the package) and runs a second of frames."""
    require_tool("Xvfb")
    from pysim.gui.xvfb import Xvfb

    (tmp_path / "boids.yaml").write_text((ROOT / "spec" / "boids.yaml").read_text())
    with Xvfb() as x:
        env = dict(_clean_env(venv), DISPLAY=x.display)
        said = _run([venv / "bin" / "boids-gui", "boids.yaml", "--bench", "1"], tmp_path, env)
    assert re.search(r"^bench: 100 boids, .* fps", said, re.M), said
