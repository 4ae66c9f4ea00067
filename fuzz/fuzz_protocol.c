/*
 * fuzz_protocol.c - libFuzzer target for the JSON Lines reader and the
 * record writer (app/protocol.c).
 *
 * The input is split into lines and each is parsed: any result other than
 * FW_OK, FW_PROTOCOL_SKIP or FW_EPARSE, an event out of the ranges the reader
 * promises, or a malformed message aborts. Then the input's bytes are laid
 * over one record of each type (with string pointers pointed at strings cut
 * from the input) and written: the writer must answer FW_OK, FW_EINVAL or
 * FW_ERANGE, and every line it writes must be one JSON object that jansson
 * reads back.
 */
#include "protocol.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond))                                                           \
            abort();                                                           \
    } while (0)

/* Parse one line and check what the reader promises. */
static void parse_one(const char *line, size_t n, long lineno)
{
    fw_event ev;
    char err[FW_PROTOCOL_ERR_MAX];
    int rc = fw_protocol_parse_line(line, n, lineno, &ev, err, sizeof err);
    CHECK(rc == FW_OK || rc == FW_PROTOCOL_SKIP || rc == FW_EPARSE);
    if (rc == FW_EPARSE) {
        CHECK(strncmp(err, "line ", 5) == 0);
        for (const char *c = err; *c; c++)
            CHECK((unsigned char)*c >= 0x20 && (unsigned char)*c < 0x7f);
        return;
    }
    CHECK(ev.type >= 0 && ev.type < FW_EV_COUNT);
    CHECK(ev.seat >= 0 && ev.seat <= FW_MAX_SEATS);
    CHECK(ev.nchips >= 0 && ev.nchips <= FW_MAX_CHIPS_PER_EVENT);
    CHECK(ev.ncards >= 0 && ev.ncards <= FW_MAX_HOLE);
    CHECK(ev.nchip_set >= 0 && ev.nchip_set <= FW_MAX_CHIP_SET);
    CHECK(ev.card == FW_CARD_NONE || ev.card < 52);
    CHECK(memchr(ev.player, '\0', sizeof ev.player) != NULL);
    for (int i = 0; i < ev.nchips; i++)
        CHECK(ev.chips[i] >= 1 && ev.chips[i] <= FW_PROTOCOL_MAX_AMOUNT);
    for (int i = 0; i < ev.ncards; i++)
        CHECK(ev.cards[i] < 52);
    CHECK(ev.amount >= 0 && ev.amount <= FW_PROTOCOL_MAX_AMOUNT);
    CHECK(ev.stack >= 0 && ev.stack <= FW_PROTOCOL_MAX_AMOUNT);
}

/*
 * Cut up to 4 short NUL-terminated strings from the input into strs; a NULL
 * pointer is offered too, since the writer accepts NULL for some fields.
 */
static const char *pick(char strs[4][40], const uint8_t *data, size_t size,
                        unsigned k)
{
    if (k % 5 == 4 || size == 0)
        return NULL;
    char *s = strs[k % 5];
    size_t at = (k * 7919u) % size;
    size_t n = size - at < sizeof strs[0] - 1 ? size - at : sizeof strs[0] - 1;
    memcpy(s, data + at, n);
    s[n] = '\0';
    return s;
}

/* Write one record of each type built from the input's bytes. */
static void write_some(fw_protocol_writer *w, const uint8_t *data, size_t size)
{
    static char buf[FW_PROTOCOL_RECORD_MAX];
    char strs[4][40];
    for (int t = 0; t <= FW_REC_HAND_END + 1; t++) {
        fw_record rec;
        memset(&rec, 0, sizeof rec);
        size_t n = size < sizeof rec.u ? size : sizeof rec.u;
        memcpy(&rec.u, data, n);
        rec.type = (fw_record_type)t;
        unsigned k = size ? data[0] : 0;
        switch (rec.type) {
        case FW_REC_RULING:
            rec.u.ruling.why = pick(strs, data, size, k);
            rec.u.ruling.rule = pick(strs, data, size, k + 1);
            break;
        case FW_REC_ALERT:
            rec.u.alert.kind = pick(strs, data, size, k);
            rec.u.alert.why = pick(strs, data, size, k + 1);
            rec.u.alert.rule = pick(strs, data, size, k + 2);
            rec.u.alert.remedy = pick(strs, data, size, k + 3);
            break;
        case FW_REC_AWARD:
            rec.u.award.rule = pick(strs, data, size, k);
            break;
        default:
            break;
        }
        /* A buffer size from the input, often too small. */
        size_t bsize = size > 1 ? (size_t)data[1] * 64 : sizeof buf;
        if (bsize > sizeof buf)
            bsize = sizeof buf;
        size_t len = 0;
        int rc = fw_protocol_write_record(w, &rec, buf, bsize, &len);
        CHECK(rc == FW_OK || rc == FW_EINVAL || rc == FW_ERANGE);
        if (rc == FW_ERANGE)
            CHECK(len > bsize);
        if (rc != FW_OK)
            continue;
        CHECK(len >= 2 && len < bsize && buf[len - 1] == '\n' &&
              buf[len] == '\0' && strlen(buf) == len);
        json_t *back = json_loadb(buf, len, JSON_REJECT_DUPLICATES, NULL);
        CHECK(json_is_object(back));
        CHECK(json_is_string(json_object_get(back, "type")));
        json_decref(back);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fw_protocol_writer *w;
    if (!w && fw_protocol_writer_new(&w) != FW_OK)
        abort();

    const char *text = (const char *)data;
    long lineno = 1;
    size_t start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i == size || text[i] == '\n') {
            if (i > start || i < size)
                parse_one(text + start, i - start, lineno++);
            start = i + 1;
        }
    }
    write_some(w, data, size);
    return 0;
}
