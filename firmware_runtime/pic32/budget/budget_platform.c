/* budget_platform.c - the platform layer of budget_cmd_m4k.c's image: the
 * ILI9340's port is budget_tft_port.c's stub; time stands still; the serial
 * link's bytes go nowhere, but each reply line is looked at: the image
 * fails if a command was answered "err". On the board the bytes go
 * into the UART's ring (platform_pic32.c), a store and an index step a
 * byte, which this layer does too, so the replies cost what they cost. */
#include <stddef.h>
#include <stdint.h>

#include "platform.h"
#include "tft_ili9340.h"

uint32_t budget_errors; /* reply lines that began "err" */
static volatile uint8_t tx_ring[256];
static volatile uint16_t tx_head;
static unsigned col; /* the column of the reply line being written */
static char head[3];

void plat_init(void) { tft_init(); }
uint32_t plat_millis(void) { return 0; }
uint32_t plat_micros(void) { return 0; }
uint32_t plat_work_us(void) { return 0; }
int plat_serial_getc(void) { return -1; }
void plat_frame_done(uint32_t frame) { (void)frame; }
void plat_frame_cost(int32_t boids) { (void)boids; }

void plat_serial_write(const char *s, size_t n)
{
    while (n--) {
        const char c = *s++;
        tx_ring[tx_head] = (uint8_t)c;
        tx_head = (uint16_t)((tx_head + 1u) & 255u);
        if (col < 3) head[col] = c;
        if (col == 2 && head[0] == 'e' && head[1] == 'r' && head[2] == 'r') budget_errors++;
        col = c == '\n' ? 0 : col + 1;
    }
}
