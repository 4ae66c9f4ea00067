/*
 * eval_gen.c - writes eval_tables.c, the hand evaluator's lookup tables.
 *
 * Runs once at build time (rules/CMakeLists.txt): `eval_gen OUT.c`. It is a
 * host tool, not part of the library, so it may print and allocate. The
 * layout of values and the perfect hash are described in eval_tables.h,
 * which this program shares with eval.c so the two cannot disagree.
 *
 * Every table entry is computed the slow, obvious way: a multiset of ranks is
 * worth the best of its five-card sub-multisets, each classified by counting.
 */
#include "eval_tables.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    CAT_HIGH,
    CAT_PAIR,
    CAT_TWO_PAIR,
    CAT_TRIPS,
    CAT_STRAIGHT,
    CAT_FLUSH,
    CAT_FULL_HOUSE,
    CAT_QUADS,
    CAT_STRAIGHT_FLUSH
};

/* Rank multisets of 5..7 cards, no rank more than four times. */
#define MAX_KEYS 73775

static uint32_t classes[FW_EVAL_CLASSES];
static int nclasses;

static uint32_t keys[MAX_KEYS];
static uint16_t key_ids[MAX_KEYS];
static int nkeys;

static uint16_t flush_tab[8192];
static uint16_t disp[FW_EVAL_BUCKETS];
static uint16_t rank_tab[FW_EVAL_RANK_SLOTS];

static uint32_t make_value(int cat, const int *ranks, int nranks)
{
    uint32_t v = (uint32_t)cat << FW_EVAL_SLOT_SHIFT | (uint32_t)cat
                                                           << FW_EVAL_CAT_SHIFT;
    for (int i = 0; i < nranks; i++)
        v |= (uint32_t)ranks[i] << (16 - 4 * i);
    return v;
}

/* The top rank of the best straight in a 13-bit rank mask, or -1. */
static int straight_top(unsigned mask)
{
    for (int top = 12; top >= 4; top--) {
        unsigned need = 0x1Fu << (top - 4);
        if ((mask & need) == need)
            return top;
    }
    if ((mask & 0x100Fu) == 0x100Fu)
        return 3;
    return -1;
}

/*
 * The value of exactly five cards whose ranks occur cnt[r] times (summing to
 * five), all of one suit when flush is set.
 */
