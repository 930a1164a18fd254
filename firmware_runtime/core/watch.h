/* watch.h - the board's side of the lockstep (`boidsgen watch`).
 *
 * While on, the animation thread sends `fr FRAME DIGEST` every EVERY frames
 * (state_io.h: the digest), and every change to the simulation is announced,
 * in wire order, by an event line stamped with the first frame it takes
 * effect in (the frame a reply's `frame=F` names too):
 *
 *   ev set NAME RAW frame=F            a parameter (set, s, the course's controls, $)
 *   ev boids N frame=F cause=C         the flock grew (spawning from the PRNG) or shrank
 *                                      to N; C: command, spawn (the timing thread),
 *                                      adaptive (adaptive spawn)
 *   ev reset SEED N frame=0            reseeded and restarted (then `fr 0 DIGEST`)
 *   ev state KIND frame=F n=N V,V,.. ...  the whole of an entity kind (obstacles, target)
 *   ev pause frame=F / ev resume frame=F
 *
 * A mirror that applies each event to its own simulation when it reaches
 * frame F - 1 (its state then is the board's when the event happened) and
 * steps to each `fr` frame computes the same digests, whatever the timing. */
#ifndef BOIDSGEN_WATCH_H
#define BOIDSGEN_WATCH_H

#include <stdint.h>

#include "params.h"

int watch_is_on(void);
uint32_t watch_every(void);
void watch_set(int on, uint32_t every);
/* After frame `frame`'s update: `fr` when on and due. */
void watch_frame(uint32_t frame);
void watch_frame_now(uint32_t frame); /* `fr` whether due or not (after a reset) */
void watch_ev_set(const bp_param_t *p);
void watch_ev_boids(int32_t n, const char *cause);
void watch_ev_reset(uint32_t seed, int32_t n);
void watch_ev_state(const char *kind);
void watch_ev_pause(int paused);

#endif
