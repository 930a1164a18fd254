/* fb4_frame_driver.c - the host's picture of the RP2040's VGA screen: the
 * generated firmware and the shared drawing (draw.c into fb4.h at 640x480,
 * built with the RP2040 CMakeLists.txt's definitions) run headless in
 * virtual time as rp2040_main.c's headless image runs them, then the 4-bit
 * framebuffer written raw to a file. tests/test_rp2040.py compares it with
 * the framebuffer read from the emulated RP2040's SRAM.
 *
 *   fb4_frame_driver FRAMES SEED OUT.fb4 */
#include <stdio.h>
#include <stdlib.h>

#include "boids_app.h"
#include "boids_config.h"
#include "fb4.h"
#include "platform.h"

static uint32_t virtual_us;
void plat_init(void) {}
uint32_t plat_millis(void) { return virtual_us / 1000u; }
uint32_t plat_micros(void) { return virtual_us; }
int plat_serial_getc(void) { return -1; }
void plat_serial_write(const char *s, size_t n)
{
    (void)s;
    (void)n;
}
void plat_frame_done(uint32_t frame) { (void)frame; }
void plat_frame_cost(int32_t boids) { (void)boids; }

int main(int argc, char **argv)
{
    FILE *f;
    long frames;
    if (argc != 4) return 2;
    frames = strtol(argv[1], NULL, 10);
    plat_init();
    boids_app_reset((uint32_t)strtoul(argv[2], NULL, 10), -1);
    boids_app_set_count(BOIDS_FLOCK_SIZE);
    boids_app_adaptive(0);
    for (;;) {
        boids_stats_t st;
        boids_app_stats(&st);
        if ((long)st.frames >= frames) break;
        boids_app_run();
        virtual_us += 1000u;
    }
    f = fopen(argv[3], "wb");
    if (!f || fwrite(fb4_pixels, 1, FB4_BYTES, f) != FB4_BYTES || fclose(f) != 0) return 1;
    return 0;
}
