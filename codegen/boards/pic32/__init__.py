"""The PIC32MX250F128B's facts: its pins and PPS (pins), its clocks and baud rates (clock), the
ILI9340 panel and the world's scale on it (panel)."""