static uint32_t five_value(const int cnt[13], int flush)
{
    unsigned mask = 0;
    int distinct = 0;
    for (int r = 0; r < 13; r++) {
        if (cnt[r]) {
            mask |= 1u << r;
            distinct++;
        }
    }
    int top = distinct == 5 ? straight_top(mask) : -1;
    int ranks[5] = {0}, n = 0;
    for (int c = 4; c >= 1; c--)
        for (int r = 12; r >= 0; r--)
            if (cnt[r] == c)
                ranks[n++] = r;
    if (flush)
        return top >= 0 ? make_value(CAT_STRAIGHT_FLUSH, &top, 1)
                        : make_value(CAT_FLUSH, ranks, 5);
    if (top >= 0)
        return make_value(CAT_STRAIGHT, &top, 1);
    /* The two largest groups decide the category. */
    int c0 = cnt[ranks[0]], c1 = n > 1 ? cnt[ranks[1]] : 0;
    int cat = CAT_HIGH;
    if (c0 == 4)
        cat = CAT_QUADS;
    else if (c0 == 3)
        cat = c1 == 2 ? CAT_FULL_HOUSE : CAT_TRIPS;
    else if (c0 == 2)
        cat = c1 == 2 ? CAT_TWO_PAIR : CAT_PAIR;
    return make_value(cat, ranks, n);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void add_class(uint32_t v)
{
    if (nclasses >= FW_EVAL_CLASSES) {
        fprintf(stderr, "eval_gen: more than %d classes\n", FW_EVAL_CLASSES);
        exit(1);
    }
    classes[nclasses++] = v;
}

/* Every five-card rank multiset (counts up to 4), as a non-flush hand. */
static void enum_five(int cnt[13], int r, int left)
{
    if (r == 13) {
        if (left == 0)
            add_class(five_value(cnt, 0));
        return;
    }
    for (int c = 0; c <= 4 && c <= left; c++) {
        cnt[r] = c;
        enum_five(cnt, r + 1, left - c);
    }
    cnt[r] = 0;
}

static uint16_t class_id(uint32_t v)
{
    const uint32_t *p =
        bsearch(&v, classes, (size_t)nclasses, sizeof v, cmp_u32);
    if (!p) {
        fprintf(stderr, "eval_gen: value %08x is no class\n", (unsigned)v);
        exit(1);
    }
    return (uint16_t)(p - classes + 1);
}

/* The best non-flush five-card sub-multiset of cnt, found by recursion. */
static void best_sub(const int cnt[13], int sub[13], int r, int left,
                     uint32_t *best)
{
    if (left == 0) {
        uint32_t v = five_value(sub, 0);
        if (v > *best)
            *best = v;
        return;
    }
    if (r == 13)
        return;
    for (int c = 0; c <= cnt[r] && c <= left; c++) {
        sub[r] = c;
        best_sub(cnt, sub, r + 1, left - c, best);
    }
    sub[r] = 0;
}

/* Every rank multiset of 5..7 cards with its key and best class. */
static void enum_multisets(int cnt[13], int r, int total)
{
    if (r == 13) {
        if (total < 5)
            return;
        uint32_t key = 0, pow5 = 1, best = 0;
        for (int i = 0; i < 13; i++, pow5 *= 5)
            key += (uint32_t)cnt[i] * pow5;
        int sub[13] = {0};
        best_sub(cnt, sub, 0, 5, &best);
        if (nkeys >= MAX_KEYS) {
            fprintf(stderr, "eval_gen: too many rank multisets\n");
            exit(1);
        }
        keys[nkeys] = key;
        key_ids[nkeys] = class_id(best);
        nkeys++;
        return;
    }
    for (int c = 0; c <= 4 && total + c <= 7; c++) {
        cnt[r] = c;
        enum_multisets(cnt, r + 1, total + c);
    }
    cnt[r] = 0;
}

static int popcount13(unsigned m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

static void build_flush(void)
{
    for (unsigned m = 0; m < 8192; m++) {
        if (popcount13(m) < 5)
            continue;
        int top = straight_top(m);
        if (top >= 0) {
            flush_tab[m] = class_id(make_value(CAT_STRAIGHT_FLUSH, &top, 1));
            continue;
        }
        int ranks[5], n = 0;
        for (int r = 12; r >= 0 && n < 5; r--)
            if (m & (1u << r))
                ranks[n++] = r;
        flush_tab[m] = class_id(make_value(CAT_FLUSH, ranks, 5));
    }
}

/* Buckets sorted largest first; ties by index so the output is stable. */
static int bucket_size[FW_EVAL_BUCKETS];
static int cmp_bucket(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    if (bucket_size[x] != bucket_size[y])
        return bucket_size[y] - bucket_size[x];
    return x - y;
}

/*
 * Hash and displace: place the buckets largest first, each at the smallest
 * displacement that puts all of its keys in free, distinct slots.
 */
static void build_hash(void)
{
    static int order[FW_EVAL_BUCKETS];
    static int start[FW_EVAL_BUCKETS + 1];
    static int members[MAX_KEYS];
    static uint8_t used[FW_EVAL_RANK_SLOTS];
    uint16_t zero[FW_EVAL_BUCKETS] = {0};

    for (int i = 0; i < nkeys; i++) {
        uint64_t h = (uint64_t)keys[i] * FW_EVAL_HASH_MUL;
        bucket_size[h >> (64 - FW_EVAL_BUCKET_BITS)]++;
    }
    for (unsigned b = 0; b < FW_EVAL_BUCKETS; b++)
        start[b + 1] = start[b] + bucket_size[b];
    int fill[FW_EVAL_BUCKETS];
    memcpy(fill, start, sizeof fill);
    for (int i = 0; i < nkeys; i++) {
        uint64_t h = (uint64_t)keys[i] * FW_EVAL_HASH_MUL;
        members[fill[h >> (64 - FW_EVAL_BUCKET_BITS)]++] = i;
    }
    for (unsigned b = 0; b < FW_EVAL_BUCKETS; b++)
        order[b] = (int)b;
    qsort(order, FW_EVAL_BUCKETS, sizeof order[0], cmp_bucket);

    for (unsigned k = 0; k < FW_EVAL_BUCKETS; k++) {
        int b = order[k];
        if (bucket_size[b] == 0)
            break;
        uint32_t d;
        for (d = 0; d <= 0xFFFF; d++) {
            zero[b] = (uint16_t)d;
            int ok = 1;
            for (int i = start[b]; i < start[b + 1] && ok; i++) {
                uint32_t s = fw__eval_rank_slot(keys[members[i]], zero);
                if (used[s])
                    ok = 0;
                else
                    used[s] = 2; /* tentative */
            }
            for (int i = start[b]; i < start[b + 1]; i++) {
                uint32_t s = fw__eval_rank_slot(keys[members[i]], zero);
                if (used[s] == 2)
                    used[s] = ok ? 1 : 0;
            }
            if (ok)
                break;
        }
        if (d > 0xFFFF) {
            fprintf(stderr,
                    "eval_gen: bucket %d (%d keys) does not fit; change "
                    "the hash constants in eval_tables.h\n",
                    b, bucket_size[b]);
            exit(1);
        }
        disp[b] = (uint16_t)d;
    }
    /* Check the result independently of the bookkeeping above. */
    static int owner[FW_EVAL_RANK_SLOTS];
    for (int i = 0; i < nkeys; i++) {
        uint32_t s = fw__eval_rank_slot(keys[i], disp);
        if (owner[s]) {
            fprintf(stderr, "eval_gen: slot %u taken twice\n", (unsigned)s);
            exit(1);
        }
        owner[s] = i + 1;
        rank_tab[s] = key_ids[i];
    }
}

static void write_u16(FILE *f, const char *name, const char *size,
                      const uint16_t *a, size_t n)
{
    fprintf(f, "const uint16_t %s[%s] = {", name, size);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%s%u,", i % 12 ? " " : "\n    ", (unsigned)a[i]);
    fprintf(f, "\n};\n\n");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: eval_gen OUT.c\n");
        return 2;
    }

    int cnt[13] = {0};
    enum_five(cnt, 0, 5);
    for (unsigned m = 0; m < 8192; m++) {
        if (popcount13(m) != 5)
            continue;
        int five[13] = {0};
        for (int r = 0; r < 13; r++)
            five[r] = (m >> r) & 1;
        add_class(five_value(five, 1));
    }
    if (nclasses != FW_EVAL_CLASSES) {
        fprintf(stderr, "eval_gen: %d classes\n", nclasses);
        return 1;
    }
    qsort(classes, (size_t)nclasses, sizeof classes[0], cmp_u32);
    for (int i = 1; i < nclasses; i++) {
        if (classes[i] == classes[i - 1]) {
            fprintf(stderr, "eval_gen: duplicate class\n");
            return 1;
        }
    }

    enum_multisets(cnt, 0, 0);
    if (nkeys != MAX_KEYS) {
        fprintf(stderr, "eval_gen: %d rank multisets\n", nkeys);
        return 1;
    }
    build_flush();
    build_hash();

    FILE *f = fopen(argv[1], "w");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fprintf(f, "/* Generated by rules/eval_gen.c; do not edit. */\n"
               "#include \"eval_tables.h\"\n\n");
    fprintf(f, "const uint64_t fw__eval_card_key[52] = {");
    for (int c = 0; c < 52; c++) {
        uint64_t k = UINT64_C(1) << (48 + 4 * (c & 3));
        uint32_t p = 1;
        for (int r = 0; r < c >> 2; r++)
            p *= 5;
        k |= p;
        fprintf(f, "%sUINT64_C(0x%016llx),", c % 3 ? " " : "\n    ",
                (unsigned long long)k);
    }
    fprintf(f, "\n};\n\n");
    write_u16(f, "fw__eval_flush", "8192", flush_tab, 8192);
    write_u16(f, "fw__eval_disp", "FW_EVAL_BUCKETS", disp, FW_EVAL_BUCKETS);
    write_u16(f, "fw__eval_rank", "FW_EVAL_RANK_SLOTS", rank_tab,
              FW_EVAL_RANK_SLOTS);
    fprintf(f, "const uint32_t fw__eval_value[FW_EVAL_CLASSES + 1] = {"
               "\n    0x00000000,");
    for (int i = 0; i < nclasses; i++)
        fprintf(f, "%s0x%08x,", (i + 1) % 6 ? " " : "\n    ",
                (unsigned)classes[i]);
    fprintf(f, "\n};\n\n");
    fprintf(f, "const size_t fw__eval_table_bytes =\n"
               "    sizeof fw__eval_card_key + sizeof fw__eval_flush +\n"
               "    sizeof fw__eval_disp + sizeof fw__eval_rank +\n"
               "    sizeof fw__eval_value;\n");
    if (fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
