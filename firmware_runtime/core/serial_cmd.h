/* serial_cmd.h - the line protocol of the serial link, walked over the
 * generated parameter table. Replies start with "ok" or "err" and end "\n".
 * A rejected command changes nothing. */
#ifndef BOIDSGEN_SERIAL_CMD_H
#define BOIDSGEN_SERIAL_CMD_H

#include <stddef.h>

typedef void (*serial_sink_t)(const char *s, size_t n);

/* Execute one complete line (no terminator); replies go to sink.
 * Returns 1 when the reply was "ok", 0 for "err". */
int serial_cmd_exec(const char *line, size_t len, serial_sink_t sink);
/* Feed one received byte: CR, LF or CRLF end a line, BS/DEL erase, an
 * overlong line is rejected whole. Replies go to plat_serial_write. */
void serial_cmd_feed(char c);
void serial_cmd_clear(void);
/* Called by the timing thread once a second (telemetry). */
void serial_cmd_tick(void);

#endif
