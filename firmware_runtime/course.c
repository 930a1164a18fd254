/* course.c - see course.h. (Placeholder: no course lines recognised yet.) */
#include "course.h"

int course_exec(const char *line, size_t len, serial_sink_t sink)
{
    (void)line;
    (void)len;
    (void)sink;
    return -1;
}
