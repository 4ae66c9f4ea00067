/*
 * test_profiles.c - the rulebook profiles (rules/profile.c) against the
 * books they cite: every rule number a profile gives is a heading of its
 * book, on the right topic; every rule has words for the dealer; tda-older
 * is tda except for its one page. The books are text files in
 * FW_RULEBOOKS (../shared/rulebooks beside the repository); the cases
 * that read them skip when it is not there.
 */
#include "harness.h"
#include "profile.h"

#include <ctype.h>
#include <stdbool.h>

#ifndef FW_RULEBOOKS
#define FW_RULEBOOKS "../shared/rulebooks"
#endif

static const char *const rule_names[FW_R_COUNT] = {
#define FW__RULE_NAME(id, num) #id,
    FW_RULE_IDS(FW__RULE_NAME)
#undef FW__RULE_NAME
};

/* The TDA numbers profile.h lists beside the ids ("-": TDA has none). */
static const char *const header_numbers[FW_R_COUNT] = {
#define FW__RULE_NUMBER(id, num) num,
    FW_RULE_IDS(FW__RULE_NUMBER)
#undef FW__RULE_NUMBER
};

/*
 * What each rule is about: one of these words ('|' between alternatives,
 * any case) must be in the section a profile's number points at, so a
 * number that names a real rule of the book, but the wrong one, fails.
 */
static const char *const topics[FW_R_COUNT] = {
    [FW_R_AWARD] = "cards speak",
    [FW_R_FACE_UP_ALL_IN] = "face up",
    [FW_R_SHOWDOWN_ORDER] = "order of show",
    [FW_R_UNCONTESTED] = "uncontested",
    [FW_R_PAID_TO_SEE] = "paid to see",
    [FW_R_PLAY_THE_BOARD] = "play the board",
    [FW_R_ODD_CHIPS] = "odd chip",
    [FW_R_SIDE_POTS] = "each side pot",
    [FW_R_NEW_LEVEL] = "new level",
    [FW_R_DEAD_BUTTON] = "dead button",
    [FW_R_HEADS_UP] = "small blind is the button|small blind has the button",
    [FW_R_SA] = "substantial action is",
    [FW_R_VERBAL_CHIPS] = "methods of betting",
    [FW_R_AMOUNT_ONLY] = "specific amount",
    [FW_R_CALLING] = "of calling",
    [FW_R_RAISE_AMOUNT] = "raise amounts",
    [FW_R_RAISE_TOTAL] = "total bet",
    [FW_R_OVERCHIP] = "oversized chip betting|oversized chip rule",
    [FW_R_MULTI_CALL] = "multiple chip betting",
    [FW_R_MULTI_RAISE] = "50%",
    [FW_R_PRIOR_PULL] = "pulling back",
    [FW_R_PRIOR_CHIPS] = "chips not pulled in|bets not pulled in",
    [FW_R_REOPEN] = "re-open|reopen",
    [FW_R_REOPEN_LIMIT] = "in limit",
    [FW_R_RAISE_CAP] = "allowable raises",
    [FW_R_IN_TURN] = "act in turn|acting in turn",
    [FW_R_BINDING] = "binding declaration|declarations in turn",
    [FW_R_UNDERCALL] = "undercall",
    [FW_R_UNDERBET] = "underraise|underbet",
    [FW_R_PL_UNDERBET] = "pot limit|pot-limit",
    [FW_R_OOT] = "action out of turn",
    [FW_R_OOT_SA] = "skipped",
    [FW_R_PL_BLINDS] = "all-in blind",
    [FW_R_PL_POT] = "actual pot",
    [FW_R_BET_POT_NL] = "bet the pot",
    [FW_R_INVALID_DECL] = "invalid",
    [FW_R_STRING_BET] = "string",
    [FW_R_UNCLEAR] = "multiple meanings",
    [FW_R_FOLD_NO_BET] = "no bet to you",
    [FW_R_STACK] = "countable",
    [FW_R_RABBIT_HUNT] = "rabbit",
    [FW_R_CLOCK] = "calling for a clock|calling the clock",
    [FW_R_AT_SEAT] = "at your seat",
    [FW_R_BUTTON_MOVE] = "button movement",
    [FW_R_MISDEAL] = "misdeals include|misdeal shall be declared",
    [FW_R_BUTTON_TWO_CARDS] = "consecutive",
    [FW_R_REDEAL] = "exact re-play|exact replay",
    [FW_R_AFTER_SA] = "misdeal cannot",
    [FW_R_FOULED_DECK] = "foul",
    [FW_R_BUTTON_TOO_FEW] = "too few",
    [FW_R_BURN] = "burns after",
    [FW_R_FOUR_CARD_FLOP] = "rather than 3",
    [FW_R_NO_BURN_FLOP] = "no burn",
    [FW_R_PREMATURE] = "premature flop",
    [FW_R_PREMATURE_TURN] = "turn card",
    [FW_R_PREMATURE_RIVER] = "river card",
    [FW_R_BOXED_CARD] = "boxed",
    [FW_R_EXPOSED_PENDING] = "proper folding",
    [FW_R_PENALTY] = "on penalty",
    [FW_R_MISSED_BLINDS] = "missed blind",
    [FW_R_ONE_BB_PER_ROUND] = "one big blind",
    [FW_R_SHOT_CLOCK] = "shot clock",
    [FW_R_ALL_IN_DECL] = "declaring all-in",
    [FW_R_TWO_MOTION_RAISE] = "additional motion",
};

