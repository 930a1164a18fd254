/* host_m4k_clock.h - the host's modelled M4K clock (boids_host --m4k-cost;
 * host only: the board's frames take the time they take). */
#ifndef BOIDSGEN_HOST_M4K_CLOCK_H
#define BOIDSGEN_HOST_M4K_CLOCK_H

#include <stddef.h>
#include <stdint.h>

/* Load a cost table written by `boidsgen budget --cost-table` for this
 * build (its spec_hash and capacity must be this build's, one row for every
 * flock size from 1 to the capacity); from then on, in virtual time, every
 * frame advances the clock by host_m4k_frame_ns(its flock size) inside the
 * frame's timing (plat_frame_cost). Returns 0, or -1 with the reason in err. */
int host_m4k_cost_load(const char *path, char *err, size_t errlen);
uint64_t host_m4k_frame_ns(int32_t boids); /* 0 without a table */

#endif
