/* budget_cmd_m4k.c - the serial thread's commands on the M4K, for the
 * frame's reserve (codegen/drivers/pic32/budget/commands.py): the whole
 * board firmware (the generated app, the command table, the runtime) with
 * budget_platform.c in place of the PIC32 layer, in a freestanding image
 * for qemu-mipsel. It resets the flock to BUDGET_CMD_BOIDS boids, turns
 * `watch` on (its `ev` lines are part of a change's reply), then feeds each
 * of budget_cmd_lines.h's lines through serial_cmd_feed as the serial thread
 * does, a budget_mark call after each: segment k is line k's parse,
 * execution and reply. Exit status 1 when a reply began "err". */
#include <stdint.h>

#include "boids_app.h"
#include "budget_cmd_lines.h"
#include "platform.h"
#include "serial_cmd.h"

extern uint32_t budget_errors; /* budget_platform.c */

__attribute__((noinline)) void budget_mark(int k);
__attribute__((noinline)) void budget_mark(int k)
{
    __asm__ volatile("" : : "r"(k) : "memory");
}

static void feed(const char *s)
{
    while (*s) serial_cmd_feed(*s++);
    serial_cmd_feed('\n');
}

int main(void);
int main(void)
{
    unsigned k;
    plat_init();
    boids_app_reset(1u, BUDGET_CMD_BOIDS);
    feed("watch on");
    budget_mark(0);
    for (k = 0; k < sizeof budget_cmd_lines / sizeof budget_cmd_lines[0]; k++) {
        feed(budget_cmd_lines[k]);
        budget_mark((int)k + 1);
    }
    return budget_errors == 0 ? 0 : 1;
}
