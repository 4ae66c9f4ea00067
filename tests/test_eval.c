/*
 * test_eval.c - cards, the hand evaluators and hand names (rules/cards.c,
 * rules/eval.c).
 *
 * Besides hands written out by hand, the evaluators are checked in two
 * independent ways: exhaustively against the published counts of every five-
 * and seven-card hand, and on random hands against a slow reference written
 * here (best of all five-card subsets, each classified by counting ranks).
 * The reference has its own value layout; an evaluator agrees with it when
 * the categories match, the names match, and sorting a sample by either
 * value gives the same order with the same ties. Random hands come from a
 * fixed-seed xorshift, so every run sees the same hands.
 */
#include "harness.h"
#include "rules.h"

#include <stdint.h>

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

static uint64_t rng_state;

static void rng_seed(uint64_t seed)
{
    rng_state = seed ? seed : 1;
}

static uint64_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* n distinct cards, ranks from lowest_rank up. */
static void deal(fw_card *out, int n, int lowest_rank)
{
    uint64_t used = 0;
    unsigned lowest = (unsigned)lowest_rank * 4;
    for (int i = 0; i < n; i++) {
        unsigned c;
        do {
            c = lowest + (unsigned)(rng_next() % (52 - lowest));
        } while (used >> c & 1);
        used |= UINT64_C(1) << c;
        out[i] = (fw_card)c;
    }
}

/* Parses "Ah Kd 7c" into out (at most max cards); returns the count or -1. */
static int parse_cards(const char *text, fw_card *out, int max)
{
    int n = 0;
    while (*text) {
        if (*text == ' ') {
            text++;
            continue;
        }
        char two[3] = {text[0], text[1], '\0'};
        if (text[1] == '\0' || n == max || fw_card_parse(two, &out[n]))
            return -1;
        n++;
        text += 2;
    }
    return n;
}

static fw_hand_value high(const char *text)
{
    fw_card c[8];
    int n = parse_cards(text, c, 8);
    return n < 0 ? 0 : fw_eval_high(c, n);
}

static fw_hand_value shortd(const char *text)
{
    fw_card c[8];
    int n = parse_cards(text, c, 8);
    return n < 0 ? 0 : fw_eval_short_deck(c, n);
}

static fw_hand_value omaha(const char *hole_text, const char *board_text)
{
    fw_card hole[6], board[6];
    int nh = parse_cards(hole_text, hole, 6);
    int nb = parse_cards(board_text, board, 6);
    return nh < 0 || nb < 0 ? 0 : fw_eval_omaha(hole, nh, board, nb);
}

/* The name of v, or "<EINVAL>" etc. when fw_hand_name fails. */
static const char *name_of(fw_hand_value v)
{
    static char buf[64];
    int rc = fw_hand_name(v, buf, sizeof buf);
    if (rc != FW_OK)
        snprintf(buf, sizeof buf, "<%s>", fw_err_name(rc));
    return buf;
}

/* ------------------------------------------------------------------ */
/* The reference evaluator: slow and obvious                            */
/* ------------------------------------------------------------------ */

static const char *const ref_singular[13] = {
    "Two",  "Three", "Four", "Five",  "Six",  "Seven", "Eight",
    "Nine", "Ten",   "Jack", "Queen", "King", "Ace"};
static const char *const ref_plural[13] = {
    "Twos",  "Threes", "Fours", "Fives",  "Sixes", "Sevens", "Eights",
    "Nines", "Tens",   "Jacks", "Queens", "Kings", "Aces"};

/*
 * The reference's value: the category's rank in the game's order in bits
 * 24 and up, then the tie-break ranks four bits each, groups by size and then
 * by rank, most significant first. The category itself is kept apart.
 */
typedef struct ref_hand {
    uint32_t value;
    int category;
    int r1, r2; /* first two tie-break ranks, for the name */
} ref_hand;

static ref_hand ref_five(const fw_card *c, int short_deck)
{
    int cnt[13] = {0};
    int flush = 1;
    for (int i = 0; i < 5; i++) {
        cnt[fw_card_rank(c[i])]++;
        if (fw_card_suit(c[i]) != fw_card_suit(c[0]))
            flush = 0;
    }
    int order[5] = {0}, n = 0;
    for (int k = 4; k >= 1; k--)
        for (int r = 12; r >= 0; r--)
            if (cnt[r] == k)
                order[n++] = r;
    int top = -1;
    if (n == 5) {
        if (order[0] - order[4] == 4)
            top = order[0];
        else if (order[0] == 12 && order[1] == 3 && order[4] == 0)
            top = 3; /* A-2-3-4-5 */
        else if (short_deck && order[0] == 12 && order[1] == 7 && order[4] == 4)
            top = 7; /* A-6-7-8-9 */
    }
    int c0 = cnt[order[0]], c1 = n > 1 ? cnt[order[1]] : 0;
    int cat;
    if (top >= 0 && flush)
        cat = FW_STRAIGHT_FLUSH;
    else if (c0 == 4)
        cat = FW_FOUR_OF_A_KIND;
    else if (c0 == 3 && c1 == 2)
        cat = FW_FULL_HOUSE;
    else if (flush)
        cat = FW_FLUSH;
    else if (top >= 0)
        cat = FW_STRAIGHT;
    else if (c0 == 3)
        cat = FW_THREE_OF_A_KIND;
    else if (c0 == 2 && c1 == 2)
        cat = FW_TWO_PAIR;
    else if (c0 == 2)
        cat = FW_ONE_PAIR;
    else
        cat = FW_HIGH_CARD;

    int place = cat;
    if (short_deck && cat == FW_FLUSH)
        place = FW_FULL_HOUSE;
    else if (short_deck && cat == FW_FULL_HOUSE)
        place = FW_FLUSH;
    ref_hand h = {(uint32_t)place << 24, cat, order[0], n > 1 ? order[1] : 0};
    if (top >= 0) {
        h.value |= (uint32_t)top << 16;
        h.r1 = top;
    } else {
        for (int i = 0; i < n; i++)
            h.value |= (uint32_t)order[i] << (16 - 4 * i);
    }
    return h;
}

