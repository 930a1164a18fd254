/* state_io.h - the simulation's state as the lockstep and the trace see it,
 * walked over the generated state table (boids_state_kinds):
 *
 *   digest  CRC-32 (ISO-HDLC: the CRC of zlib, PNG and Ethernet; reflected
 *           polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF) of
 *           the bytes, each value 32-bit little-endian:
 *             frame,
 *             then for every kind in table order: its count, then each
 *             element's fields in order,
 *             then the PRNG's state.
 *           pysim/digest.py computes the same with zlib.crc32.
 *   row     one trace row "F,I,KIND,V1,...,Vn" (the trace's row format). */
#ifndef BOIDSGEN_STATE_IO_H
#define BOIDSGEN_STATE_IO_H

#include <stddef.h>
#include <stdint.h>

#include "state_table.h"

uint32_t crc32_update(uint32_t crc, const unsigned char *p, size_t n); /* crc: 0 to start */
uint32_t state_digest(const void *flock, uint32_t frame, uint32_t rng_state);
/* The row of element i of kind k, NUL-terminated, without a newline; out
 * needs STATE_ROW_MAX bytes. Returns its length. */
#define STATE_ROW_MAX (40 + 12 * 16)
size_t state_row(char *out, const void *flock, const state_kind_t *k, uint32_t frame, int32_t i);

#endif
