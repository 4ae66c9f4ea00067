/*
 * fw_parse.h - strict number parsing for command lines: the whole text must
 * be one decimal number in range (no atoi: a typo is an error, not a 0).
 */
#ifndef FW_PARSE_H
#define FW_PARSE_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Parse S as one whole decimal number in [lo, hi] into *out.
 * \returns 0, or -1 (nothing written) for empty text, trailing characters,
 *          overflow or a value out of range.
 */
int fw_parse_long(const char *s, long lo, long hi, long *out);

#ifdef __cplusplus
}
#endif

#endif
