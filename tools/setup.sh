#!/usr/bin/env bash
# Set up a machine for boidsgen: the system packages the build and the tests
# use (installed with apt-get when missing, as root), then a project
# virtualenv `.venv/` holding boidsgen and its test extras. Safe to run again;
# installs only what is missing.
#
# Why a virtualenv: Debian 12's and Ubuntu 24.04's own Python refuse
# `pip install` outside one (PEP 668, "externally-managed-environment").
# PYTHON=/path/to/python3 picks the interpreter the virtualenv is made from
# (default: the first python3 on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}

# gcc, make: the host firmware and the parity tests
# (not gcc-multilib: Debian makes it conflict with the cross compilers)
# xvfb, xauth, libtk8.6: the GUI and its tests on a private X display
# python3-venv, python3-tk: a virtualenv and tkinter for the distribution's
#   own Python (a stock Debian has neither)
# gcc-mipsel-linux-gnu: make m4k-check (the PIC32 compile/link check)
# libc6-dev-mipsel-cross, qemu-user: the firmware as a MIPS Linux program under
#   qemu-mipsel (make host-mipsel; boidsgen budget)
# gcc-arm-none-eabi, libnewlib-arm-none-eabi, libstdc++-arm-none-eabi-newlib,
#   cmake, ninja-build, g++: the RP2040 firmware (the pico-sdk links with
#   arm-none-eabi-g++; g++ builds its pioasm); nodejs: rp2040js, the emulator
#   the RP2040 target is checked in (package.json; npm comes with nodejs where
#   it is Node's own package, else install Debian's npm)
# qemu-system-arm: the RP2350 target's flock code on a Cortex-M33 (mps2-an505;
#   boidsgen parity --target rp2350)
# ccache: a spec's builds take the objects that do not change with it (the
#   runtime's, the pico-sdk's, pioasm's) from the last build instead of compiling
#   them again (codegen/targets/host/compiler_cache.py)
PACKAGES=(gcc make xvfb xauth libtk8.6 python3-venv python3-tk
          gcc-mipsel-linux-gnu libc6-dev-mipsel-cross qemu-user
          gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake ninja-build g++
          nodejs qemu-system-arm ccache)
APT_LOCK_WAIT=600  # seconds to wait for another apt (unattended-upgrades) to finish

missing=()
for p in "${PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "setup: installing ${missing[*]} (waiting up to ${APT_LOCK_WAIT} s if another apt holds its lock)"
        apt=(apt-get -o "DPkg::Lock::Timeout=${APT_LOCK_WAIT}")
        "${apt[@]}" update -qq
        DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "setup: please install these packages first (sudo apt-get install ...): ${missing[*]}" >&2
        exit 1
    fi
fi

# The virtualenv: made again if it is missing or its interpreter is gone.
if ! .venv/bin/python -c "" 2>/dev/null; then
    command -v "$PY" >/dev/null || { echo "setup: no '$PY' on PATH (Python 3.10 or later is needed)" >&2; exit 1; }
    rm -rf .venv
    "$PY" -m venv .venv || { echo "setup: '$PY -m venv' failed: install python3-venv" >&2; exit 1; }
fi
.venv/bin/python -c "import sys; sys.exit(sys.version_info < (3, 10))" \
    || { echo "setup: $(.venv/bin/python --version) is too old: Python 3.10 or later is needed" >&2; exit 1; }
.venv/bin/python -c "import tkinter" 2>/dev/null \
    || echo "setup: warning: this Python has no tkinter: the GUI and its tests need it (Debian/Ubuntu: python3-tk)" >&2

# rp2040js, pinned by package.json and package-lock.json, into node_modules/
command -v npm >/dev/null || { echo "setup: no npm: install it (sudo apt-get install npm)" >&2; exit 1; }
npm ci --no-audit --no-fund --loglevel=error >/dev/null || { echo "setup: 'npm ci' failed (rp2040js from the npm registry)" >&2; exit 1; }

# --no-compile: Python compiles each module the first time it is imported instead of pip compiling
# every module of every package now (numba, matplotlib, dask...): about 12 s less here, and a
# first run about 2 s longer
.venv/bin/python -m pip install -q --disable-pip-version-check --no-compile -e ".[test]"
echo "setup: ready ($(.venv/bin/boidsgen --version) in .venv/; 'source .venv/bin/activate' puts boidsgen on PATH)"
