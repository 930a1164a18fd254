/* host_m4k_clock.c - the modelled M4K clock of `boids_host --m4k-cost`:
 * the frame time at every flock size from 1 to the capacity, from a cost
 * table (`boidsgen budget --cost-table`, which reads between its measured
 * sizes: codegen/drivers/pic32/budget/cost.py); only looked up here. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "boids_config.h"
#include "host_m4k_clock.h"
#include "platform_host.h"

static int cost_loaded;
static uint64_t cost_ns[BOIDS_CAPACITY + 1];

static int cost_fail(char *err, size_t len, const char *path, int line, const char *what)
{
    snprintf(err, len, "%s:%d: %s", path, line, what);
    return -1;
}

int host_m4k_cost_load(const char *path, char *err, size_t errlen)
{
    char buf[256], word[64];
    int line = 0, rc = 0, meta = 0;
    unsigned long next = 1; /* the flock size the next row must give */
    FILE *f = fopen(path, "r");
    if (!f) return cost_fail(err, errlen, path, 0, strerror(errno));
    cost_loaded = 0;
    while (rc == 0 && fgets(buf, sizeof buf, f)) {
        unsigned long n;
        unsigned long long ns;
        char *hash = strchr(buf, '#');
        line++;
        if (hash) *hash = '\0'; /* a comment, or a row's "# measured" */
        if (buf[strspn(buf, " \t\r\n")] == '\0') continue;
        if (sscanf(buf, "spec_hash %63s", word) == 1) {
            if (strcmp(word, BOIDS_SPEC_HASH) != 0)
                rc = cost_fail(err, errlen, path, line, "measured for another spec or capacity (spec_hash "
                               "differs from this build's " BOIDS_SPEC_HASH ")");
            meta |= 1;
        } else if (sscanf(buf, "capacity %lu", &n) == 1) {
            if (n != (unsigned long)BOIDS_CAPACITY) rc = cost_fail(err, errlen, path, line, "another capacity");
            meta |= 2;
        } else if (sscanf(buf, "%lu %llu %63s", &n, &ns, word) == 2) {
            if (n != next || n > (unsigned long)BOIDS_CAPACITY)
                rc = cost_fail(err, errlen, path, line, "want one row for every flock size from 1 to the capacity, "
                               "in order");
            else
                cost_ns[next++] = (uint64_t)ns;
        } else {
            rc = cost_fail(err, errlen, path, line, "want 'BOIDS FRAME_NS', 'spec_hash H' or 'capacity C'");
        }
    }
    fclose(f);
    if (rc == 0 && meta != 3) rc = cost_fail(err, errlen, path, line, "no spec_hash or no capacity line");
    if (rc == 0 && next != (unsigned long)BOIDS_CAPACITY + 1u)
        rc = cost_fail(err, errlen, path, line, "rows end before the capacity");
    if (rc == 0) {
        cost_loaded = 1;
        host_frame_cost(host_m4k_frame_ns);
    }
    return rc;
}

uint64_t host_m4k_frame_ns(int32_t boids)
{
    if (!cost_loaded || boids < 1) return 0;
    return cost_ns[boids > BOIDS_CAPACITY ? BOIDS_CAPACITY : boids];
}
