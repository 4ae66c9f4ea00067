/* parse.c - strict number parsing (fw_parse.h). */
#include "fw_parse.h"

#include <errno.h>
#include <stdlib.h>

int fw_parse_long(const char *s, long lo, long hi, long *out)
{
    char *end = NULL;
    if (!s)
        return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || !end || end == s || *end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}