/* The book each profile cites, in FW_RULEBOOKS. */
static const char *const book_files[FW_PROFILE_COUNT] = {
    [FW_PROFILE_TDA] = "tda-current.txt",
    [FW_PROFILE_TDA_2015] = "tda-2015.txt",
    [FW_PROFILE_TPF] = "tpf-2026.txt",
    [FW_PROFILE_TDA_OLDER] = "tda-older-page6.txt",
};

/* The rules on tda-older's page 6; every other id is tda's entry. */
static const fw_rule_id older_page6[] = {
    FW_R_SA,      FW_R_FOUR_CARD_FLOP, FW_R_IN_TURN,
    FW_R_BINDING, FW_R_UNDERCALL,      FW_R_OOT,
    FW_R_OOT_SA,  FW_R_CALLING,        FW_R_TWO_MOTION_RAISE,
};

static bool on_page6(int r)
{
    for (size_t i = 0; i < sizeof older_page6 / sizeof older_page6[0]; i++)
        if ((int)older_page6[i] == r)
            return true;
    return false;
}

/* ------------------------------------------------------------------ */
/* The matcher                                                          */
/* ------------------------------------------------------------------ */

/* A rule number taken apart: "45-B" is 45, B; "RP-5-A" and "RP2" are
 * recommended procedures 5 (letter A) and 2. */
typedef struct rule_num {
    bool rp;
    long n;
    char letter; /* 0: none */
} rule_num;

static bool parse_number(const char *s, rule_num *out)
{
    out->rp = false;
    out->letter = 0;
    if (s[0] == 'R' && s[1] == 'P') {
        out->rp = true;
        s += 2;
        if (*s == '-')
            s++;
    }
    if (!isdigit((unsigned char)*s))
        return false;
    out->n = 0;
    while (isdigit((unsigned char)*s))
        out->n = out->n * 10 + (*s++ - '0');
    if (*s == '\0')
        return true;
    if (s[0] == '-' && isupper((unsigned char)s[1]) && s[2] == '\0') {
        out->letter = s[1];
        return true;
    }
    return false;
}

/* Skip what decorates the start of a line in these books: spaces,
 * markdown '#' and '*', and "<u>". */
static const char *skip_decoration(const char *p, const char *end)
{
    while (p < end) {
        if (*p == ' ' || *p == '\t' || *p == '#' || *p == '*')
            p++;
        else if (end - p >= 3 && memcmp(p, "<u>", 3) == 0)
            p += 3;
        else
            break;
    }
    return p;
}

/*
 * Whether the line [p, end) is a rule heading, and which: "45: Multiple
 * Chip Betting", "**45: ...**", "## 45: ...", "RP-5. ...", "RP11. ...",
 * "**RP-11:** ...". A line of a table of contents ("45: Raise
 * Amounts<TAB>21") sets *toc: it ends a section but does not start one.
 */
static bool heading(const char *p, const char *end, rule_num *out, bool *toc)
{
    const char *start = p;
    p = skip_decoration(p, end);
    out->rp = false;
    out->letter = 0;
    if (end - p >= 2 && p[0] == 'R' && p[1] == 'P') {
        out->rp = true;
        p += 2;
        if (p < end && *p == '-')
            p++;
    }
    if (p == end || !isdigit((unsigned char)*p))
        return false;
    out->n = 0;
    while (p < end && isdigit((unsigned char)*p))
        out->n = out->n * 10 + (*p++ - '0');
    while (p < end && *p == '*')
        p++;
    if (p == end || !(*p == ':' || (out->rp && *p == '.')))
        return false;
    const char *q = end;
    while (q > start && isdigit((unsigned char)q[-1]))
        q--;
    *toc = q < end && q > start && q[-1] == '\t';
    return true;
}

