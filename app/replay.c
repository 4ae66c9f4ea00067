/* replay.c - `feltwatch replay`: JSON Lines events through the engine. */
#include "replay.h"

#include "protocol.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct replay_ctx {
    fw_protocol_writer *writer;
    FILE *out;
    fw_replay_line_fn on_line;
    void *ctx;
    char buf[FW_PROTOCOL_RECORD_MAX];
    int failed;
} replay_ctx;

static void on_record(void *p, const fw_record *rec)
{
    replay_ctx *r = p;
    size_t len = 0;
    if (fw_protocol_write_record(r->writer, rec, r->buf, sizeof r->buf,
                                 &len) != FW_OK) {
        r->failed = 1;
        return;
    }
    if (r->out)
        fwrite(r->buf, 1, len, r->out);
    if (r->on_line)
        r->on_line(r->ctx, rec, r->buf, len);
}

int fw_replay_stream(FILE *in, const char *name, FILE *out, FILE *err,
                     fw_replay_line_fn on_line, void *ctx)
{
    replay_ctx r = {0};
    r.out = out;
    r.on_line = on_line;
    r.ctx = ctx;
    fw_engine *engine = NULL;
    if (fw_protocol_writer_new(&r.writer) != FW_OK ||
        fw_engine_new(on_record, &r, &engine) != FW_OK) {
        fprintf(err, "feltwatch: replay: out of memory\n");
        fw_protocol_writer_free(r.writer);
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0;
    int status = 0;
    fw_event ev;
    char msg[FW_PROTOCOL_ERR_MAX];
    while ((n = getline(&line, &cap, in)) > 0) {
        lineno++;
        int rc = fw_protocol_parse_line(line, (size_t)n, lineno, &ev, msg,
                                        sizeof msg);
        if (rc == FW_PROTOCOL_SKIP)
            continue;
        if (rc != FW_OK) {
            fprintf(err, "feltwatch: replay: %s: %s\n", name, msg);
            status = 1;
            break;
        }
        const char *why = NULL;
        rc = fw_engine_apply(engine, &ev, &why);
        if (rc != FW_OK) {
            fprintf(err, "feltwatch: replay: %s: line %ld: %s: %s\n", name,
                    lineno, fw_event_type_name(ev.type),
                    why ? why : fw_strerror(rc));
            status = 1;
            break;
        }
        if (r.failed) {
            fprintf(err, "feltwatch: replay: %s: line %ld: could not write "
                         "a record\n",
                    name, lineno);
            status = 1;
            break;
        }
    }
    if (status == 0 && ferror(in)) {
        fprintf(err, "feltwatch: replay: %s: read error: %s\n", name,
                strerror(errno));
        status = 1;
    }
    free(line);
    fw_engine_free(engine);
    fw_protocol_writer_free(r.writer);
    return status;
}

int fw_replay_main(const char *path, FILE *out, FILE *err)
{
    FILE *in = stdin;
    if (strcmp(path, "-") != 0) {
        in = fopen(path, "r");
        if (!in) {
            fprintf(err, "feltwatch: replay: %s: %s\n", path,
                    strerror(errno));
            return 1;
        }
    }
    static char outbuf[1 << 16];
    setvbuf(out, outbuf, _IOFBF, sizeof outbuf);
    int status = fw_replay_stream(in, path, out, err, NULL, NULL);
    if (in != stdin)
        fclose(in);
    if (fflush(out) != 0) {
        fprintf(err, "feltwatch: replay: writing output: %s\n",
                strerror(errno));
        status = 1;
    }
    return status;
}
