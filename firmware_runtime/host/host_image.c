/* host_image.c - our PNG and GIF encoders (see host_image.h). */
#include "host_image.h"

#include <stdlib.h>
#include <string.h>

void image_rgb888(uint16_t c, uint8_t out[3])
{
    out[0] = (uint8_t)(((c >> 11) & 0x1Fu) * 255u / 31u);
    out[1] = (uint8_t)(((c >> 5) & 0x3Fu) * 255u / 63u);
    out[2] = (uint8_t)((c & 0x1Fu) * 255u / 31u);
}

/* ---- PNG ---- */

uint32_t image_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
    static uint32_t table[256];
    static int ready;
    if (!ready) {
        uint32_t i, k, c;
        for (i = 0; i < 256; i++) {
            for (c = i, k = 0; k < 8; k++) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
        ready = 1;
    }
    crc = ~crc;
    while (n--) crc = table[(crc ^ *p++) & 0xFFu] ^ (crc >> 8);
    return ~crc;
}

uint32_t image_adler32(uint32_t adler, const uint8_t *p, size_t n)
{
    uint32_t a = adler & 0xFFFFu, b = adler >> 16;
    while (n--) {
        a = (a + *p++) % 65521u;
        b = (b + a) % 65521u;
    }
    return (b << 16) | a;
}

static void be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* A chunk: length, type, data, CRC over type and data. */
static int png_chunk(FILE *f, const char *type, const uint8_t *data, uint32_t n)
{
    uint8_t hdr[8], tail[4];
    uint32_t crc;
    be32(hdr, n);
    memcpy(hdr + 4, type, 4);
    crc = image_crc32(0, hdr + 4, 4);
    crc = image_crc32(crc, data, n);
    be32(tail, crc);
    return fwrite(hdr, 1, 8, f) != 8 || (n && fwrite(data, 1, n, f) != n) || fwrite(tail, 1, 4, f) != 4;
}

int image_write_png(const char *path, const uint16_t *px, int w, int h)
{
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    const size_t row = 1 + 3 * (size_t)w, raw_n = row * (size_t)h;
    /* zlib: 2 header bytes, stored blocks of <= 65535 bytes (5-byte header
     * each), Adler-32 of the uncompressed data. */
    const size_t nblocks = raw_n / 65535u + 1, z_n = 2 + raw_n + 5 * nblocks + 4;
    uint8_t *raw = malloc(raw_n), *z = malloc(z_n), ihdr[13];
    size_t i, pos = 0, done = 0;
    int x, y, err;
    FILE *f;
    if (!raw || !z || w <= 0 || h <= 0) {
        free(raw);
        free(z);
        return -1;
    }
    for (y = 0; y < h; y++) {
        uint8_t *r = raw + (size_t)y * row;
        r[0] = 0; /* filter: none */
        for (x = 0; x < w; x++) image_rgb888(px[(size_t)y * (size_t)w + (size_t)x], r + 1 + 3 * (size_t)x);
    }
    z[pos++] = 0x78; /* deflate, 32 K window */
    z[pos++] = 0x01; /* (0x7801 % 31 == 0) */
    for (i = 0; i < nblocks; i++) {
        size_t len = raw_n - done > 65535u ? 65535u : raw_n - done;
        z[pos++] = (uint8_t)(i + 1 == nblocks); /* BFINAL, BTYPE 00 */
        z[pos++] = (uint8_t)len;
        z[pos++] = (uint8_t)(len >> 8);
        z[pos++] = (uint8_t)~len;
        z[pos++] = (uint8_t)(~len >> 8);
        memcpy(z + pos, raw + done, len);
        pos += len;
        done += len;
    }
    be32(z + pos, image_adler32(1, raw, raw_n));
    pos += 4;
    be32(ihdr, (uint32_t)w);
    be32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8;  /* bits per channel */
    ihdr[9] = 2;  /* truecolour */
    ihdr[10] = 0; /* deflate */
    ihdr[11] = 0; /* adaptive filtering */
    ihdr[12] = 0; /* no interlace */
    f = fopen(path, "wb");
    err = !f;
    if (f) {
        err |= fwrite(sig, 1, 8, f) != 8;
        err |= png_chunk(f, "IHDR", ihdr, 13);
        err |= png_chunk(f, "IDAT", z, (uint32_t)pos);
        err |= png_chunk(f, "IEND", NULL, 0);
        err |= fclose(f) != 0;
    }
    free(raw);
    free(z);
    return err ? -1 : 0;
}

/* ---- GIF ---- */

static uint8_t gif_index(uint16_t c)
{
    /* top 3 bits of red, 3 of green, 2 of blue */
    return (uint8_t)(((c >> 13) << 5) | (((c >> 8) & 0x7u) << 2) | ((c >> 3) & 0x3u));
}

static void put16(FILE *f, unsigned v)
{
    fputc((int)(v & 0xFFu), f);
    fputc((int)((v >> 8) & 0xFFu), f);
}

