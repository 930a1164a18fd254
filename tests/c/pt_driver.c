/* Test driver for pt.h: two threads interleave through waits and yields. */
#include <stdio.h>

#include "pt.h"

static int ticks, flag;

static PT_THREAD(producer(struct pt *pt))
{
    static int i;
    PT_BEGIN(pt);
    for (i = 0; i < 3; i++) {
        PT_WAIT_UNTIL(pt, flag == 0);
        flag = 1;
        printf("produce %d at %d\n", i, ticks);
    }
    PT_END(pt);
}

static PT_THREAD(consumer(struct pt *pt))
{
    PT_BEGIN(pt);
    for (;;) {
        PT_WAIT_UNTIL(pt, flag == 1);
        flag = 0;
        printf("consume at %d\n", ticks);
        PT_YIELD(pt);
        printf("after yield at %d\n", ticks);
        PT_YIELD_UNTIL(pt, ticks >= 10);
        if (ticks > 12) PT_EXIT(pt);
    }
    PT_END(pt);
}

int main(void)
{
    struct pt a, b;
    int ra = 1, rb = 1;
    PT_INIT(&a);
    PT_INIT(&b);
    while ((ra || rb) && ticks < 40) {
        if (ra) ra = PT_SCHEDULE(producer(&a));
        if (rb) rb = PT_SCHEDULE(consumer(&b));
        ticks++;
    }
    printf("done at %d, producer %s, consumer %s\n", ticks, ra ? "running" : "ended", rb ? "running" : "ended");
    return 0;
}
