/* course.h - the course's Python interface (PySimpleGUI) on the serial link:
 * `bNN1`/`bNN0` buttons, `tNN1`/`tNN0`/`tNNTrue`/`tNNFalse` toggles, `l0NK`
 * list boxes, `r0GM` radio buttons and `$TEXT`, each mapped by the spec to a
 * firmware command line (generated boids_course.c). */
#ifndef BOIDSGEN_COURSE_H
#define BOIDSGEN_COURSE_H

#include <stddef.h>
#include <stdint.h>

#include "serial_cmd.h"

typedef struct {
    char kind;        /* 'b', 't', 'l', 'r' */
    uint8_t id;       /* the control's number */
    uint8_t value;    /* 1/0 pressed/released, on/off; the item or member chosen */
    const char *line; /* the firmware command it runs */
} course_entry_t;

extern const course_entry_t boids_course_table[];
extern const unsigned boids_course_count;

/* -1 when the line is not a course-interface line (its first character is
 * not b, t, l or r followed by a digit, nor '$'); else parses it strictly and
 * runs the table's command line for it through `run` (serial_cmd_exec: that
 * reply is the reply; passed in, so this file calls no command executor by
 * name), or `$TEXT`'s TEXT; returns 1 (replied ok) or 0 (replied err). A
 * mapped button's release (a mapped toggle's off) with no line of its own
 * gets `ok bNN released (no action)`; a control the table lacks, or a
 * malformed line, gets `err LINE: ...` naming what it expected. */
typedef int (*course_run_t)(const char *line, size_t len, serial_sink_t sink);
int course_exec(const char *line, size_t len, serial_sink_t sink, course_run_t run);

#endif
