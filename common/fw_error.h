/*
 * fw_error.h - error codes shared by every feltwatch module.
 *
 * Ownership: fw_strerror() and fw_err_name() return static strings;
 * fw_last_error() returns a thread-local buffer that stays valid until the
 * next fw_set_error() on the same thread. Nothing here allocates.
 *
 * A function that can fail returns int: FW_OK (0) or a negative FW_E* code.
 * The list below is the only place codes are defined (libuv UV_ERRNO_MAP).
 */
#ifndef FW_ERROR_H
#define FW_ERROR_H

#define FW_ERRNO_MAP(X)                                                      \
    X(EINVAL, -1, "invalid argument")                                        \
    X(ENOMEM, -2, "out of memory")                                           \
    X(EPARSE, -3, "malformed input")                                         \
    X(ERANGE, -4, "value out of range")                                      \
    X(ESTATE, -5, "not allowed in the current state")                        \
    X(EIO, -6, "input/output error")                                         \
    X(ENOENT, -7, "not found")                                               \
    X(EUNSUPPORTED, -8, "not supported")                                     \
    X(EINTERNAL, -9, "internal error")

enum fw_errno {
    FW_OK = 0,
#define FW__ERR_ENUM(name, code, msg) FW_##name = (code),
    FW_ERRNO_MAP(FW__ERR_ENUM)
#undef FW__ERR_ENUM
};

/** Human description of an FW_E* code ("malformed input"). */
const char *fw_strerror(int err);

/** Symbolic name of an FW_E* code ("EPARSE"). */
const char *fw_err_name(int err);

/**
 * Record a message for the last failure on this thread (printf format).
 * \returns err, so callers can write `return fw_set_error(FW_EPARSE, ...)`.
 */
int fw_set_error(int err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** The message of the last failure on this thread ("" if none). */
const char *fw_last_error(void);

#endif
