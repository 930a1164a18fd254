/* fuzz_lines.h - the lines a board may send at any time (see fuzz_lines.c). */
#ifndef BOIDSGEN_FUZZ_LINES_H
#define BOIDSGEN_FUZZ_LINES_H

#include <stddef.h>

/* A line a client routes apart from replies (`fr `, `ev `, `tm `)? */
int fuzz_stream_kind(const char *s, size_t n);
/* Does it match one of the stream's shapes exactly? */
int fuzz_stream_shape(const char *s, size_t n);

/* FUZZ_SAMPLES: write up to 20 lines of each kind passed to fuzz_sample. */
int fuzz_samples_open(const char *path); /* 1 on success */
void fuzz_sample(const char *l, size_t n);
int fuzz_samples_close(void); /* 0 on success */

#endif
