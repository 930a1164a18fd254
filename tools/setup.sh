#!/usr/bin/env bash
# Set up a machine for boidsgen: the system packages the build and the tests
# use (installed with apt-get when missing, as root), then the Python package
# with its test extras. Safe to run again; installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# gcc, make: the host firmware and the parity tests
# (not gcc-multilib: Debian makes it conflict with the cross compilers)
# xvfb, xauth, libtk8.6: the GUI and its tests on a private X display
# gcc-mipsel-linux-gnu: make m4k-check (the PIC32 compile/link check)
# libc6-dev-mipsel-cross, qemu-user: the firmware as a MIPS Linux program under
#   qemu-mipsel (make host-mipsel; boidsgen budget)
PACKAGES=(gcc make xvfb xauth libtk8.6 gcc-mipsel-linux-gnu libc6-dev-mipsel-cross qemu-user)

missing=()
for p in "${PACKAGES[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "setup: installing ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "setup: please install these packages first: ${missing[*]}" >&2
        exit 1
    fi
fi

python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore -e ".[test]"
echo "setup: ready ($(boidsgen --version))"
