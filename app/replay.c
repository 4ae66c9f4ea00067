/* replay.c - `feltwatch replay`: JSON Lines events through the engine. */
#include "replay.h"

#include "protocol.h"
#include "store.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct replay_ctx {
    fw_protocol_writer *writer;
    fw_store *store;
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
    if (r->store) {
        r->buf[len - 1] = '\0'; /* the line without its newline */
        fw_store_record(r->store, rec, r->buf);
        r->buf[len - 1] = '\n';
    }
    if (r->on_line)
        r->on_line(r->ctx, rec, r->buf, len);
}

int fw_replay_stream(FILE *in, const char *name, FILE *out, FILE *err,
                     fw_replay_line_fn on_line, void *ctx)
{
    return fw_replay_stream_to(in, name, out, err, on_line, ctx, NULL, NULL);
}

int fw_replay_stream_to(FILE *in, const char *name, FILE *out, FILE *err,
                        fw_replay_line_fn on_line, void *ctx, fw_store *store,
                        FILE *events)
{
    replay_ctx r = {0};
    r.store = store;
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
        if (events)
            fwrite(line, 1, (size_t)n, events);
        if (store) {
            /* the store takes the line as read, without its newline */
            if (line[n - 1] == '\n')
                line[n - 1] = '\0';
            fw_store_event(store, &ev, line);
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

int fw_replay_main(int argc, char **argv, FILE *out, FILE *err)
{
    const char *path = NULL, *db = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
            db = argv[++i];
        else if (!path)
            path = argv[i];
        else
            path = NULL, i = argc;
    }
    if (!path) {
        fprintf(err, "usage: feltwatch replay FILE|- [--db FILE]\n");
        return 2;
    }
    fw_store *store = NULL;
    if (db && fw_store_open(db, &store) != FW_OK) {
        fprintf(err, "feltwatch: replay: %s\n", fw_last_error());
        return 1;
    }
    FILE *in = stdin;
    if (strcmp(path, "-") != 0) {
        in = fopen(path, "r");
        if (!in) {
            fprintf(err, "feltwatch: replay: %s: %s\n", path,
                    strerror(errno));
            fw_store_close(store);
            return 1;
        }
    }
    static char outbuf[1 << 16];
    setvbuf(out, outbuf, _IOFBF, sizeof outbuf);
    int status = fw_replay_stream_to(in, path, out, err, NULL, NULL, store,
                                     NULL);
    if (in != stdin)
        fclose(in);
    if (store && fw_store_close(store) != FW_OK) {
        fprintf(err, "feltwatch: replay: %s: %s\n", db, fw_last_error());
        status = 1;
    }
    if (fflush(out) != 0) {
        fprintf(err, "feltwatch: replay: writing output: %s\n",
                strerror(errno));
        status = 1;
    }
    return status;
}
