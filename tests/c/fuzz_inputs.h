/* fuzz_inputs.h - the fuzz driver's inputs (see fuzz_inputs.c). */
#ifndef BOIDSGEN_FUZZ_INPUTS_H
#define BOIDSGEN_FUZZ_INPUTS_H

#include <stddef.h>
#include <stdint.h>

#define FUZZ_MAX_INPUT 400

void fuzz_seed(uint64_t seed); /* 0 is taken as 1 */
uint32_t fuzz_below(uint32_t n); /* uniform in [0, n) (0 when n is 0) */
/* One input into b (at least FUZZ_MAX_INPUT bytes); its length. */
size_t fuzz_make_input(unsigned char *b);

#endif
