"""The PIC32MX250 target: the C firmware and what only this chip and its
compiler (GCC -O1, the M4K core) need."""