/* Best of every five-card subset of n cards. */
static ref_hand ref_best(const fw_card *c, int n, int short_deck)
{
    ref_hand best = {0, -1, 0, 0};
    for (unsigned m = 0; m < (1u << n); m++) {
        int bits = 0;
        for (unsigned x = m; x; x &= x - 1)
            bits++;
        if (bits != 5)
            continue;
        fw_card five[5] = {0};
        int k = 0;
        for (int i = 0; i < n; i++)
            if (m >> i & 1)
                five[k++] = c[i];
        ref_hand h = ref_five(five, short_deck);
        if (h.value > best.value)
            best = h;
    }
    return best;
}

/* Best of two hole cards with three board cards. */
static ref_hand ref_omaha(const fw_card *hole, int nhole, const fw_card *board,
                          int nboard)
{
    ref_hand best = {0, -1, 0, 0};
    for (int a = 0; a < nhole; a++)
        for (int b = a + 1; b < nhole; b++)
            for (int x = 0; x < nboard; x++)
                for (int y = x + 1; y < nboard; y++)
                    for (int z = y + 1; z < nboard; z++) {
                        fw_card five[5] = {hole[a], hole[b], board[x], board[y],
                                           board[z]};
                        ref_hand h = ref_five(five, 0);
                        if (h.value > best.value)
                            best = h;
                    }
    return best;
}

static void ref_name(const ref_hand *h, char *buf, size_t size)
{
    switch (h->category) {
    case FW_HIGH_CARD:
        snprintf(buf, size, "High Card, %s", ref_singular[h->r1]);
        break;
    case FW_ONE_PAIR:
        snprintf(buf, size, "Pair of %s", ref_plural[h->r1]);
        break;
    case FW_TWO_PAIR:
        snprintf(buf, size, "Two Pair, %s and %s", ref_plural[h->r1],
                 ref_plural[h->r2]);
        break;
    case FW_THREE_OF_A_KIND:
        snprintf(buf, size, "Three of a Kind, %s", ref_plural[h->r1]);
        break;
    case FW_STRAIGHT:
        snprintf(buf, size, "Straight, %s High", ref_singular[h->r1]);
        break;
    case FW_FLUSH:
        snprintf(buf, size, "Flush, %s High", ref_singular[h->r1]);
        break;
    case FW_FULL_HOUSE:
        snprintf(buf, size, "Full House, %s full of %s", ref_plural[h->r1],
                 ref_plural[h->r2]);
        break;
    case FW_FOUR_OF_A_KIND:
        snprintf(buf, size, "Four of a Kind, %s", ref_plural[h->r1]);
        break;
    case FW_STRAIGHT_FLUSH:
        if (h->r1 == 12)
            snprintf(buf, size, "Royal Flush");
        else
            snprintf(buf, size, "Straight Flush, %s High", ref_singular[h->r1]);
        break;
    default:
        snprintf(buf, size, "?");
    }
}

typedef struct pair {
    uint32_t ref;
    uint32_t got;
} pair;

static int cmp_pair(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->ref != y->ref)
        return x->ref < y->ref ? -1 : 1;
    return (x->got > y->got) - (x->got < y->got);
}

/*
 * Sorts the sample by reference value and returns the index of the first
 * neighbour pair where the evaluator disagrees about order or ties, or -1.
 */
static long order_mismatch(pair *p, size_t n)
{
    qsort(p, n, sizeof *p, cmp_pair);
    for (size_t i = 0; i + 1 < n; i++) {
        int ref_tie = p[i].ref == p[i + 1].ref;
        int got_tie = p[i].got == p[i + 1].got;
        if (ref_tie != got_tie || (!ref_tie && p[i].got > p[i + 1].got))
            return (long)i;
    }
    return -1;
}

/*
 * Steps the strictly increasing cards c[0..k-1] (each below 52) to the next
 * combination in lexicographic order; returns 0 after the last one. Mostly
 * only c[k-1] changes, so walking all combinations costs next to nothing.
 */
static int next_combination(fw_card *c, int k)
{
    int i = k - 1;
    while (i >= 0 && c[i] == 52 - k + i)
        i--;
    if (i < 0)
        return 0;
    c[i]++;
    for (int j = i + 1; j < k; j++)
        c[j] = (fw_card)(c[j - 1] + 1);
    return 1;
}

static void print_cards(const char *what, const fw_card *c, int n)
{
    fprintf(stderr, "  %s:", what);
    for (int i = 0; i < n; i++) {
        char s[3];
        fw_card_str(c[i], s);
        fprintf(stderr, " %s", s);
    }
    fprintf(stderr, "\n");
}

/* ------------------------------------------------------------------ */
/* Cards                                                                */
/* ------------------------------------------------------------------ */

TEST(card_parse)
{
    fw_card c = 0;
    ASSERT_INT_EQ(fw_card_parse("2c", &c), FW_OK);
    ASSERT_INT_EQ(c, 0);
    ASSERT_INT_EQ(fw_card_parse("As", &c), FW_OK);
    ASSERT_INT_EQ(c, 51);
    ASSERT_INT_EQ(fw_card_parse("Ah", &c), FW_OK);
    ASSERT_INT_EQ(c, fw_card_make(FW_RANK_ACE, 2));
    ASSERT_INT_EQ(fw_card_parse("td", &c), FW_OK);
    ASSERT_INT_EQ(c, fw_card_make(8, 1));
    ASSERT_INT_EQ(fw_card_parse("TD", &c), FW_OK);
    ASSERT_INT_EQ(c, fw_card_make(8, 1));
    ASSERT_INT_EQ(fw_card_parse("qS", &c), FW_OK);
    ASSERT_INT_EQ(c, fw_card_make(10, 3));
    ASSERT_INT_EQ(fw_card_parse("7H", NULL), FW_OK);

    /* Every card survives str -> parse, in both cases. */
    for (int i = 0; i < 52; i++) {
        char s[3];
        fw_card_str((fw_card)i, s);
        ASSERT_INT_EQ(strlen(s), 2);
        ASSERT_INT_EQ(fw_card_parse(s, &c), FW_OK);
        ASSERT_INT_EQ(c, i);
        s[0] = (char)(s[0] >= 'A' && s[0] <= 'Z' ? s[0] - 'A' + 'a' : s[0]);
        s[1] = (char)(s[1] - 'a' + 'A');
        ASSERT_INT_EQ(fw_card_parse(s, &c), FW_OK);
        ASSERT_INT_EQ(c, i);
    }
}