static const char *line_end(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl : end;
}

/* The first place in [p, end) that holds needle, in any case, or NULL. */
static const char *find_ci(const char *p, const char *end, const char *needle,
                           size_t n)
{
    for (; (size_t)(end - p) >= n; p++) {
        size_t i = 0;
        while (i < n && tolower((unsigned char)p[i]) ==
                            tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return p;
    }
    return NULL;
}

/* Whether [p, end) holds one of the '|'-separated alternatives; "" is
 * anything. */
static bool span_has_topic(const char *p, const char *end, const char *alts)
{
    if (!*alts)
        return true;
    while (*alts) {
        const char *bar = strchr(alts, '|');
        size_t n = bar ? (size_t)(bar - alts) : strlen(alts);
        if (find_ci(p, end, alts, n))
            return true;
        alts += n + (bar ? 1 : 0);
    }
    return false;
}

/*
 * Whether the section [p, end) has part `letter` on `topic`. A part starts
 * at a line beginning "B:", "B." or "B)" (after decoration; "B**:**" too)
 * or at "(B)" or " B)" inside a line, as in "... or C) verbally
 * declaring", and runs to the end of that line (a part is one paragraph in
 * these books); any of its starts will do.
 */
static bool part_has_topic(const char *p, const char *end, char letter,
                           const char *topic)
{
    const char paren[] = {'(', letter, ')'};
    const char inline_[] = {' ', letter, ')'};
    while (p < end) {
        const char *le = line_end(p, end);
        const char *q = skip_decoration(p, le);
        const char *r = q + 1;
        while (r < le && *r == '*')
            r++;
        if (q < le && *q == letter && r < le &&
            (*r == ':' || *r == '.' || *r == ')') &&
            span_has_topic(q, le, topic))
            return true;
        for (q = p; (q = find_ci(q, le, paren, 3)) != NULL; q++)
            if (q[1] == letter && span_has_topic(q, le, topic))
                return true;
        for (q = p; (q = find_ci(q, le, inline_, 3)) != NULL; q++)
            if (q[1] == letter && span_has_topic(q, le, topic))
                return true;
        p = le + 1;
    }
    return false;
}

/*
 * Whether `book` has rule `number` on `topic`: some heading with that
 * number starts a section (up to the next heading) that has one of the
 * topic's words; with a sub-letter, in that part or in the heading.
 */
static bool book_has(const char *book, const char *number, const char *topic)
{
    rule_num want;
    if (!parse_number(number, &want))
        return false;
    const char *end = book + strlen(book);
    for (const char *p = book; p < end;) {
        const char *le = line_end(p, end);
        rule_num h;
        bool toc;
        if (heading(p, le, &h, &toc) && !toc && h.rp == want.rp &&
            h.n == want.n) {
            const char *s_end = le < end ? le + 1 : end;
            while (s_end < end) {
                rule_num next;
                const char *nle = line_end(s_end, end);
                if (heading(s_end, nle, &next, &toc))
                    break;
                s_end = nle < end ? nle + 1 : end;
            }
            /* a lettered part may leave its topic to the heading:
             * "51: Binding Declarations" ... "A: General verbal ..." */
            bool ok = want.letter
                          ? part_has_topic(p, s_end, want.letter, topic) ||
                                (span_has_topic(p, le, topic) &&
                                 part_has_topic(p, s_end, want.letter, ""))
                          : span_has_topic(p, s_end, topic);
            if (ok)
                return true;
        }
        p = le < end ? le + 1 : end;
    }
    return false;
}

/* The whole file, NUL-terminated, or NULL; the caller frees it. */
static char *read_book(const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", FW_RULEBOOKS, file);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len - 1 == 0) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

/*
 * Every non-empty number of profile `id` is a heading of its book on the
 * rule's topic. For tda-older only page 6 is checked: the rest is tda's.
 * Prints every miss, then fails if there was one.
 */
static int numbers_missing(fw_profile_id id)
{
    char *book = read_book(book_files[id]);
    if (!book)
        return -1;
    const fw_profile *p = fw__profile(id);
    int misses = 0;
    for (int r = 0; r < FW_R_COUNT; r++) {
        const char *num = p->rules[r].number;
        if (id == FW_PROFILE_TDA_OLDER && !on_page6(r))
            continue;
        if (!num || num[0] == '\0' || !topics[r])
            continue;
        if (!book_has(book, num, topics[r])) {
            fprintf(stderr,
                    "  %s %s: \"%s\" is not a heading of %s about \"%s\"\n",
                    p->name, rule_names[r], num, book_files[id], topics[r]);
            misses++;
        }
    }
    free(book);
    return misses;
}

#define CHECK_BOOK(id)                                                         \
    do {                                                                       \
        int misses = numbers_missing(id);                                      \
        if (misses < 0)                                                        \
            TEST_SKIP(FW_RULEBOOKS " not readable");                           \
        ASSERT_INT_EQ(misses, 0);                                              \
    } while (0)

/* ------------------------------------------------------------------ */
/* Cases                                                                */
/* ------------------------------------------------------------------ */

TEST(profiles_by_id)
{
    for (int i = 0; i < FW_PROFILE_COUNT; i++) {
        const fw_profile *p = fw__profile((fw_profile_id)i);
        ASSERT_TRUE(p != NULL);
        ASSERT_INT_EQ(p->id, i);
        ASSERT_STR_EQ(p->name, fw_profile_name((fw_profile_id)i));
        ASSERT_TRUE(p->book && p->book[0]);
        ASSERT_TRUE(p->coverage && p->coverage[0]);
        ASSERT_INT_LT(0, p->clock_seconds);
        ASSERT_TRUE(p->countdown_seconds >= 0);
        for (int j = 0; j < i; j++)
            ASSERT_TRUE(p != fw__profile((fw_profile_id)j));
    }
    /* outside the enum: the default book */
    ASSERT_TRUE(fw__profile(FW_PROFILE_COUNT) == fw__profile(FW_PROFILE_TDA));
}

TEST(every_rule_has_text)
{
    for (int i = 0; i < FW_PROFILE_COUNT; i++) {
        const fw_profile *p = fw__profile((fw_profile_id)i);
        for (int r = 0; r < FW_R_COUNT; r++) {
            const fw_rule_ref *ref = &p->rules[r];
            if (!ref->number || !ref->text || !ref->text[0] || !ref->remedy)
                FW_TEST_FAIL_("%s %s: number, text or remedy missing", p->name,
                              rule_names[r]);
        }
    }
}

TEST(every_rule_has_topic)
{
    for (int r = 0; r < FW_R_COUNT; r++)
        if (!topics[r])
            FW_TEST_FAIL_("%s has no topic in test_profiles.c", rule_names[r]);
}

/* tda's numbers are the ones profile.h lists beside the ids, except
 * TWO_MOTION_RAISE: 42 is the rule that did away with it, so tda cites
 * none. */
TEST(tda_numbers_match_rule_ids)
{
    const fw_profile *tda = fw__profile(FW_PROFILE_TDA);
    for (int r = 0; r < FW_R_COUNT; r++) {
        const char *want = header_numbers[r];
        if (strcmp(want, "-") == 0 || r == FW_R_TWO_MOTION_RAISE)
            want = "";
        if (strcmp(tda->rules[r].number, want) != 0)
            FW_TEST_FAIL_("tda %s: \"%s\", profile.h says \"%s\"",
                          rule_names[r], tda->rules[r].number,
                          header_numbers[r]);
    }
}

TEST(tda_older_is_tda_but_page6)
{
    const fw_profile *tda = fw__profile(FW_PROFILE_TDA);
    const fw_profile *old = fw__profile(FW_PROFILE_TDA_OLDER);
    for (int r = 0; r < FW_R_COUNT; r++) {
        const fw_rule_ref *a = &tda->rules[r], *b = &old->rules[r];
        bool same = strcmp(a->number, b->number) == 0 &&
                    strcmp(a->text, b->text) == 0 &&
                    strcmp(a->remedy, b->remedy) == 0;
        if (on_page6(r) == same)
            FW_TEST_FAIL_("tda-older %s: %s tda's entry", rule_names[r],
                          same ? "page 6 rule still" : "not on page 6, not");
    }
    ASSERT_TRUE(old->two_motion_raise); /* 40-C */
    ASSERT_INT_EQ(old->clock_seconds, tda->clock_seconds);
    ASSERT_INT_EQ(old->countdown_seconds, tda->countdown_seconds);
    ASSERT_INT_EQ(old->premature_turn_reburn, tda->premature_turn_reburn);
    ASSERT_INT_EQ(old->premature_river_reburn, tda->premature_river_reburn);
    ASSERT_INT_EQ(old->single_boxed_procedure, tda->single_boxed_procedure);
    ASSERT_INT_EQ(old->multi_boxed_floor_decides,
                  tda->multi_boxed_floor_decides);
    ASSERT_INT_EQ(old->missed_blinds, tda->missed_blinds);
    ASSERT_INT_EQ(old->one_bb_per_rotation, tda->one_bb_per_rotation);
    ASSERT_INT_EQ(old->all_in_must_be_declared, tda->all_in_must_be_declared);
}

/* The matcher finds what is there and nothing else. */
static const struct probe {
    fw_profile_id book;
    const char *number, *topic;
    bool found;
} probes[] = {
    /* plain, lettered, inline "(C)" and " C)", RP with and without '-' */
    {FW_PROFILE_TDA, "45-B", "50%", true},
    {FW_PROFILE_TDA, "35-E", "foul", true},
    {FW_PROFILE_TDA, "RP-5-C", "river card", true},
    {FW_PROFILE_TDA_2015, "42-C", "additional motion", true},
    {FW_PROFILE_TDA_2015, "RP-5-B", "turn card", true},
    {FW_PROFILE_TPF, "RP11", "boxed", true},
    {FW_PROFILE_TPF, "65", "shot clock", true},
    {FW_PROFILE_TDA_OLDER, "40-C", "additional motion", true},
    {FW_PROFILE_TDA, "51-A", "binding declaration", true},
    /* no such rule, no such letter, a real rule on another topic, a
     * number that is not one */
    {FW_PROFILE_TDA, "99", "burn", false},
    {FW_PROFILE_TDA, "RP-99", "burn", false},
    {FW_PROFILE_TDA, "35-F", "misdeal", false},
    {FW_PROFILE_TDA, "44", "multiple chip betting", false},
    {FW_PROFILE_TDA, "RP-5-E", "premature", false},
    {FW_PROFILE_TDA, "39-C", "no burn", false},
    {FW_PROFILE_TDA, "RP-5-B", "river card", false},
    {FW_PROFILE_TDA, "45B", "50%", false},
    {FW_PROFILE_TDA, "", "misdeal", false},
    {FW_PROFILE_TDA_2015, "46-B", "50%", false},
    {FW_PROFILE_TDA_2015, "45", "multiple chip betting", false},
    {FW_PROFILE_TDA_2015, "RP-8", "hand for hand", false},
    {FW_PROFILE_TPF, "RP12", "boxed", false},
    {FW_PROFILE_TPF, "40", "rather than 3", false},
    {FW_PROFILE_TDA_OLDER, "41", "raise", false},
    {FW_PROFILE_TDA_OLDER, "34", "misdeal", false},
    {FW_PROFILE_TDA_OLDER, "38-A", "declarations in turn", false},
};

TEST(matcher_rejects_wrong_numbers)
{
    char *books[FW_PROFILE_COUNT];
    bool have = true;
    for (int i = 0; i < FW_PROFILE_COUNT; i++) {
        books[i] = read_book(book_files[i]);
        have = have && books[i];
    }
    int wrong = 0;
    for (size_t i = 0; have && i < sizeof probes / sizeof probes[0]; i++) {
        const struct probe *q = &probes[i];
        if (book_has(books[q->book], q->number, q->topic) != q->found) {
            fprintf(stderr, "  %s \"%s\" on \"%s\": %s\n", book_files[q->book],
                    q->number, q->topic, q->found ? "not found" : "found");
            wrong++;
        }
    }
    for (int i = 0; i < FW_PROFILE_COUNT; i++)
        free(books[i]);
    if (!have)
        TEST_SKIP(FW_RULEBOOKS " not readable");
    ASSERT_INT_EQ(wrong, 0);
}

TEST(numbers_in_tda_book)
{
    CHECK_BOOK(FW_PROFILE_TDA);
}

TEST(numbers_in_tda_2015_book)
{
    CHECK_BOOK(FW_PROFILE_TDA_2015);
}

TEST(numbers_in_tpf_book)
{
    CHECK_BOOK(FW_PROFILE_TPF);
}

TEST(numbers_in_tda_older_page)
{
    CHECK_BOOK(FW_PROFILE_TDA_OLDER);
}

static const fw_test_case cases[] = {
    TEST_CASE(profiles_by_id),
    TEST_CASE(every_rule_has_text),
    TEST_CASE(every_rule_has_topic),
    TEST_CASE(tda_numbers_match_rule_ids),
    TEST_CASE(tda_older_is_tda_but_page6),
    TEST_CASE(matcher_rejects_wrong_numbers),
    TEST_CASE(numbers_in_tda_book),
    TEST_CASE(numbers_in_tda_2015_book),
    TEST_CASE(numbers_in_tpf_book),
    TEST_CASE(numbers_in_tda_older_page),
};

TEST_MAIN(cases)
