/*
 * test_scenarios.c - runs one scenario: table events in (NAME.jsonl), the
 * engine's records out, compared with the expected records (NAME.expected).
 *
 * Each expected line is a JSON object; it must match a later output record
 * (every field it names is equal, objects compared field by field, arrays
 * element by element), in order: expected lines are a subsequence of the
 * output. Every alert of severity "warn" or "stop" in the output must be
 * matched by an expected line, so a scenario also proves there was no false
 * alarm. A line {"absent": {...}} asserts that no output record matches.
 *
 * usage: test_scenarios FILE.jsonl   (prints "N passed, N failed")
 */
#include "replay.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct out_lines {
    json_t *records; /* array of every output record */
} out_lines;

static void collect(void *ctx, const fw_record *rec, const char *line,
                    size_t len)
{
    out_lines *o = ctx;
    json_error_t err;
    json_t *j = json_loadb(line, len, 0, &err);
    if (!j) {
        fprintf(stderr, "output is not JSON: %.*s\n", (int)len, line);
        exit(1);
    }
    json_array_append_new(o->records, j);
    (void)rec;
}

/* Does `have` contain every field of `want` with the same value? */
static int subset(const json_t *want, const json_t *have)
{
    if (json_is_object(want)) {
        if (!json_is_object(have))
            return 0;
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)want, key, v) {
            if (!subset(v, json_object_get(have, key)))
                return 0;
        }
        return 1;
    }
    if (json_is_array(want)) {
        if (!json_is_array(have) || json_array_size(want) !=
                                        json_array_size(have))
            return 0;
        for (size_t i = 0; i < json_array_size(want); i++)
            if (!subset(json_array_get(want, i), json_array_get(have, i)))
                return 0;
        return 1;
    }
    return have && json_equal((json_t *)want, (json_t *)have);
}

static int is_alarm(const json_t *rec)
{
    const char *type = json_string_value(json_object_get(rec, "type"));
    const char *sev = json_string_value(json_object_get(rec, "severity"));
    return type && sev && strcmp(type, "alert") == 0 &&
           (strcmp(sev, "warn") == 0 || strcmp(sev, "stop") == 0);
}

static void dump(const char *what, const json_t *j)
{
    char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    fprintf(stderr, "  %s %s\n", what, s ? s : "?");
    free(s);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_scenarios FILE.jsonl\n");
        return 2;
    }
    const char *path = argv[1];
    char expected_path[4096];
    size_t n = strlen(path);
    if (n < 6 || strcmp(path + n - 6, ".jsonl") != 0 ||
        n + 4 >= sizeof expected_path) {
        fprintf(stderr, "%s: not a .jsonl file\n", path);
        return 2;
    }
    snprintf(expected_path, sizeof expected_path, "%.*s.expected",
             (int)(n - 6), path);

    FILE *in = fopen(path, "r");
    if (!in) {
        perror(path);
        return 2;
    }
    out_lines out = {json_array()};
    int status = fw_replay_stream(in, path, NULL, stderr, collect, &out);
    fclose(in);

    FILE *ex = fopen(expected_path, "r");
    if (!ex) {
        perror(expected_path);
        return 2;
    }
    int failed = status != 0, checked = 0;
    size_t pos = 0, nrec = json_array_size(out.records);
    char *used = calloc(nrec + 1, 1);
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    while (getline(&line, &cap, ex) > 0) {
        lineno++;
        if (line[strspn(line, " \t\r\n")] == '\0' || line[0] == '#')
            continue;
        json_error_t err;
        json_t *want = json_loads(line, 0, &err);
        if (!json_is_object(want)) {
            fprintf(stderr, "%s:%ld: not a JSON object\n", expected_path,
                    lineno);
            failed = 1;
            json_decref(want);
            continue;
        }
        checked++;
        json_t *absent = json_object_get(want, "absent");
        if (absent) {
            for (size_t i = 0; i < nrec; i++)
                if (subset(absent, json_array_get(out.records, i))) {
                    fprintf(stderr, "%s:%ld: found a record that must be "
                                    "absent\n",
                            expected_path, lineno);
                    dump("record:", json_array_get(out.records, i));
                    failed = 1;
                    break;
                }
            json_decref(want);
            continue;
        }
        size_t i = pos;
        while (i < nrec && !subset(want, json_array_get(out.records, i)))
            i++;
        if (i == nrec) {
            fprintf(stderr, "%s:%ld: no matching record after record %zu\n",
                    expected_path, lineno, pos + 1);
            dump("wanted:", want);
            failed = 1;
        } else {
            used[i] = 1;
            pos = i + 1;
        }
        json_decref(want);
    }
    free(line);
    fclose(ex);
    for (size_t i = 0; i < nrec; i++) {
        if (!used[i] && is_alarm(json_array_get(out.records, i))) {
            fprintf(stderr, "unexpected alert (record %zu):\n", i + 1);
            dump("", json_array_get(out.records, i));
            failed = 1;
        }
    }
    if (failed || getenv("FW_SCENARIO_DUMP")) {
        fprintf(stderr, "output of %s:\n", path);
        for (size_t i = 0; i < nrec; i++)
            dump("", json_array_get(out.records, i));
    }
    if (checked == 0) {
        fprintf(stderr, "%s: no expectations\n", expected_path);
        failed = 1;
    }
    free(used);
    json_decref(out.records);
    printf("%d passed, %d failed\n", failed ? 0 : 1, failed ? 1 : 0);
    return failed;
}