/* A card is exactly two characters: trailing characters are an error. */
TEST(card_parse_bad)
{
    static const char *const bad[] = {
        "1x", "",   "A",  "Ahh", "Ah ", " Ah", "10h",  "1h",    "0c",
        "Ax", "Xh", "hA", "AA",  "22",  "a",   "\xff", "A\xff", "Zz",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        fw_card c = 7;
        ASSERT_INT_EQ(fw_card_parse(bad[i], &c), FW_EPARSE);
        ASSERT_INT_EQ(c, FW_CARD_NONE);
        ASSERT_INT_EQ(fw_card_parse(bad[i], NULL), FW_EPARSE);
    }
    fw_card c = 7;
    ASSERT_INT_EQ(fw_card_parse(NULL, &c), FW_EPARSE);
    ASSERT_INT_EQ(c, FW_CARD_NONE);
}

TEST(card_str)
{
    char s[3] = "xx";
    fw_card_str(fw_card_make(FW_RANK_ACE, 2), s);
    ASSERT_STR_EQ(s, "Ah");
    fw_card_str(fw_card_make(8, 1), s);
    ASSERT_STR_EQ(s, "Td");
    fw_card_str(0, s);
    ASSERT_STR_EQ(s, "2c");
    fw_card_str(51, s);
    ASSERT_STR_EQ(s, "As");
    fw_card_str(52, s);
    ASSERT_STR_EQ(s, "??");
    fw_card_str(FW_CARD_NONE, s);
    ASSERT_STR_EQ(s, "??");
    fw_card_str(0, NULL); /* must not crash */
}

/* ------------------------------------------------------------------ */
/* Known hands                                                          */
/* ------------------------------------------------------------------ */

