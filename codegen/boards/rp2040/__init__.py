"""The Raspberry Pi Pico's facts: the GPIOs on its header (pins)."""
