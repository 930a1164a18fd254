#!/usr/bin/env bash
# Fuzz the serial command parser: build tests/c/fuzz_serial.c (the checks;
# tests/c/fuzz_lines.c, the watch stream's line shapes; tests/c/fuzz_inputs.c,
# the inputs) with the real
# generated firmware, runtime and host platform layer (the generated
# Makefile's HOST_SRC, with our driver in place of host_main.c) under
# AddressSanitizer + UBSan, then feed it LINES random and mutated command
# lines (default 1,000,000: about 11 s here; the suite runs the full default,
# tests/test_fuzz_serial.py).
#
#   tools/fuzz_serial.sh [LINES] [SEED]
#   FUZZ_SAMPLES=FILE: also write up to 20 accepted lines of each kind (for the client's parsers)
#
# Prints the figures (inputs, lines checked, crashes, time); exits non-zero on
# any crash, sanitizer report or broken invariant.
set -euo pipefail
cd "$(dirname "$0")/.."
LINES=${1:-1000000}
SEED=${2:-1}
SPEC_NAME=${SPEC_NAME:-boids}
ROOT=$PWD
GEN=$ROOT/generated/$SPEC_NAME/firmware
OUT=$ROOT/build/$SPEC_NAME/fuzz
mkdir -p "$OUT"
[ -f "$GEN/Makefile" ] || boidsgen generate >/dev/null
src=()
for f in $(make -C "$GEN" -s --no-print-directory RUNTIME="$ROOT/firmware_runtime" \
        --eval='fuzz-print-host-src: ; @echo $(HOST_SRC)' fuzz-print-host-src); do
    case "$f" in
        */host_main.c) ;;
        */cmd_core.c) src+=("${FUZZ_CMD_CORE_C:-$f}") ;;  # the tests swap in a broken copy
        */watch.c) src+=("${FUZZ_WATCH_C:-$f}") ;;
        /*) src+=("$f") ;;
        *) src+=("$GEN/$f") ;;
    esac
done
${CC:-gcc} -std=c99 -Wall -Wextra -Wpedantic -Werror -O1 -g \
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
    -I"$GEN" -I"$ROOT/firmware_runtime/core" -I"$ROOT/firmware_runtime/host" "${src[@]}" tests/c/fuzz_serial.c tests/c/fuzz_lines.c tests/c/fuzz_inputs.c -o "$OUT/fuzz_serial"
start=$(date +%s%N)
ASAN_OPTIONS=abort_on_error=1:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$OUT/fuzz_serial" "$LINES" "$SEED"
end=$(date +%s%N)
echo "fuzz_serial.sh: $LINES inputs (seed $SEED), crashes 0, sanitizer reports 0, wall time $(( (end - start) / 1000000 )) ms"
