/* split_rp2040.h - core 1 for the split flock update (split_rp2040.c). */
#ifndef BOIDSGEN_SPLIT_RP2040_H
#define BOIDSGEN_SPLIT_RP2040_H

/* Launch core 1 into its wait for parts (the board image, once); where none
 * answers within a bound (rp2040js), core 0 runs both parts. */
void rp2040_split_start(void);

#endif