int image_gif_begin(gif_writer_t *g, const char *path, int w, int h)
{
    int i;
    memset(g, 0, sizeof *g);
    if (w <= 0 || h <= 0 || w > 65535 || h > 65535) return -1;
    g->idx = malloc((size_t)w * (size_t)h);
    g->f = g->idx ? fopen(path, "wb") : NULL;
    if (!g->f) {
        free(g->idx);
        g->idx = NULL;
        return -1;
    }
    g->w = w;
    g->h = h;
    fwrite("GIF89a", 1, 6, g->f);
    put16(g->f, (unsigned)w);
    put16(g->f, (unsigned)h);
    fputc(0xF7, g->f); /* global colour table, 8 bits colour resolution, 256 entries */
    fputc(0, g->f);    /* background index */
    fputc(0, g->f);    /* square pixels */
    for (i = 0; i < 256; i++) {
        /* the colour each 3-3-2 index stands for, expanded to 8 bits */
        fputc((i >> 5) * 255 / 7, g->f);
        fputc(((i >> 2) & 7) * 255 / 7, g->f);
        fputc((i & 3) * 255 / 3, g->f);
    }
    /* NETSCAPE2.0: loop forever */
    fwrite("\x21\xFF\x0BNETSCAPE2.0\x03\x01\x00\x00\x00", 1, 19, g->f);
    return 0;
}

/* LZW code output: variable-width codes packed LSB first into sub-blocks
 * of at most 255 bytes. */
typedef struct {
    FILE *f;
    uint32_t acc;
    int nbits;
    uint8_t block[255];
    int nblock;
} bitsink_t;

static void sink_byte(bitsink_t *s, uint8_t b)
{
    s->block[s->nblock++] = b;
    if (s->nblock == 255) {
        fputc(255, s->f);
        fwrite(s->block, 1, 255, s->f);
        s->nblock = 0;
    }
}

static void sink_code(bitsink_t *s, unsigned code, int width)
{
    s->acc |= (uint32_t)code << s->nbits;
    s->nbits += width;
    while (s->nbits >= 8) {
        sink_byte(s, (uint8_t)s->acc);
        s->acc >>= 8;
        s->nbits -= 8;
    }
}

static void sink_flush(bitsink_t *s)
{
    if (s->nbits > 0) sink_byte(s, (uint8_t)s->acc);
    if (s->nblock > 0) {
        fputc(s->nblock, s->f);
        fwrite(s->block, 1, (size_t)s->nblock, s->f);
    }
    fputc(0, s->f); /* block terminator */
}

/* The string table as a hash of (prefix code, next byte) -> code. */
#define LZW_HASH 8192u
#define LZW_MAX_CODE 4095u

static void lzw_encode(FILE *f, const uint8_t *data, size_t n)
{
    static int32_t key[LZW_HASH];
    static uint16_t val[LZW_HASH];
    const unsigned clear = 256, eoi = 257;
    unsigned next = 258, prefix;
    int width = 9;
    size_t i;
    bitsink_t s;
    memset(&s, 0, sizeof s);
    s.f = f;
    fputc(8, f); /* minimum code size */
    memset(key, 0xFF, sizeof key);
    sink_code(&s, clear, width);
    prefix = data[0];
    for (i = 1; i < n; i++) {
        uint8_t c = data[i];
        int32_t k = (int32_t)((prefix << 8) | c);
        uint32_t h = ((uint32_t)k * 2654435761u) >> 19; /* 13 bits */
        while (key[h] != -1 && key[h] != k) h = (h + 1) & (LZW_HASH - 1);
        if (key[h] == k) {
            prefix = val[h];
            continue;
        }
        sink_code(&s, prefix, width);
        if (next <= LZW_MAX_CODE) {
            key[h] = k;
            val[h] = (uint16_t)next;
            /* the decoder widens one code later than the encoder adds it */
            if (next == (1u << width) && width < 12) width++;
            next++;
        }
        if (next > LZW_MAX_CODE) {
            /* table full: start over so the codes keep adapting */
            sink_code(&s, clear, width);
            memset(key, 0xFF, sizeof key);
            next = 258;
            width = 9;
        }
        prefix = c;
    }
    sink_code(&s, prefix, width);
    sink_code(&s, eoi, width);
    sink_flush(&s);
}

int image_gif_frame(gif_writer_t *g, const uint16_t *px, unsigned delay_cs)
{
    size_t i, n = (size_t)g->w * (size_t)g->h;
    if (!g->f) return -1;
    for (i = 0; i < n; i++) g->idx[i] = gif_index(px[i]);
    /* graphic control extension: the frame delay */
    fwrite("\x21\xF9\x04\x00", 1, 4, g->f);
    put16(g->f, delay_cs);
    fputc(0, g->f);
    fputc(0, g->f);
    /* image descriptor: whole screen, global palette */
    fputc(0x2C, g->f);
    put16(g->f, 0);
    put16(g->f, 0);
    put16(g->f, (unsigned)g->w);
    put16(g->f, (unsigned)g->h);
    fputc(0, g->f);
    lzw_encode(g->f, g->idx, n);
    g->frames++;
    return ferror(g->f) ? -1 : 0;
}

int image_gif_end(gif_writer_t *g)
{
    int err;
    if (!g->f) return -1;
    fputc(0x3B, g->f); /* trailer */
    err = ferror(g->f) != 0;
    err |= fclose(g->f) != 0;
    g->f = NULL;
    free(g->idx);
    g->idx = NULL;
    return err ? -1 : 0;
}
