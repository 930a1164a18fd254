"""The RP2350 target (Raspberry Pi Pico 2, Arm cores): the RP2040's pico-sdk project built for
PICO_BOARD=pico2 (build.py), and its flock code checked on QEMU's Cortex-M33 (qemu.py)."""
