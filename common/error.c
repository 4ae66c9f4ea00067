/* error.c - FW_E* names, descriptions and the per-thread last message. */
#include "fw_error.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_message[512];

const char *fw_strerror(int err)
{
    switch (err) {
    case FW_OK:
        return "ok";
#define FW__ERR_STR(name, code, msg)                                         \
    case FW_##name:                                                          \
        return msg;
        FW_ERRNO_MAP(FW__ERR_STR)
#undef FW__ERR_STR
    }
    return "unknown error";
}

const char *fw_err_name(int err)
{
    switch (err) {
    case FW_OK:
        return "OK";
#define FW__ERR_NAME(name, code, msg)                                        \
    case FW_##name:                                                          \
        return #name;
        FW_ERRNO_MAP(FW__ERR_NAME)
#undef FW__ERR_NAME
    }
    return "EUNKNOWN";
}

int fw_set_error(int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    return err;
}

const char *fw_last_error(void)
{
    return last_message;
}