TEST(known_hands)
{
    static const struct {
        const char *cards;
        int category;
        const char *name;
    } cases[] = {
        {"As Kd 9h 7c 4s 3d 2h", FW_HIGH_CARD, "High Card, Ace"},
        {"7s 5d 4h 3c 2s", FW_HIGH_CARD, "High Card, Seven"},
        {"Kh Kd 9h 7c 4s 3d 2h", FW_ONE_PAIR, "Pair of Kings"},
        {"Kh Kd 7h 7c 4s 3d 2h", FW_TWO_PAIR, "Two Pair, Kings and Sevens"},
        {"Kh Kd 7h 7c 4s 4d 2h", FW_TWO_PAIR, "Two Pair, Kings and Sevens"},
        {"7h 7d 7s Kc 4s 3d 2h", FW_THREE_OF_A_KIND, "Three of a Kind, Sevens"},
        {"9h 8d 7s 6c 5s 3d 2h", FW_STRAIGHT, "Straight, Nine High"},
        {"Ah 2d 3s 4c 5s Kd Qh", FW_STRAIGHT, "Straight, Five High"},
        {"Ah Kd Qs Jc Ts 9d 8h", FW_STRAIGHT, "Straight, Ace High"},
        {"6h 2d 3s 4c 5s Ad Ah", FW_STRAIGHT, "Straight, Six High"},
        {"Ah 9h 7h 4h 2h Kd Qc", FW_FLUSH, "Flush, Ace High"},
        {"Ah 9h 7h 4h 2h 3h Qh", FW_FLUSH, "Flush, Ace High"},
        {"Ah Ad As Th Tc 3d 2h", FW_FULL_HOUSE,
         "Full House, Aces full of Tens"},
        {"Kh Kd Ks 7h 7c 7s 2h", FW_FULL_HOUSE,
         "Full House, Kings full of Sevens"},
        {"3h 3d 3s Ah Ac", FW_FULL_HOUSE, "Full House, Threes full of Aces"},
        {"Qh Qd Qs Qc 4s 3d 2h", FW_FOUR_OF_A_KIND, "Four of a Kind, Queens"},
        {"Qh Qd Qs Qc As Ad Ah", FW_FOUR_OF_A_KIND, "Four of a Kind, Queens"},
        {"9h 8h 7h 6h 5h 3d 2h", FW_STRAIGHT_FLUSH,
         "Straight Flush, Nine High"},
        {"Ah 2h 3h 4h 5h", FW_STRAIGHT_FLUSH, "Straight Flush, Five High"},
        {"Ah Kh Qh Jh Th 3d 2h", FW_STRAIGHT_FLUSH, "Royal Flush"},
        {"Ah Kh Qh Jh Th 9h 8h", FW_STRAIGHT_FLUSH, "Royal Flush"},
        /* A straight flush hidden below a higher plain straight. */
        {"9c 8c 7c 6c 5c Td Jd", FW_STRAIGHT_FLUSH,
         "Straight Flush, Nine High"},
        /* A flush beats the straight and the two pair it also makes. */
        {"Ks Qs 9s 4s 2s Kd Qd", FW_FLUSH, "Flush, King High"},
        {"Ks Qs Js Ts 2s 9d Qd", FW_FLUSH, "Flush, King High"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fw_hand_value v = high(cases[i].cards);
        if (v == 0)
            fprintf(stderr, "  hand %s\n", cases[i].cards);
        ASSERT_INT_NE(v, 0);
        ASSERT_INT_EQ(fw_hand_category(v), cases[i].category);
        ASSERT_STR_EQ(name_of(v), cases[i].name);
    }
}

/*
 * rising[] is strictly increasing, from the worst hand to the best; each
 * pair in ties[] is equal.
 */
TEST(kickers_and_ties)
{
    /* clang-format off */
    static const char *const rising[] = {
        "7s 5d 4h 3c 2s",   /* the worst hand */
        "8s 5d 4h 3c 2s",
        "8s 6d 4h 3c 2s",
        "As Kd Qh Jc 9s",   /* the best high card */
        "2s 2d 3h 4c 5s",   /* the worst pair */
        "Ks Kd 9h 7c 4s",
        "Ks Kd Th 7c 4s",
        "Ks Kd Ah 3c 2s",
        "As Ad Kh Qc Js",
        "3s 3d 2h 2c 4s",   /* the worst two pair */
        "Ks Kd 7h 7c 2s",
        "Ks Kd 7h 7c Qs",
        "Ks Kd 8h 8c 2s",
        "As Ad Kh Kc Qs",
        "2s 2d 2h 3c 4s",   /* the worst trips */
        "7s 7d 7h Ac Ks",
        "8s 8d 8h 2c 3s",
        "Ah 2d 3s 4c 5s",   /* the wheel */
        "6h 2d 3s 4c 5s",
        "Ah Kd Qs Jc Ts",   /* broadway */
        "7h 5h 4h 3h 2h",   /* the worst flush */
        "Ah Qh 9h 7h 2h",
        "Ah Kh 4h 3h 2h",
        "Ah Kh Qh Jh 9h",
        "2s 2d 2h 3c 3s",   /* the worst full house */
        "2s 2d 2h Ac As",
        "3s 3d 3h 2c 2s",
        "As Ad Ah Kc Ks",
        "2s 2d 2h 2c 3s",   /* the worst quads */
        "2s 2d 2h 2c As",
        "3s 3d 3h 3c 2s",
        "As Ad Ah Ac Ks",
        "Ah 2h 3h 4h 5h",   /* the steel wheel */
        "6h 2h 3h 4h 5h",
        "Kh Qh Jh Th 9h",
        "Ah Kh Qh Jh Th",   /* royal */
    };
    /* clang-format on */
    fw_hand_value prev = 0;
    for (size_t i = 0; i < sizeof rising / sizeof rising[0]; i++) {
        fw_hand_value v = high(rising[i]);
        if (!(prev < v))
            fprintf(stderr, "  at %s\n", rising[i]);
        ASSERT_INT_LT(prev, v);
        prev = v;
    }

    static const char *const ties[][2] = {
        /* The board plays: the hole cards are too small to count. */
        {"As Ks Qd Jc 9h 2c 3d", "As Ks Qd Jc 9h 2h 4d"},
        /* Fifth kicker decides nothing beyond five cards. */
        {"Kh Kd 9h 7c 4s 3d 2h", "Kh Kd 9h 7c 4s 3d 2s"},
        /* Third pair is only a kicker. */
        {"Kh Kd 7h 7c 4s 4d 2h", "Kh Kd 7h 7c 4s 3d 2h"},
        /* Straights tie by top card only. */
        {"9h 8d 7s 6c 5s", "9c 8c 7d 6h 5h 2c 2d"},
        /* Suits never break ties. */
        {"Ah 9h 7h 4h 2h", "As 9s 7s 4s 2s"},
        {"Qh Qd Qs Qc As Ad Ah", "Qh Qd Qs Qc As 2d 3h"},
        {"Kh Kd Ks 7h 7c 7s 2h", "Kh Kd Ks 7h 7c 2s 3h"},
    };
    for (size_t i = 0; i < sizeof ties / sizeof ties[0]; i++) {
        fw_hand_value a = high(ties[i][0]), b = high(ties[i][1]);
        ASSERT_INT_NE(a, 0);
        ASSERT_INT_EQ(a, b);
    }

    /* Hands of 5, 6 and 7 cards compare with each other. */
    ASSERT_INT_EQ(high("As Ks Qs Js 9d"), high("As Ks Qs Js 9d 2c"));
    ASSERT_INT_EQ(high("As Ks Qs Js 9d"), high("As Ks Qs Js 9d 2c 3c"));
    ASSERT_INT_LT(high("As Ks Qs Js 9d 2c"), high("As Ks Qs Js 9d 2s"));
}

TEST(hand_names)
{
    char want[64];
    /* Every plural through the pairs, every singular through the high
     * cards (seven and up), straights (five and up) and flushes. */
    for (int r = 0; r < 13; r++) {
        fw_card c[5] = {fw_card_make(r, 0), fw_card_make(r, 1)};
        int k = 2;
        for (int o = 12; k < 5; o--) {
            if (o == r)
                continue;
            c[k] = fw_card_make(o, k % 4);
            k++;
        }
        snprintf(want, sizeof want, "Pair of %s", ref_plural[r]);
        ASSERT_STR_EQ(name_of(fw_eval_high(c, 5)), want);
    }
    ASSERT_STR_EQ(name_of(high("Ah 2d 3s 4c 6s")), "High Card, Ace");
    ASSERT_STR_EQ(name_of(high("7h 2d 3s 4c 6s")), "High Card, Seven");
    ASSERT_STR_EQ(name_of(high("8h 2d 3s 4c 6s")), "High Card, Eight");
    ASSERT_STR_EQ(name_of(high("Jh 2d 3s 4c 6s")), "High Card, Jack");
    ASSERT_STR_EQ(name_of(high("Qh 2d 3s 4c 6s")), "High Card, Queen");
    ASSERT_STR_EQ(name_of(high("Kh 2d 3s 4c 6s")), "High Card, King");
    for (int top = 4; top <= 12; top++) {
        fw_card c[5];
        for (int i = 0; i < 5; i++)
            c[i] = fw_card_make(top - i, i == 0 ? 1 : 0);
        snprintf(want, sizeof want, "Straight, %s High", ref_singular[top]);
        ASSERT_STR_EQ(name_of(fw_eval_high(c, 5)), want);
        c[0] = fw_card_make(top, 0);
        if (top == 12)
            snprintf(want, sizeof want, "Royal Flush");
        else
            snprintf(want, sizeof want, "Straight Flush, %s High",
                     ref_singular[top]);
        ASSERT_STR_EQ(name_of(fw_eval_high(c, 5)), want);
    }
    ASSERT_STR_EQ(name_of(high("Th 2h 3h 4h 6h")), "Flush, Ten High");
    ASSERT_STR_EQ(name_of(high("9h 2h 3h 4h 6h")), "Flush, Nine High");
    ASSERT_STR_EQ(name_of(high("7h 2h 3h 4h 5d 6h")), "Flush, Seven High");
    ASSERT_STR_EQ(name_of(high("2h 2d 2s 4c 4s")),
                  "Full House, Twos full of Fours");
    ASSERT_STR_EQ(name_of(high("6h 6d 6s 9c 9s")),
                  "Full House, Sixes full of Nines");
    ASSERT_STR_EQ(name_of(high("Jh Jd 3s 3c 9s")),
                  "Two Pair, Jacks and Threes");
    ASSERT_STR_EQ(name_of(high("5h 5d 5s 5c 9s")), "Four of a Kind, Fives");
    ASSERT_STR_EQ(name_of(high("8h 8d 8s Tc 9s")), "Three of a Kind, Eights");

    /* Buffers: cut short like snprintf, always terminated. */
    fw_hand_value v = high("Kh Kd 7h 7c 4s");
    char buf[8];
    memset(buf, 'x', sizeof buf);
    ASSERT_INT_EQ(fw_hand_name(v, buf, 5), FW_OK);
    ASSERT_STR_EQ(buf, "Two ");
    ASSERT_INT_EQ(buf[5], 'x');
    ASSERT_INT_EQ(fw_hand_name(v, buf, 1), FW_OK);
    ASSERT_STR_EQ(buf, "");
    buf[0] = 'x';
    ASSERT_INT_EQ(fw_hand_name(v, buf, 0), FW_OK);
    ASSERT_INT_EQ(buf[0], 'x');
    ASSERT_INT_EQ(fw_hand_name(v, NULL, 0), FW_OK);
    ASSERT_INT_EQ(fw_hand_name(v, NULL, 8), FW_EINVAL);

    /* The longest names take 34 bytes. */
    char big[34];
    ASSERT_INT_EQ(fw_hand_name(high("Qh Qd Qs 8c 8s"), big, sizeof big), FW_OK);
    ASSERT_STR_EQ(big, "Full House, Queens full of Eights");
    ASSERT_INT_EQ(fw_hand_name(high("3h 3d 3s Qc Qs"), big, sizeof big - 1),
                  FW_OK);
    ASSERT_STR_EQ(big, "Full House, Threes full of Queen");
}

TEST(invalid_values)
{
    char buf[16] = "junk";
    ASSERT_INT_EQ(fw_hand_name(0, buf, sizeof buf), FW_EINVAL);
    ASSERT_STR_EQ(buf, "");
    ASSERT_INT_EQ(fw_hand_category(0), -1);
    ASSERT_INT_EQ(fw_hand_category(0xFFFFFFFFu), -1);
    ASSERT_INT_EQ(fw_hand_name(0xFFFFFFFFu, buf, sizeof buf), FW_EINVAL);
}

TEST(invalid_input)
{
    fw_card c[8];
    ASSERT_INT_EQ(parse_cards("As Ks Qs Js Ts 9s 8s 7s", c, 8), 8);
    ASSERT_INT_EQ(fw_eval_high(c, 8), 0);
    ASSERT_INT_EQ(fw_eval_high(c, 4), 0);
    ASSERT_INT_EQ(fw_eval_high(c, 0), 0);
    ASSERT_INT_EQ(fw_eval_high(c, -1), 0);
    ASSERT_INT_EQ(fw_eval_high(NULL, 7), 0);
    ASSERT_INT_NE(fw_eval_high(c, 5), 0);

    /* Duplicates, anywhere in the hand. */
    ASSERT_INT_EQ(high("As Ks Qs Js As"), 0);
    ASSERT_INT_EQ(high("As Ks Qs Js Ts 2c 2c"), 0);
    ASSERT_INT_EQ(high("2c Ks Qs Js Ts 9d 2c"), 0);

    /* Cards out of range. */
    static const fw_card bad_cards[] = {52, 53, 63, 64, 127, 200, FW_CARD_NONE};
    for (size_t b = 0; b < sizeof bad_cards / sizeof bad_cards[0]; b++) {
        for (int pos = 0; pos < 7; pos++) {
            ASSERT_INT_EQ(parse_cards("As Ks Qs Js Ts 6c 7d", c, 8), 7);
            ASSERT_INT_NE(fw_eval_high(c, 7), 0);
            ASSERT_INT_NE(fw_eval_short_deck(c, 7), 0);
            c[pos] = bad_cards[b];
            ASSERT_INT_EQ(fw_eval_high(c, 7), 0);
            ASSERT_INT_EQ(fw_eval_short_deck(c, 7), 0);
        }
    }

    /* Omaha: counts, duplicates across hole and board, bad cards. */
    fw_card hole[6], board[6];
    ASSERT_INT_EQ(parse_cards("As Ks Qd Jd 9h", hole, 6), 5);
    ASSERT_INT_EQ(parse_cards("2c 3c 4c 5h 6h", board, 6), 5);
    ASSERT_INT_NE(fw_eval_omaha(hole, 4, board, 5), 0);
    ASSERT_INT_NE(fw_eval_omaha(hole, 5, board, 3), 0);
    ASSERT_INT_EQ(fw_eval_omaha(hole, 3, board, 5), 0);
    ASSERT_INT_EQ(fw_eval_omaha(hole, 2, board, 5), 0);
    ASSERT_INT_EQ(fw_eval_omaha(hole, 6, board, 5), 0);
    ASSERT_INT_EQ(fw_eval_omaha(hole, 4, board, 2), 0);
    ASSERT_INT_EQ(fw_eval_omaha(hole, 4, board, 6), 0);
    ASSERT_INT_EQ(fw_eval_omaha(hole, 4, board, -1), 0);
    ASSERT_INT_EQ(fw_eval_omaha(NULL, 4, board, 5), 0);
    ASSERT_INT_EQ(fw_eval_omaha(hole, 4, NULL, 5), 0);
    ASSERT_INT_EQ(omaha("As Ks Qd Jd", "2c 3c As"), 0);
    ASSERT_INT_EQ(omaha("As Ks Qd As", "2c 3c 4c"), 0);
    ASSERT_INT_EQ(omaha("As Ks Qd Jd", "2c 3c 2c"), 0);
    hole[2] = 52;
    ASSERT_INT_EQ(fw_eval_omaha(hole, 4, board, 5), 0);
    hole[2] = fw_card_make(10, 1);
    board[4] = FW_CARD_NONE;
    ASSERT_INT_EQ(fw_eval_omaha(hole, 4, board, 5), 0);

    /* Short deck: counts, and no card below the six. */
    ASSERT_INT_EQ(shortd("As Ks Qs Js"), 0);
    ASSERT_INT_EQ(shortd("As Ks Qs Js Ts 9s 8s 7s"), 0);
    ASSERT_INT_EQ(fw_eval_short_deck(NULL, 5), 0);
    ASSERT_INT_EQ(shortd("As Ks Qs Js 5s"), 0);
    ASSERT_INT_EQ(shortd("As Ks Qs Js Ts 9d 2c"), 0);
    ASSERT_INT_EQ(shortd("As Ks Qs Js Ts 9d 9d"), 0);
    ASSERT_INT_NE(shortd("As Ks Qs Js Ts 9d 6c"), 0);
}

/* ------------------------------------------------------------------ */
/* Omaha                                                                */
/* ------------------------------------------------------------------ */

TEST(omaha_rules)
{
    /* Four hearts in the hand and one on the board: no flush. */
    fw_hand_value v = omaha("Ah Kh 7h 2h", "Qh 9c 4d 3s Td");
    ASSERT_INT_EQ(fw_hand_category(v), FW_HIGH_CARD);
    ASSERT_STR_EQ(name_of(v), "High Card, Ace");
    /* Two hearts in hand and three on board: a flush. */
    v = omaha("Ah Kh 7c 2c", "Qh 9h 4h 3s Td");
    ASSERT_STR_EQ(name_of(v), "Flush, Ace High");
    /* Four hearts on board and one in hand: no flush. */
    v = omaha("Ah Kc 7c 2d", "Qh 9h 4h 3h Td");
    ASSERT_INT_EQ(fw_hand_category(v), FW_HIGH_CARD);
    /* Quads on board: the hand uses only three of them. */
    v = omaha("Ah Kc 7c 2d", "Qh Qs Qd Qc Td");
    ASSERT_STR_EQ(name_of(v), "Three of a Kind, Queens");
    v = omaha("Ah Kc 7c 7d", "Qh Qs Qd Qc Td");
    ASSERT_STR_EQ(name_of(v), "Full House, Queens full of Sevens");
    /* Two queens in hand and two on board do make quads. */
    v = omaha("Qh Qc 7c 2d", "Qs Qd 7h 3h Td");
    ASSERT_STR_EQ(name_of(v), "Four of a Kind, Queens");
    v = omaha("Qh Jc 8c 2d", "Qs Qd 7h 3h Td");
    ASSERT_STR_EQ(name_of(v), "Three of a Kind, Queens");
    /* A pocket pair with a straight on board is one pair, not two pair
     * or the straight. */
    v = omaha("2c 2d 3c 3d", "Ah Ks Qd Jc Th");
    ASSERT_STR_EQ(name_of(v), "Pair of Threes");
    v = omaha("Ac 9d 3c 4d", "Ah Ks Qd Jc Th");
    ASSERT_STR_EQ(name_of(v), "Pair of Aces");
    v = omaha("Kc 9d 3c 3d", "Ah Ks Qd Jc Th");
    ASSERT_STR_EQ(name_of(v), "Straight, King High");
    /* One hole card cannot make the royal flush alone. */
    v = omaha("As 2c 3c 4c", "Ks Qs Js Ts 5d");
    ASSERT_STR_EQ(name_of(v), "High Card, Ace");
    v = omaha("As Ts 3c 4c", "Ks Qs Js 2d 5d");
    ASSERT_STR_EQ(name_of(v), "Royal Flush");
    /* Three-card and four-card boards (flop, turn). */
    v = omaha("As Ad 3c 4c", "Ah Kd 2c");
    ASSERT_STR_EQ(name_of(v), "Three of a Kind, Aces");
    v = omaha("As Ad 3c 4c", "Ah Kd 2c Kh");
    ASSERT_STR_EQ(name_of(v), "Full House, Aces full of Kings");
    /* PLO5: the fifth hole card counts. */
    v = omaha("2c 7d 9h Js Ah", "Kh Qh 3h 4s 5d");
    ASSERT_STR_EQ(name_of(v), "Flush, Ace High");
    v = fw_eval_omaha(NULL, 0, NULL, 0);
    ASSERT_INT_EQ(v, 0);
    fw_card hole[5], board[5];
    ASSERT_INT_EQ(parse_cards("2c 7d 9h Js Ah", hole, 5), 5);
    ASSERT_INT_EQ(parse_cards("Kh Qh 3h 4s 5d", board, 5), 5);
    ASSERT_INT_EQ(fw_hand_category(fw_eval_omaha(hole, 4, board, 5)),
                  FW_HIGH_CARD);
    /* Omaha and hold'em values compare. */
    ASSERT_INT_EQ(omaha("As Ad 3c 4c", "Ah Kd 2c"), high("As Ad Ah Kd 2c"));
}

/* ------------------------------------------------------------------ */
/* Short deck                                                           */
/* ------------------------------------------------------------------ */

TEST(short_deck)
{
    fw_hand_value flush = shortd("Ah 9h 7h 6h Jh");
    fw_hand_value full = shortd("Ah Ad As Kh Kd");
    ASSERT_INT_EQ(fw_hand_category(flush), FW_FLUSH);
    ASSERT_INT_EQ(fw_hand_category(full), FW_FULL_HOUSE);
    ASSERT_INT_LT(full, flush);
    ASSERT_INT_LT(shortd("6h 6d 6s 7h 7d"), shortd("6h 7h 8h 9h Jh"));
    ASSERT_INT_LT(shortd("Ah Ad As Ac Kd"), shortd("Ah 9h 8h 7h 6h"));
    ASSERT_INT_LT(shortd("Ah Ad As Kc Kd"), shortd("Ah Kd As Ac Ad"));

    /* A-6-7-8-9: the lowest straight, above three of a kind. */
    fw_hand_value low = shortd("Ah 6d 7s 8c 9s");
    ASSERT_INT_EQ(fw_hand_category(low), FW_STRAIGHT);
    ASSERT_STR_EQ(name_of(low), "Straight, Nine High");
    ASSERT_INT_LT(shortd("As Ad Ah Kc Qs"), low);
    ASSERT_INT_LT(low, shortd("Th 6d 7s 8c 9s"));
    ASSERT_INT_EQ(low, shortd("Ah 6d 7s 8c 9s Ks Kd"));
    ASSERT_INT_EQ(low, shortd("Ah 6d 7s 8c 9s 9d 9h"));
    ASSERT_STR_EQ(name_of(shortd("Ah 6d 7s 8c 9s Th Kd")),
                  "Straight, Ten High");
    ASSERT_STR_EQ(name_of(shortd("Ah Kd Qs Jc Ts")), "Straight, Ace High");
    ASSERT_STR_EQ(name_of(shortd("Ah 6h 7h 8h 9h")),
                  "Straight Flush, Nine High");
    ASSERT_STR_EQ(name_of(shortd("Ah 6h 7h 8h 9h Kh Qh")),
                  "Straight Flush, Nine High");
    ASSERT_STR_EQ(name_of(shortd("Ah 6h 7h 8h 9h Th Qh")),
                  "Straight Flush, Ten High");
    ASSERT_STR_EQ(name_of(shortd("Ah Kh Qh Jh Th 9h 6d")), "Royal Flush");
    ASSERT_STR_EQ(name_of(shortd("Ah Ad As Kc Kd")),
                  "Full House, Aces full of Kings");
    ASSERT_STR_EQ(name_of(shortd("Ah Qh 9h 7h 6h 6d 6s")), "Flush, Ace High");
    ASSERT_INT_LT(shortd("Ah 6h 7h 8h 9h"), shortd("Th 6h 7h 8h 9h"));
    ASSERT_INT_LT(shortd("Ah Ad As Ac Kd"), shortd("Ah 6h 7h 8h 9h"));
    /* The same five cards in hold'em: no straight at all. */
    ASSERT_STR_EQ(name_of(high("Ah 6d 7s 8c 9s")), "High Card, Ace");
    /* A-2-3-4-5 cannot be dealt from the short deck. */
    ASSERT_INT_EQ(shortd("Ah 2d 3s 4c 5s"), 0);
    ASSERT_INT_EQ(shortd("Ah 2d 3s 4c 5s 6d 7d"), 0);
}

/* ------------------------------------------------------------------ */
/* Exhaustive counts                                                    */
/* ------------------------------------------------------------------ */

/* One bit per (category, 20 low bits) seen, to count distinct values. */
#define SEEN_BITS ((size_t)FW_HAND_CATEGORIES << 20)

static void seen_mark(uint64_t *seen, fw_hand_value v)
{
    size_t i = (size_t)fw_hand_category(v) << 20 | (v & 0xFFFFFu);
    seen[i / 64] |= UINT64_C(1) << (i % 64);
}

static long seen_count(const uint64_t *seen, int cat)
{
    long n = 0;
    for (size_t w = (size_t)cat << 14; w < (size_t)(cat + 1) << 14; w++)
        for (uint64_t x = seen[w]; x; x &= x - 1)
            n++;
    return n;
}

TEST(five_card_exhaustive)
{
    static const long want[FW_HAND_CATEGORIES] = {
        1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40};
    static const long want_distinct[FW_HAND_CATEGORIES] = {
        1277, 2860, 858, 858, 10, 1277, 156, 156, 10};
    long count[FW_HAND_CATEGORIES] = {0}, bad = 0, total = 0;
    uint64_t *seen = calloc(SEEN_BITS / 64, sizeof *seen);
    ASSERT_TRUE(seen != NULL);
    fw_card c[5] = {0, 1, 2, 3, 4};
    do {
        fw_hand_value v = fw_eval_high(c, 5);
        int cat = fw_hand_category(v);
        if (cat < 0) {
            bad++;
            continue;
        }
        count[cat]++;
        seen_mark(seen, v);
    } while (next_combination(c, 5));
    long distinct = 0;
    for (int i = 0; i < FW_HAND_CATEGORIES; i++) {
        long d = seen_count(seen, i);
        if (count[i] != want[i] || d != want_distinct[i])
            fprintf(stderr, "  category %d: %ld hands, %ld distinct\n", i,
                    count[i], d);
        total += count[i];
        distinct += d;
    }
    free(seen);
    ASSERT_INT_EQ(bad, 0);
    ASSERT_INT_EQ(total, 2598960);
    ASSERT_INT_EQ(distinct, 7462);
    for (int i = 0; i < FW_HAND_CATEGORIES; i++) {
        ASSERT_INT_EQ(count[i], want[i]);
    }
}

/*
 * All 133,784,560 seven-card hands, walked incrementally (next_combination),
 * so the run time is the evaluator's: about 1.5 s in Release, about 10 s
 * under ASan and UBSan at -O0.
 */
TEST(seven_card_exhaustive)
{
    static const long want[FW_HAND_CATEGORIES] = {23294460, 58627800, 31433400,
                                                  6461620,  6180020,  4047644,
                                                  3473184,  224848,   41584};
    /* Distinct seven-card hands per category (4824 in all). */
    static const long want_distinct[FW_HAND_CATEGORIES] = {
        407, 1470, 763, 575, 10, 1277, 156, 156, 10};
    long count[FW_HAND_CATEGORIES] = {0}, bad = 0, total = 0;
    uint64_t *seen = calloc(SEEN_BITS / 64, sizeof *seen);
    ASSERT_TRUE(seen != NULL);
    fw_card c[7] = {0, 1, 2, 3, 4, 5, 6};
    do {
        fw_hand_value v = fw_eval_high(c, 7);
        int cat = fw_hand_category(v);
        if (cat < 0) {
            bad++;
            continue;
        }
        count[cat]++;
        seen_mark(seen, v);
    } while (next_combination(c, 7));
    long distinct = 0;
    for (int i = 0; i < FW_HAND_CATEGORIES; i++) {
        long d = seen_count(seen, i);
        if (count[i] != want[i] || d != want_distinct[i])
            fprintf(stderr, "  category %d: %ld hands, %ld distinct\n", i,
                    count[i], d);
        total += count[i];
        distinct += d;
    }
    free(seen);
    ASSERT_INT_EQ(bad, 0);
    ASSERT_INT_EQ(total, 133784560);
    ASSERT_INT_EQ(distinct, 4824);
    for (int i = 0; i < FW_HAND_CATEGORIES; i++) {
        ASSERT_INT_EQ(count[i], want[i]);
    }
}

/* ------------------------------------------------------------------ */
/* Random hands against the reference                                   */
/* ------------------------------------------------------------------ */

/*
 * Compares one evaluated hand with the reference: same category, same name.
 * Prints the cards and returns 0 on a mismatch.
 */
static int agrees(fw_hand_value got, const ref_hand *ref, const fw_card *c,
                  int n)
{
    char want[64];
    ref_name(ref, want, sizeof want);
    if (got != 0 && fw_hand_category(got) == ref->category &&
        strcmp(name_of(got), want) == 0)
        return 1;
    print_cards("hand", c, n);
    fprintf(stderr, "  got %08x \"%s\", want \"%s\"\n", (unsigned)got,
            name_of(got), want);
    return 0;
}

/* n random hands of ncards each through fw_eval_high or short deck. */
static int check_random(int ncards, size_t n, int short_deck)
{
    pair *p = malloc(n * sizeof *p);
    if (!p)
        return 0;
    for (size_t i = 0; i < n; i++) {
        fw_card c[7];
        deal(c, ncards, short_deck ? 4 : 0);
        ref_hand ref = ref_best(c, ncards, short_deck);
        fw_hand_value got = short_deck ? fw_eval_short_deck(c, ncards)
                                       : fw_eval_high(c, ncards);
        if (!agrees(got, &ref, c, ncards)) {
            free(p);
            return 0;
        }
        p[i].ref = ref.value;
        p[i].got = got;
    }
    long at = order_mismatch(p, n);
    if (at >= 0)
        fprintf(stderr, "  order differs: ref %08x %08x, got %08x %08x\n",
                (unsigned)p[at].ref, (unsigned)p[at + 1].ref,
                (unsigned)p[at].got, (unsigned)p[at + 1].got);
    free(p);
    return at < 0;
}

TEST(random_high_vs_reference)
{
    rng_seed(UINT64_C(0x5EED0001));
    ASSERT_TRUE(check_random(7, 300000, 0));
    ASSERT_TRUE(check_random(6, 100000, 0));
    ASSERT_TRUE(check_random(5, 100000, 0));
}

TEST(random_short_deck_vs_reference)
{
    rng_seed(UINT64_C(0x5EED0002));
    ASSERT_TRUE(check_random(7, 300000, 1));
    ASSERT_TRUE(check_random(6, 100000, 1));
    ASSERT_TRUE(check_random(5, 100000, 1));
}

/* Every short-deck five-card hand, against the reference. */
TEST(short_deck_five_card_exhaustive)
{
    size_t n = 376992, k = 0; /* 36 choose 5 */
    pair *p = malloc(n * sizeof *p);
    ASSERT_TRUE(p != NULL);
    fw_card c[5] = {16, 17, 18, 19, 20}; /* from the six of clubs */
    int ok = 1;
    do {
        ref_hand ref = ref_five(c, 1);
        fw_hand_value got = fw_eval_short_deck(c, 5);
        ok = agrees(got, &ref, c, 5) && k < n;
        if (ok) {
            p[k].ref = ref.value;
            p[k].got = got;
            k++;
        }
    } while (ok && next_combination(c, 5));
    long at = ok ? order_mismatch(p, k) : 0;
    free(p);
    ASSERT_TRUE(ok);
    ASSERT_INT_EQ(k, n);
    ASSERT_INT_EQ(at, -1);
}

/* PLO4 and PLO5 on flops, turns and rivers. */
TEST(random_omaha_vs_reference)
{
    rng_seed(UINT64_C(0x5EED0003));
    for (int nhole = 4; nhole <= 5; nhole++) {
        size_t n = nhole == 4 ? 100000 : 50000;
        pair *p = malloc(n * sizeof *p);
        ASSERT_TRUE(p != NULL);
        int ok = 1;
        for (size_t i = 0; i < n && ok; i++) {
            fw_card c[10];
            int nboard = 3 + (int)(rng_next() % 3);
            deal(c, nhole + nboard, 0);
            ref_hand ref = ref_omaha(c, nhole, c + nhole, nboard);
            fw_hand_value got = fw_eval_omaha(c, nhole, c + nhole, nboard);
            ok = agrees(got, &ref, c, nhole + nboard);
            p[i].ref = ref.value;
            p[i].got = got;
        }
        long at = ok ? order_mismatch(p, n) : 0;
        free(p);
        ASSERT_TRUE(ok);
        ASSERT_INT_EQ(at, -1);
    }
}

static const fw_test_case tests[] = {
    TEST_CASE(card_parse),
    TEST_CASE(card_parse_bad),
    TEST_CASE(card_str),
    TEST_CASE(known_hands),
    TEST_CASE(kickers_and_ties),
    TEST_CASE(hand_names),
    TEST_CASE(invalid_values),
    TEST_CASE(invalid_input),
    TEST_CASE(omaha_rules),
    TEST_CASE(short_deck),
    TEST_CASE(five_card_exhaustive),
    TEST_CASE(seven_card_exhaustive),
    TEST_CASE(random_high_vs_reference),
    TEST_CASE(random_short_deck_vs_reference),
    TEST_CASE(short_deck_five_card_exhaustive),
    TEST_CASE(random_omaha_vs_reference),
};

TEST_MAIN(tests)
