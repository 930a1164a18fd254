/* state_io.c - see state_io.h. */
#include <string.h>

#include "boids_flock.h"
#include "fxdecimal.h"
#include "state_io.h"

/* CRC-32 a nibble at a time: a 64-byte table instead of 1 KB (flash and
 * RAM are what the PIC32 is short of, not cycles: about ten instructions per
 * byte, 16 bytes per boid). */
static const uint32_t crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu, 0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
};

uint32_t crc32_update(uint32_t crc, const unsigned char *p, size_t n)
{
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        crc = (crc >> 4) ^ crc_nibble[crc & 0xFu];
        crc = (crc >> 4) ^ crc_nibble[crc & 0xFu];
    }
    return ~crc;
}

/* A 32-bit value's four little-endian bytes at once: the reflected CRC
 * takes a byte's low bit first, so XOR-ing the whole word into the register
 * and shifting it out a nibble at a time equals four byte steps. On the
 * little-endian M4K this is the value's bytes in memory. `c` is the register
 * (inverted CRC). */
#define NIB(c) ((c) = ((c) >> 4) ^ crc_nibble[(c) & 0xFu])
static uint32_t crc_word(uint32_t c, uint32_t v)
{
    c ^= v;
    NIB(c);
    NIB(c);
    NIB(c);
    NIB(c);
    NIB(c);
    NIB(c);
    NIB(c);
    NIB(c);
    return c;
}

uint32_t state_digest(const void *flock, uint32_t frame, uint32_t rng_state)
{
    uint32_t c = crc_word(0xFFFFFFFFu, frame);
    unsigned k;
    for (k = 0; k < BOIDS_STATE_KINDS; k++) {
        const state_kind_t *sk = &boids_state_kinds[k];
        const int32_t n = state_count(flock, sk);
        const char *e = (const char *)flock + sk->first_at;
        int32_t i;
        uint32_t j;
        c = crc_word(c, (uint32_t)n);
        for (i = 0; i < n; i++, e += sk->stride)
            for (j = 0; j < sk->n_fields; j++) c = crc_word(c, *(const uint32_t *)(const void *)(e + sk->field_at[j]));
    }
    return ~crc_word(c, rng_state);
}

static size_t put_u32(char *out, uint32_t v)
{
    char t[11];
    size_t n = sizeof t, len;
    do {
        t[--n] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    len = sizeof t - n;
    memcpy(out, t + n, len);
    return len;
}

size_t state_row(char *out, const void *flock, const state_kind_t *k, uint32_t frame, int32_t i)
{
    size_t n = put_u32(out, frame);
    const char *kind = k->kind;
    uint32_t j;
    out[n++] = ',';
    n += fxdec_format_int(i, out + n);
    out[n++] = ',';
    while (*kind) out[n++] = *kind++;
    for (j = 0; j < k->n_fields && j < 16; j++) {
        out[n++] = ',';
        n += fxdec_format_int(state_field(flock, k, i, j), out + n);
    }
    out[n] = '\0';
    return n;
}
