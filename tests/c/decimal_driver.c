/* Test driver: one decimal per line -> "raw" or "err <reason>"; lines that
 * start with '@' format a raw value instead. Build with -DFX_FRAC_BITS=F. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fxdecimal.h"

int main(void)
{
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strcspn(line, "\n");
        int32_t raw;
        fxdec_status st;
        line[n] = '\0';
        if (line[0] == '@') {
            char buf[32];
            fxdec_format((int32_t)strtoll(line + 1, NULL, 10), buf);
            printf("%s\n", buf);
            continue;
        }
        if (line[0] == '#') {
            st = fxdec_parse_int(line + 1, n - 1, &raw);
        } else {
            st = fxdec_parse(line, n, &raw);
        }
        if (st == FXDEC_OK) printf("%" PRId32 "\n", raw);
        else printf("err %s\n", fxdec_reason(st));
    }
    return 0;
}
