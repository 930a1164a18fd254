/* cmd_keep.h - run one command line and keep its reply as text, for a
 * caller that is not the serial link (the host's --set, the RP2040's
 * headless run); the link itself sends replies as they are made. */
#ifndef BOIDSGEN_CMD_KEEP_H
#define BOIDSGEN_CMD_KEEP_H

#include <stddef.h>
#include <string.h>

#include "serial_cmd.h"

#define CMD_KEEP_MAX 200 /* bytes kept, the NUL included: longer replies are cut */

static char cmd_kept[CMD_KEEP_MAX];
static size_t cmd_kept_len;

static void cmd_keep_sink(const char *s, size_t n)
{
    if (n > sizeof cmd_kept - 1 - cmd_kept_len) n = sizeof cmd_kept - 1 - cmd_kept_len;
    memcpy(cmd_kept + cmd_kept_len, s, n);
    cmd_kept_len += n;
    cmd_kept[cmd_kept_len] = '\0';
}

/* serial_cmd_exec's result; the reply is then cmd_kept (cmd_kept_len bytes). */
static int cmd_exec_kept(const char *line, size_t n)
{
    cmd_kept_len = 0;
    cmd_kept[0] = '\0';
    return serial_cmd_exec(line, n, cmd_keep_sink);
}

#endif
