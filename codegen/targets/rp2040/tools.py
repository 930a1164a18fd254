"""What RP2040 commands need on the machine, found or named in one line:
the pico-sdk (PICO_SDK_PATH, as every Pico project finds it), the ARM
toolchain, cmake and ninja (tools/setup.sh installs them), Node and rp2040js
(the tool's own pinned copy, `npm ci` in the clone, or the package folder
$BOIDSGEN_RP2040JS names; never a node_modules/ of the working folder or the
project)."""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from codegen.spec.runtime_files import TOOL_ROOT
from codegen.targets.host.make_run import BuildError
from pysim.bounded_read import UnreadableFile, read_text_bounded

RUNNER = Path(__file__).resolve().parent / "runner" / "run.mjs"
RP2040JS_ENTRY = Path("dist") / "esm" / "index.js"  # in the rp2040js package folder
RP2040JS_VERSION = "1.4.1"  # as package.json and package-lock.json pin it (tests/test_hostile_rp2040_tools.py)
RP2040JS_ENV = "BOIDSGEN_RP2040JS"  # names another rp2040js package folder (of the pinned version)
SETUP = "tools/setup.sh installs it (apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi " \
        "libstdc++-arm-none-eabi-newlib cmake ninja-build g++)"


@dataclass(frozen=True)
class Toolchain:
    sdk: Path


def sdk_path() -> Path:
    sdk = os.environ.get("PICO_SDK_PATH", "")
    if not sdk:
        raise BuildError("RP2040: PICO_SDK_PATH is not set: clone the Raspberry Pi pico-sdk (2.x) and "
                         "export PICO_SDK_PATH=/its/folder")
    p = Path(sdk).expanduser()
    if not (p / "pico_sdk_init.cmake").is_file():
        raise BuildError(f"RP2040: PICO_SDK_PATH={sdk} holds no pico-sdk (no pico_sdk_init.cmake there)")
    return p.resolve()


def build_tools() -> Toolchain:
    """The SDK and the programs a build runs; BuildError naming the first missing."""
    sdk = sdk_path()
    for prog in ("arm-none-eabi-gcc", "arm-none-eabi-g++", "cmake", "ninja", "g++"):
        if shutil.which(prog) is None:
            raise BuildError(f"RP2040: `{prog}` is not on PATH: {SETUP}")
    return Toolchain(sdk)


def _package_version(pkg: Path) -> str | None:
    """rp2040js's version from its package.json (read as untrusted: bounded, JSON, a string), or None."""
    try:
        data = json.loads(read_text_bounded(pkg / "package.json", 64 * 1024))
    except (OSError, UnreadableFile, ValueError):
        return None
    version = data.get("version") if isinstance(data, dict) and data.get("name") == "rp2040js" else None
    return version if isinstance(version, str) else None


def _checked(pkg: Path, where: str) -> Path:
    """rp2040js's entry module in the package folder pkg, if it is the pinned version; BuildError otherwise."""
    entry = pkg / RP2040JS_ENTRY
    version = _package_version(pkg)
    if version is None or not entry.is_file():
        raise BuildError(f"RP2040: {where}: {pkg} is not an rp2040js package (no rp2040js package.json and "
                         f"{RP2040JS_ENTRY.as_posix()} there): {install_hint()}")
    if version != RP2040JS_VERSION:
        shown = version if version.isprintable() and len(version) <= 40 else repr(version[:40])
        raise BuildError(f"RP2040: {where}: {pkg} holds rp2040js {shown}, not the pinned {RP2040JS_VERSION} "
                         f"(boidsgen's bit-exact tests are checked against that one): {install_hint()}")
    return entry.resolve()


def install_hint() -> str:
    """How to get the pinned rp2040js, for a clone (`npm ci` in it) or an installed tool (a folder named)."""
    if (TOOL_ROOT / "package.json").is_file():
        return (f"run `npm ci` in {TOOL_ROOT} (its package.json pins rp2040js {RP2040JS_VERSION}), or set "
                f"{RP2040JS_ENV} to the folder of an rp2040js {RP2040JS_VERSION} package")
    return (f"run `npm install rp2040js@{RP2040JS_VERSION}` in a folder of your own and set "
            f"{RP2040JS_ENV}=that/folder/node_modules/rp2040js (docs/flashing.md)")


def emulator() -> tuple[str, Path]:
    """(node, rp2040js's entry module); BuildError naming what is missing.

    The JavaScript boidsgen runs comes from one of two places only: the folder
    $BOIDSGEN_RP2040JS names (the rp2040js package folder itself), or the
    tool's own pinned copy (`npm ci` in the clone: TOOL_ROOT/node_modules,
    pinned by package.json and package-lock.json). Never the folder one
    stands in or the project's: a node_modules/ there is someone else's code.
    Either must be the pinned version (its package.json's "version")."""
    node = shutil.which("node")
    if node is None:
        raise BuildError("RP2040: `node` is not on PATH: install Node.js 18 or later (apt-get install nodejs), "
                         f"then rp2040js: {install_hint()} (tools/setup.sh does both in a clone)")
    named = os.environ.get(RP2040JS_ENV)
    if named:
        return node, _checked(Path(named).expanduser().absolute(), RP2040JS_ENV)
    own = TOOL_ROOT / "node_modules" / "rp2040js"
    if own.is_dir():
        return node, _checked(own, "the tool's own copy")
    raise BuildError(f"RP2040: rp2040js is not installed (not in {own}, and {RP2040JS_ENV} is not set): "
                     f"{install_hint()}")
