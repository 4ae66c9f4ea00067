/*
 * fuzz_replay.c - libFuzzer target over the whole replay path: every line
 * of the input is read as a protocol event and, when it parses, applied to
 * one rules engine, whose records are written as JSON. Whatever the bytes,
 * nothing may crash, leak or hit undefined behaviour.
 */
#include "protocol.h"
#include "rules.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct sink {
    fw_protocol_writer *w;
    char buf[FW_PROTOCOL_RECORD_MAX];
} sink;

static void on_record(void *ctx, const fw_record *rec)
{
    sink *s = ctx;
    size_t len;
    fw_protocol_write_record(s->w, rec, s->buf, sizeof s->buf, &len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static sink s;
    fw_engine *e = NULL;
    if (fw_protocol_writer_new(&s.w) != FW_OK)
        return 0;
    if (fw_engine_new(on_record, &s, &e) != FW_OK) {
        fw_protocol_writer_free(s.w);
        return 0;
    }
    const char *p = (const char *)data, *end = p + size;
    long lineno = 0;
    fw_event ev;
    char err[FW_PROTOCOL_ERR_MAX];
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (fw_protocol_parse_line(p, len, ++lineno, &ev, err, sizeof err) ==
            FW_OK)
            fw_engine_apply(e, &ev, NULL);
        p += len + (nl ? 1 : 0);
    }
    fw_engine_free(e);
    fw_protocol_writer_free(s.w);
    return 0;
}
