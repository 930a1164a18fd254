"""The PIC32 target's drivers: its build part, the m4k compile check and the frame budget."""
