"""The RP2040 target's drivers: the frame budget by execution in rp2040js and its profile."""
