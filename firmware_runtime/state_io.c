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

static uint32_t crc_u32(uint32_t crc, uint32_t v)
{
    unsigned char b[4];
    b[0] = (unsigned char)v;
    b[1] = (unsigned char)(v >> 8);
    b[2] = (unsigned char)(v >> 16);
    b[3] = (unsigned char)(v >> 24);
    return crc32_update(crc, b, 4);
}

uint32_t state_digest(const void *flock, uint32_t frame, uint32_t rng_state)
{
    uint32_t crc = crc_u32(0, frame);
    unsigned k;
    for (k = 0; k < BOIDS_STATE_KINDS; k++) {
        const state_kind_t *sk = &boids_state_kinds[k];
        const int32_t n = state_count(flock, sk);
        int32_t i;
        uint32_t j;
        crc = crc_u32(crc, (uint32_t)n);
        for (i = 0; i < n; i++)
            for (j = 0; j < sk->n_fields; j++) crc = crc_u32(crc, (uint32_t)state_field(flock, sk, i, j));
    }
    return crc_u32(crc, rng_state);
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
    size_t kl = strlen(k->kind);
    uint32_t j;
    out[n++] = ',';
    n += fxdec_format_int(i, out + n);
    out[n++] = ',';
    memcpy(out + n, k->kind, kl);
    n += kl;
    for (j = 0; j < k->n_fields && j < 16; j++) {
        out[n++] = ',';
        n += fxdec_format_int(state_field(flock, k, i, j), out + n);
    }
    out[n] = '\0';
    return n;
}
