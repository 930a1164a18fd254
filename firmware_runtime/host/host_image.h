/* host_image.h - what the TFT shows, as image files (host build only):
 * PNG (zlib stored blocks, CRC-32, Adler-32) and animated GIF (LZW), both
 * written by our own encoders from the RGB565 framebuffer. */
#ifndef BOIDSGEN_HOST_IMAGE_H
#define BOIDSGEN_HOST_IMAGE_H

#include <stdint.h>
#include <stdio.h>

/* RGB565 -> 8-bit channels, as the PPM/PNG writers expand them. */
void image_rgb888(uint16_t c, uint8_t out[3]);

/* Write w x h RGB565 pixels as a truecolour PNG. Returns 0 on success. */
int image_write_png(const char *path, const uint16_t *px, int w, int h);

/* Animated GIF: begin, one call per frame, end. Colours go through a fixed
 * 3-3-2 palette (exact for black, white and the primaries). delay_cs is the
 * frame delay in hundredths of a second. Functions return 0 on success. */
typedef struct {
    FILE *f;
    int w, h;
    uint32_t frames;
    uint8_t *idx; /* w * h palette indices of one frame */
} gif_writer_t;

int image_gif_begin(gif_writer_t *g, const char *path, int w, int h);
int image_gif_frame(gif_writer_t *g, const uint16_t *px, unsigned delay_cs);
int image_gif_end(gif_writer_t *g);

/* Exposed for the tests: checksums as PNG and zlib define them. */
uint32_t image_crc32(uint32_t crc, const uint8_t *p, size_t n);
uint32_t image_adler32(uint32_t adler, const uint8_t *p, size_t n);

#endif
