/*
 * test_phh.c - PHH hands (app/phh.h): the TOML reader, the action grammar,
 * the translation into engine events, and real published hands replayed
 * through the engine against their recorded finishing stacks.
 *
 * The hands live in tests/phh/ (README.md there says where each comes
 * from); the directory is found next to this source file, or in $FW_PHH_DIR.
 */
#include "harness.h"
#include "phh.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

static fw_phh *new_phh(void)
{
    fw_phh *h = malloc(sizeof *h);
    if (!h) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return h;
}

/* The path of tests/phh/NAME. */
static void hand_path(const char *name, char *path, size_t size)
{
    const char *dir = getenv("FW_PHH_DIR");
    if (dir) {
        snprintf(path, size, "%s/%s", dir, name);
    } else {
        const char *src = __FILE__;
        const char *slash = strrchr(src, '/');
        int dlen = slash ? (int)(slash - src) : 1;
        snprintf(path, size, "%.*s/phh/%s", dlen, slash ? src : ".", name);
    }
}

/* Read tests/phh/NAME into a malloc'd, NUL-terminated buffer. */
static char *read_hand(const char *name, size_t *len)
{
    char path[1024];
    hand_path(name, path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "  cannot open %s\n", path);
        return NULL;
    }
    char *buf = malloc(1 << 20);
    size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (!buf)
        return NULL;
    buf[n] = '\0';
    *len = n;
    return buf;
}

static int parse_str(const char *s, fw_phh *h, char *err, size_t errsz)
{
    return fw_phh_parse(s, strlen(s), h, err, errsz);
}

/* Events captured by the translation, as a few comparable fields. */
#define MAX_EVS 400
typedef struct evlog {
    int n;
    fw_event ev[MAX_EVS];
    int fail_at; /* return an error on this event (1-based), 0 never */
} evlog;

static int capture(void *ctx, const fw_event *ev)
{
    evlog *l = ctx;
    if (l->fail_at && l->n + 1 == l->fail_at)
        return fw_set_error(FW_ESTATE, "test callback says no");
    if (l->n < MAX_EVS)
        l->ev[l->n] = *ev;
    l->n++;
    return FW_OK;
}

static fw_card card(const char *s)
{
    fw_card c = FW_CARD_NONE;
    fw_card_parse(s, &c);
    return c;
}

/* A minimal valid NT hand with the given actions array body. */
#define NT3_HEAD                                                               \
    "variant = 'NT'\n"                                                         \
    "antes = [0, 0, 0]\n"                                                      \
    "blinds_or_straddles = [1, 2, 0]\n"                                        \
    "min_bet = 2\n"                                                            \
    "starting_stacks = [200, 200, 200]\n"
#define NT3(actions) NT3_HEAD "actions = [" actions "]\n"

#define DEAL3 "'d dh p1 AcAd', 'd dh p2 KcKd', 'd dh p3 2c7d', "

/* ------------------------------------------------------------------ */
/* Reading                                                              */
/* ------------------------------------------------------------------ */

TEST(parse_fields)
{
    size_t len;
    char *text = read_hand("dwan-ivey-2009-nt.phh", &len);
    ASSERT_TRUE(text != NULL);
    fw_phh *h = new_phh();
    char err[FW_PHH_ERR_MAX];
    int rc = fw_phh_parse(text, len, h, err, sizeof err);
    free(text);
    if (rc != FW_OK)
        fprintf(stderr, "  %s\n", err);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_STR_EQ(h->variant, "NT");
    ASSERT_INT_EQ(h->game, FW_GAME_NLHE);
    ASSERT_INT_EQ(h->nplayers, 3);
    ASSERT_INT_EQ(h->scale, 1);
    ASSERT_INT_EQ(h->antes[0], 500);
    ASSERT_INT_EQ(h->antes[2], 500);
    ASSERT_INT_EQ(h->blinds[0], 1000);
    ASSERT_INT_EQ(h->blinds[1], 2000);
    ASSERT_INT_EQ(h->blinds[2], 0);
    ASSERT_INT_EQ(h->min_bet, 2000);
    ASSERT_INT_EQ(h->starting_stacks[0], 1125600);
    ASSERT_INT_EQ(h->starting_stacks[2], 553500);
    ASSERT_INT_EQ(h->has_finishing, 1);
    ASSERT_INT_EQ(h->finishing_stacks[2], 1109500);
    ASSERT_INT_EQ(h->has_players, 1);
    ASSERT_STR_EQ(h->players[1], "Patrik Antonius");
    ASSERT_INT_EQ(h->nactions, 18);
    /* d dh p1 Ac2d */
    ASSERT_INT_EQ(h->actions[0].act, FW_PHH_DEAL_HOLE);
    ASSERT_INT_EQ(h->actions[0].player, 1);
    ASSERT_INT_EQ(h->actions[0].ncards, 2);
    ASSERT_INT_EQ(h->actions[0].cards[0], card("Ac"));
    ASSERT_INT_EQ(h->actions[0].cards[1], card("2d"));
    /* d dh p2 ???? */
    ASSERT_INT_EQ(h->actions[1].cards[0], FW_CARD_NONE);
    ASSERT_INT_EQ(h->actions[1].cards[1], FW_CARD_NONE);
    /* p3 cbr 7000 */
    ASSERT_INT_EQ(h->actions[3].act, FW_PHH_BET_RAISE);
    ASSERT_INT_EQ(h->actions[3].player, 3);
    ASSERT_INT_EQ(h->actions[3].amount, 7000);
    ASSERT_INT_EQ(h->actions[5].act, FW_PHH_FOLD);
    ASSERT_INT_EQ(h->actions[6].act, FW_PHH_CHECK_CALL);
    /* d db Jc3d5c */
    ASSERT_INT_EQ(h->actions[7].act, FW_PHH_DEAL_BOARD);
    ASSERT_INT_EQ(h->actions[7].player, 0);
    ASSERT_INT_EQ(h->actions[7].ncards, 3);
    ASSERT_INT_EQ(h->actions[7].cards[2], card("5c"));
    /* p1 sm Ac2d */
    ASSERT_INT_EQ(h->actions[15].act, FW_PHH_SHOW);
    ASSERT_INT_EQ(h->actions[15].ncards, 2);
    ASSERT_INT_EQ(h->actions[17].act, FW_PHH_DEAL_BOARD);
    ASSERT_INT_EQ(h->actions[17].index, 17);
    free(h);
}

TEST(parse_decimal_amounts)
{
    size_t len;
    char *text = read_hand("antonius-blom-2009-po.phh", &len);
    ASSERT_TRUE(text != NULL);
    fw_phh *h = new_phh();
    char err[FW_PHH_ERR_MAX];
    int rc = fw_phh_parse(text, len, h, err, sizeof err);
    free(text);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(h->game, FW_GAME_PLO);
    ASSERT_INT_EQ(h->scale, 100);
    ASSERT_INT_EQ(h->starting_stacks[0], 125945025);
    ASSERT_INT_EQ(h->starting_stacks[1], 67847350);
    ASSERT_INT_EQ(h->blinds[0], 50000);
    ASSERT_INT_EQ(h->min_bet, 100000);
    ASSERT_INT_EQ(h->finishing_stacks[0], 193792375);
    ASSERT_INT_EQ(h->actions[2].amount, 300000); /* p2 cbr 3000 */
    ASSERT_INT_EQ(h->actions[2].player, 2);

    /* Decimals in an action string alone set the unit too. */
    rc = parse_str(NT3(DEAL3 "'p3 cbr 4.5'"), h, err, sizeof err);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(h->scale, 10);
    ASSERT_INT_EQ(h->actions[3].amount, 45);
    ASSERT_INT_EQ(h->starting_stacks[0], 2000);
    free(h);
}

TEST(parse_noops_and_commentary)
{
    fw_phh *h = new_phh();
    char err[FW_PHH_ERR_MAX];
    int rc = parse_str(NT3("'', '   ', '# only a comment', "
                           "' d   dh  p1 AcAd # Alice ', 'd dh p2 KcKd', "
                           "'d dh p3 2c7d', 'p3 f#folds', 'p1 sm -'"),
                       h, err, sizeof err);
    if (rc != FW_OK)
        fprintf(stderr, "  %s\n", err);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(h->nactions, 5);
    ASSERT_INT_EQ(h->actions[0].index, 3);
    ASSERT_INT_EQ(h->actions[0].cards[1], card("Ad"));
    ASSERT_INT_EQ(h->actions[3].act, FW_PHH_FOLD);
    ASSERT_INT_EQ(h->actions[4].act, FW_PHH_SHOW);
    ASSERT_INT_EQ(h->actions[4].dash, 1);
    free(h);
}

TEST(parse_optional_fields)
{
    fw_phh *h = new_phh();
    char err[FW_PHH_ERR_MAX];
    int rc = parse_str(NT3(DEAL3 "'p3 f'") "seats = [4, 6, 1]\nseat_count = 6\n"
                                           "players = ['A', '', 'C']\n"
                                           "unknown_key = { a = [1, 2] }\n"
                                           "time = 00:04:45\n",
                       h, err, sizeof err);
    if (rc != FW_OK)
        fprintf(stderr, "  %s\n", err);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(h->has_seats, 1);
    ASSERT_INT_EQ(h->seats[1], 6);
    ASSERT_INT_EQ(h->seat_count, 6);
    ASSERT_STR_EQ(h->players[2], "C");
    ASSERT_INT_EQ(h->has_finishing, 0);
    free(h);
}

TEST(parse_long_name_cut_on_utf8_boundary)
{
    /* 46 ASCII bytes then a 3-byte character: 49 bytes, the limit is 47. */
    fw_phh *h = new_phh();
    char err[FW_PHH_ERR_MAX];
    int rc = parse_str(
        NT3(DEAL3
            "'p3 f'") "players = ['A', 'B', "
                      "'0123456789012345678901234567890123456789012345\xe2"
                      "\x80\x99']\n",
        h, err, sizeof err);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(strlen(h->players[2]), 46);
    free(h);
}

/* One malformed document and what it must give. */
typedef struct bad_doc {
    const char *name;
    const char *text;
    int rc;
    const char *says; /* a piece of the message */
} bad_doc;

static const bad_doc bad_docs[] = {
    {"stud", "variant = 'F7S'\n", FW_EUNSUPPORTED, "F7S"},
    {"short deck", "variant = 'NS'\n", FW_EUNSUPPORTED, "NS"},
    {"no variant", "antes = [0, 0]\n", FW_EPARSE, "variant"},
    {"bad toml", "variant = 'NT'\nantes = [0, 0\nmin_bet = 2\n", FW_EPARSE,
     "line 3"},
    {"duplicate key", "variant = 'NT'\nvariant = 'PO'\n", FW_EPARSE, "line 2"},
    {"wrong type",
     "variant = 'NT'\nantes = 'none'\nblinds_or_straddles = [1, 2]\n"
     "min_bet = 2\nstarting_stacks = [9, 9]\nactions = []\n",
     FW_EPARSE, "'antes'"},
    {"action not a string",
     "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n"
     "min_bet = 2\nstarting_stacks = [9, 9]\nactions = [1]\n",
     FW_EPARSE, "'actions'"},
    {"no min_bet",
     "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n"
     "starting_stacks = [9, 9]\nactions = []\n",
     FW_EPARSE, "min_bet"},
    {"no big_bet",
     "variant = 'FT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n"
     "small_bet = 2\nstarting_stacks = [9, 9]\nactions = []\n",
     FW_EPARSE, "big_bet"},
    {"bring-in",
     "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n"
     "min_bet = 2\nbring_in = 1\nstarting_stacks = [9, 9]\nactions = []\n",
     FW_EUNSUPPORTED, "bring_in"},
    {"one player",
     "variant = 'NT'\nantes = [0]\nblinds_or_straddles = [1]\n"
     "min_bet = 2\nstarting_stacks = [9]\nactions = []\n",
     FW_ERANGE, "at least 2"},
    {"eleven players",
     "variant = 'NT'\nantes = [0]\nblinds_or_straddles = [1]\n"
     "min_bet = 2\nstarting_stacks = [9,9,9,9,9,9,9,9,9,9,9]\n"
     "actions = []\n",
     FW_ERANGE, "at most 10"},
    {"antes too short",
     "variant = 'NT'\nantes = [0]\nblinds_or_straddles = [1, 2]\n"
     "min_bet = 2\nstarting_stacks = [9, 9]\nactions = []\n",
     FW_ERANGE, "'antes'"},
    {"unknown stack",
     "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n"
     "min_bet = 2\nstarting_stacks = [inf, 9]\nactions = []\n",
     FW_EUNSUPPORTED, "inf"},
    {"negative stack",
     "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n"
     "min_bet = 2\nstarting_stacks = [-9, 9]\nactions = []\n",
     FW_ERANGE, "starting_stacks"},
    {"zero stack",
     "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n"
     "min_bet = 2\nstarting_stacks = [0, 9]\nactions = []\n",
     FW_ERANGE, "p1"},
    {"too fine",
     "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n"
     "min_bet = 2\nstarting_stacks = [9.0000001, 9]\nactions = []\n",
     FW_ERANGE, "decimals"},
    {"too big",
     "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\n"
     "min_bet = 2\nstarting_stacks = [9000000000000000, 9]\n"
     "actions = []\n",
     FW_ERANGE, "starting_stacks"},
    {"player beyond", NT3(DEAL3 "'p4 f'"), FW_ERANGE, "p4"},
    {"not a player", NT3(DEAL3 "'x3 f'"), FW_EPARSE, "x3"},
    {"draw", NT3(DEAL3 "'p1 sd'"), FW_EUNSUPPORTED, "sd"},
    {"bring-in action", NT3(DEAL3 "'p1 pb'"), FW_EUNSUPPORTED, "pb"},
    {"unknown action", NT3(DEAL3 "'p1 raise 5'"), FW_EPARSE, "raise"},
    {"half card", NT3("'d dh p1 Ac?d'"), FW_EPARSE, "Ac?d"},
    {"odd cards", NT3("'d dh p1 AcK'"), FW_EPARSE, "AcK"},
    {"bad card", NT3("'d dh p1 AcXx'"), FW_EPARSE, "AcXx"},
    {"dealer verb", NT3("'d burn'"), FW_EPARSE, "dh"},
    {"dealer without cards", NT3("'d db'"), FW_EPARSE, "d db CARDS"},
    {"cbr without amount", NT3(DEAL3 "'p3 cbr'"), FW_EPARSE, "cbr"},
    {"cbr not a number", NT3(DEAL3 "'p3 cbr 1e3'"), FW_EPARSE, "1e3"},
    {"cbr too fine", NT3(DEAL3 "'p3 cbr 1.0000001'"), FW_ERANGE, "1.0000001"},
    {"cbr zero", NT3(DEAL3 "'p3 cbr 0'"), FW_ERANGE, "0"},
    {"fold with argument", NT3(DEAL3 "'p3 f now'"), FW_EPARSE, "f"},
    {"deep nesting",
     "a = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
     "[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
     "]]]]]]]]\n",
     FW_ERANGE, "nested"},
    {"not UTF-8", "variant = 'NT'\nplayers = ['\xff']\n", FW_EPARSE,
     "line 2: byte 28 is not valid UTF-8"},
    {"overlong UTF-8", "a = '\xc0\xaf'\n", FW_EPARSE, "UTF-8"},
    {"surrogate", "a = \"\xed\xa0\x80\"\n", FW_EPARSE, "UTF-8"},
    {"cut UTF-8", "a = 'x\xe2\x80", FW_EPARSE, "UTF-8"},
};

TEST(parse_errors)
{
    fw_phh *h = new_phh();
    char err[FW_PHH_ERR_MAX];
    for (size_t i = 0; i < sizeof bad_docs / sizeof bad_docs[0]; i++) {
        const bad_doc *b = &bad_docs[i];
        int rc = parse_str(b->text, h, err, sizeof err);
        if (rc != b->rc || !strstr(err, b->says))
            fprintf(stderr, "  case \"%s\": %s: %s\n", b->name, fw_err_name(rc),
                    err);
        ASSERT_INT_EQ(rc, b->rc);
        ASSERT_TRUE(strstr(err, b->says) != NULL);
        ASSERT_STR_EQ(fw_last_error(), err);
    }
    free(h);
}

TEST(parse_limits)
{
    fw_phh *h = new_phh();
    char err[FW_PHH_ERR_MAX];
    size_t cap = 64 * 1024;
    char *doc = malloc(cap);
    ASSERT_TRUE(doc != NULL);

    /* FW_PHH_MAX_ACTIONS actions are fine, one more is not. */
    for (int extra = 0; extra < 2; extra++) {
        int w = snprintf(doc, cap, "%s", NT3_HEAD "actions = [" DEAL3);
        for (int i = 3; i < FW_PHH_MAX_ACTIONS + extra; i++)
            w += snprintf(doc + w, cap - (size_t)w, "'# %d', ", i);
        snprintf(doc + w, cap - (size_t)w, "]\n");
        int rc = parse_str(doc, h, err, sizeof err);
        if (rc != (extra ? FW_ERANGE : FW_OK))
            fprintf(stderr, "  %d actions: %s\n", FW_PHH_MAX_ACTIONS + extra,
                    err);
        ASSERT_INT_EQ(rc, extra ? FW_ERANGE : FW_OK);
    }

    /* An action string of FW_PHH_ACTION_MAX bytes is too long. */
    char longact[FW_PHH_ACTION_MAX + 1];
    memset(longact, ' ', sizeof longact);
    memcpy(longact, "p3 f #", 6);
    longact[FW_PHH_ACTION_MAX] = '\0';
    snprintf(doc, cap, NT3(DEAL3 "'%s'"), longact);
    ASSERT_INT_EQ(parse_str(doc, h, err, sizeof err), FW_ERANGE);
    longact[FW_PHH_ACTION_MAX - 1] = '\0';
    snprintf(doc, cap, NT3(DEAL3 "'%s'"), longact);
    ASSERT_INT_EQ(parse_str(doc, h, err, sizeof err), FW_OK);

    /* A document beyond FW_PHH_TEXT_MAX. */
    ASSERT_INT_EQ(fw_phh_parse(doc, FW_PHH_TEXT_MAX + 1u, h, err, sizeof err),
                  FW_ERANGE);
    free(doc);
    free(h);
}

/* ------------------------------------------------------------------ */
/* Events                                                               */
/* ------------------------------------------------------------------ */

/* Parse text and translate it into *log; returns the translation's rc. */
static int events_of(const char *text, evlog *log, char *err, size_t errsz)
{
    fw_phh *h = new_phh();
    int rc = parse_str(text, h, err, errsz);
    if (rc == FW_OK)
        rc = fw_phh_events(h, capture, log, err, errsz);
    free(h);
    return rc;
}

TEST(events_setup_and_deal)
{
    size_t len;
    char *text = read_hand("dwan-ivey-2009-nt.phh", &len);
    ASSERT_TRUE(text != NULL);
    evlog *log = calloc(1, sizeof *log);
    char err[FW_PHH_ERR_MAX];
    int rc = events_of(text, log, err, sizeof err);
    free(text);
    if (rc != FW_OK)
        fprintf(stderr, "  %s\n", err);
    ASSERT_INT_EQ(rc, FW_OK);
    const fw_event *e = log->ev;
    ASSERT_INT_EQ(e[0].type, FW_EV_TABLE);
    ASSERT_INT_EQ(e[0].seats, 3);
    ASSERT_INT_EQ(e[0].game, FW_GAME_NLHE);
    ASSERT_INT_EQ(e[0].profile, FW_PROFILE_TDA);
    ASSERT_INT_EQ(e[1].type, FW_EV_LEVEL);
    ASSERT_INT_EQ(e[1].sb, 1000);
    ASSERT_INT_EQ(e[1].bb, 2000);
    ASSERT_INT_EQ(e[1].ante, 500);
    ASSERT_INT_EQ(e[1].ante_type, FW_ANTE_EACH);
    for (int i = 0; i < 3; i++) {
        ASSERT_INT_EQ(e[2 + i].type, FW_EV_SEAT);
        ASSERT_INT_EQ(e[2 + i].seat, i + 1);
        ASSERT_INT_EQ(e[2 + i].has_player, 1);
        ASSERT_INT_EQ(e[2 + i].has_stack, 1);
    }
    ASSERT_STR_EQ(e[2].player, "Phil Ivey");
    ASSERT_INT_EQ(e[4].stack, 553500);
    ASSERT_INT_EQ(e[5].type, FW_EV_BUTTON);
    ASSERT_INT_EQ(e[5].seat, 3);
    ASSERT_INT_EQ(e[6].type, FW_EV_HAND_START);
    /* One card at a time from seat 1: Ac ?? 7h, then 2d ?? 6h. */
    static const int seat[6] = {1, 2, 3, 1, 2, 3};
    const char *cards[6] = {"Ac", NULL, "7h", "2d", NULL, "6h"};
    for (int i = 0; i < 6; i++) {
        ASSERT_INT_EQ(e[7 + i].type, FW_EV_CARD);
        ASSERT_INT_EQ(e[7 + i].to, FW_TO_SEAT);
        ASSERT_INT_EQ(e[7 + i].seat, seat[i]);
        ASSERT_INT_EQ(e[7 + i].face, FW_FACE_DOWN);
        ASSERT_INT_EQ(e[7 + i].card, cards[i] ? card(cards[i]) : FW_CARD_NONE);
    }
    /* p3 cbr 7000: a raise over the blind, to 7000. */
    ASSERT_INT_EQ(e[13].type, FW_EV_SAY);
    ASSERT_INT_EQ(e[13].seat, 3);
    ASSERT_INT_EQ(e[13].word, FW_WORD_RAISE);
    ASSERT_INT_EQ(e[13].has_amount, 1);
    ASSERT_INT_EQ(e[13].amount, 7000);
    ASSERT_INT_EQ(e[15].type, FW_EV_FOLD);
    ASSERT_INT_EQ(e[15].seat, 2);
    ASSERT_INT_EQ(e[16].word, FW_WORD_CALL);
    /* The flop: a burn, three board cards face up. */
    ASSERT_INT_EQ(e[17].type, FW_EV_CARD);
    ASSERT_INT_EQ(e[17].to, FW_TO_BURN);
    ASSERT_INT_EQ(e[17].card, FW_CARD_NONE);
    ASSERT_INT_EQ(e[18].to, FW_TO_BOARD);
    ASSERT_INT_EQ(e[18].face, FW_FACE_UP);
    ASSERT_INT_EQ(e[18].card, card("Jc"));
    ASSERT_INT_EQ(e[20].card, card("5c"));
    /* p1 cbr 35000 opens the flop: a bet; p3 calls. */
    ASSERT_INT_EQ(e[21].word, FW_WORD_BET);
    ASSERT_INT_EQ(e[21].amount, 35000);
    ASSERT_INT_EQ(e[22].word, FW_WORD_CALL);
    /* Turn: burn, 4h, bet 90000, raise 232600, raise 1067100, call. */
    ASSERT_INT_EQ(e[24].card, card("4h"));
    ASSERT_INT_EQ(e[25].word, FW_WORD_BET);
    ASSERT_INT_EQ(e[26].word, FW_WORD_RAISE);
    ASSERT_INT_EQ(e[27].word, FW_WORD_RAISE);
    ASSERT_INT_EQ(e[27].amount, 1067100);
    ASSERT_INT_EQ(e[28].word, FW_WORD_CALL);
    /* The all-in players table their cards before the river. */
    ASSERT_INT_EQ(e[29].type, FW_EV_SHOW);
    ASSERT_INT_EQ(e[29].seat, 1);
    ASSERT_INT_EQ(e[29].ncards, 2);
    ASSERT_INT_EQ(e[29].cards[0], card("Ac"));
    ASSERT_INT_EQ(e[30].type, FW_EV_SHOW);
    ASSERT_INT_EQ(e[31].to, FW_TO_BURN);
    ASSERT_INT_EQ(e[32].card, card("Jh"));
    ASSERT_INT_EQ(log->n, 33);
    free(log);
}

TEST(events_check_call_and_muck)
{
    evlog *log = calloc(1, sizeof *log);
    char err[FW_PHH_ERR_MAX];
    /* Limp, complete, check; checks on the flop; a bet, a call, a fold;
     * show with '-', muck. */
    int rc = events_of(NT3(DEAL3 "'p3 cc', 'p1 cc', 'p2 cc', "
                                 "'d db 2h3h4h', 'p1 cc', 'p2 cc', 'p3 cc', "
                                 "'d db 5s', 'p1 cbr 10', 'p2 cc', 'p3 f', "
                                 "'d db 9s', 'p1 cc', 'p2 cc', "
                                 "'p1 sm -', 'p2 sm'"),
                       log, err, sizeof err);
    if (rc != FW_OK)
        fprintf(stderr, "  %s\n", err);
    ASSERT_INT_EQ(rc, FW_OK);
    const fw_event *e = log->ev + 13;        /* after setup (7) and deal (6) */
    ASSERT_INT_EQ(e[0].word, FW_WORD_CALL);  /* p3 limps */
    ASSERT_INT_EQ(e[1].word, FW_WORD_CALL);  /* p1 completes the SB */
    ASSERT_INT_EQ(e[2].word, FW_WORD_CHECK); /* p2, the big blind */
    ASSERT_INT_EQ(e[7].word, FW_WORD_CHECK); /* flop */
    ASSERT_INT_EQ(e[8].word, FW_WORD_CHECK);
    ASSERT_INT_EQ(e[9].word, FW_WORD_CHECK);
    ASSERT_INT_EQ(e[12].word, FW_WORD_BET); /* turn */
    ASSERT_INT_EQ(e[12].amount, 10);
    ASSERT_INT_EQ(e[13].word, FW_WORD_CALL);
    ASSERT_INT_EQ(e[14].type, FW_EV_FOLD);
    ASSERT_INT_EQ(e[17].word, FW_WORD_CHECK); /* river */
    ASSERT_INT_EQ(e[18].word, FW_WORD_CHECK);
    ASSERT_INT_EQ(e[19].type, FW_EV_SHOW);
    ASSERT_INT_EQ(e[19].cards[0], card("Ac"));
    ASSERT_INT_EQ(e[19].cards[1], card("Ad"));
    ASSERT_INT_EQ(e[20].type, FW_EV_MUCK);
    ASSERT_INT_EQ(e[20].seat, 2);
    ASSERT_INT_EQ(log->n, 13 + 21);
    free(log);
}

TEST(events_one_card_at_a_time_deal)
{
    /* Older PHH files (PokerKit's first WSOP 2023 hands) deal each card
     * as its own action; the events must be the same as dealing pairs. */
    evlog *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    char err[FW_PHH_ERR_MAX];
    ASSERT_INT_EQ(events_of(NT3("'d dh p1 Ac', 'd dh p2 Kc', 'd dh p3 2c', "
                                "'d dh p1 Ad', 'd dh p2 Kd', 'd dh p3 7d', "
                                "'p3 f'"),
                            a, err, sizeof err),
                  FW_OK);
    ASSERT_INT_EQ(events_of(NT3(DEAL3 "'p3 f'"), b, err, sizeof err), FW_OK);
    ASSERT_INT_EQ(a->n, b->n);
    for (int i = 0; i < a->n; i++) {
        ASSERT_INT_EQ(a->ev[i].type, b->ev[i].type);
        ASSERT_INT_EQ(a->ev[i].seat, b->ev[i].seat);
        ASSERT_INT_EQ(a->ev[i].card, b->ev[i].card);
    }
    free(a);
    free(b);
}

TEST(events_heads_up_and_big_blind_ante)
{
    evlog *log = calloc(1, sizeof *log);
    char err[FW_PHH_ERR_MAX];
    int rc = events_of("variant = 'NT'\nantes = [0, 3]\n"
                       "blinds_or_straddles = [1, 2]\nmin_bet = 2\n"
                       "starting_stacks = [100, 50]\n"
                       "actions = ['d dh p1 AcAd', 'd dh p2 KcKd', "
                       "'p2 cbr 6', 'p1 cbr 18', 'p2 cc']\n",
                       log, err, sizeof err);
    if (rc != FW_OK)
        fprintf(stderr, "  %s\n", err);
    ASSERT_INT_EQ(rc, FW_OK);
    const fw_event *e = log->ev;
    ASSERT_INT_EQ(e[0].seats, 2);
    ASSERT_INT_EQ(e[1].sb, 1);
    ASSERT_INT_EQ(e[1].bb, 2);
    ASSERT_INT_EQ(e[1].ante, 3);
    ASSERT_INT_EQ(e[1].ante_type, FW_ANTE_BB);
    /* The button is p2: it posts the small blind and acts first. */
    ASSERT_INT_EQ(e[4].type, FW_EV_BUTTON);
    ASSERT_INT_EQ(e[4].seat, 2);
    /* The first card goes to seat 1, left of the button. */
    ASSERT_INT_EQ(e[6].seat, 1);
    ASSERT_INT_EQ(e[6].card, card("Ac"));
    ASSERT_INT_EQ(e[7].seat, 2);
    ASSERT_INT_EQ(e[10].word, FW_WORD_RAISE);
    ASSERT_INT_EQ(e[10].seat, 2);
    ASSERT_INT_EQ(e[11].word, FW_WORD_RAISE);
    ASSERT_INT_EQ(e[12].word, FW_WORD_CALL);
    free(log);
}

TEST(events_limit_level)
{
    size_t len;
    char *text = read_hand("wsop2023-43-5-035-ft.phh", &len);
    ASSERT_TRUE(text != NULL);
    evlog *log = calloc(1, sizeof *log);
    char err[FW_PHH_ERR_MAX];
    int rc = events_of(text, log, err, sizeof err);
    free(text);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(log->ev[0].game, FW_GAME_FLHE);
    ASSERT_INT_EQ(log->ev[1].sb, 100000);
    ASSERT_INT_EQ(log->ev[1].bb, 200000);
    ASSERT_INT_EQ(log->ev[1].small_bet, 200000);
    ASSERT_INT_EQ(log->ev[1].big_bet, 400000);
    ASSERT_INT_EQ(log->ev[1].ante, 0);
    free(log);
}

static const bad_doc bad_events[] = {
    {"straddle",
     "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 4]\n"
     "min_bet = 2\nstarting_stacks = [200, 200, 200]\nactions = []\n",
     FW_EUNSUPPORTED, "straddle"},
    {"button ante",
     "variant = 'NT'\nantes = [0, 0, 5]\nblinds_or_straddles = [1, 2, 0]\n"
     "min_bet = 2\nstarting_stacks = [200, 200, 200]\nactions = []\n",
     FW_EUNSUPPORTED, "antes"},
    {"min bet",
     "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\n"
     "min_bet = 4\nstarting_stacks = [200, 200, 200]\nactions = []\n",
     FW_EUNSUPPORTED, "min_bet"},
    {"no deal", NT3("'p3 f'"), FW_EPARSE, "p1 0 hole card"},
    {"short deal", NT3("'d dh p1 AcAd', 'd dh p2 KcKd', 'd dh p3 2c'"),
     FW_EPARSE, "p3 1 hole card"},
    {"too many cards", NT3("'d dh p1 AcAdAh'"), FW_EPARSE, "3 hole cards"},
    {"late deal", NT3(DEAL3 "'p3 f', 'd dh p1 Ah'"), FW_EPARSE,
     "after the betting"},
    {"flop of two", NT3(DEAL3 "'p3 cc', 'p1 cc', 'p2 cc', 'd db 2h3h'"),
     FW_EPARSE, "flop takes 3"},
    {"unknown board", NT3(DEAL3 "'p3 cc', 'p1 cc', 'p2 cc', 'd db 2h3h?\?'"),
     FW_EUNSUPPORTED, "unknown board"},
    {"bet beyond stack", NT3(DEAL3 "'p3 cbr 201'"), FW_EPARSE, "200 behind"},
    {"raise below own bet", NT3(DEAL3 "'p3 cbr 5', 'p1 cc', 'p2 cbr 2'"),
     FW_EPARSE, "has 2 in already"},
    {"raise to the current bet", NT3(DEAL3 "'p3 cbr 6', 'p1 cbr 6'"), FW_EPARSE,
     "not above the current bet of 6"},
    {"wrong show", NT3(DEAL3 "'p3 f', 'p1 sm AhAs'"), FW_EPARSE,
     "other than p1 was dealt"},
    {"short show", NT3(DEAL3 "'p3 f', 'p1 sm Ah'"), FW_EPARSE, "shows 1 card"},
    {"unknown show",
     NT3("'d dh p1 ?\??\?', 'd dh p2 KcKd', 'd dh p3 2c7d', 'p1 sm ?\??\?'"),
     FW_EUNSUPPORTED, "unknown cards"},
    {"dash unknown",
     NT3("'d dh p1 ?\??\?', 'd dh p2 KcKd', 'd dh p3 2c7d', 'p1 sm -'"),
     FW_EPARSE, "dealt unknown"},
};

TEST(events_errors)
{
    evlog *log = calloc(1, sizeof *log);
    char err[FW_PHH_ERR_MAX];
    for (size_t i = 0; i < sizeof bad_events / sizeof bad_events[0]; i++) {
        const bad_doc *b = &bad_events[i];
        log->n = 0;
        int rc = events_of(b->text, log, err, sizeof err);
        if (rc != b->rc || !strstr(err, b->says))
            fprintf(stderr, "  case \"%s\": %s: %s\n", b->name, fw_err_name(rc),
                    err);
        ASSERT_INT_EQ(rc, b->rc);
        ASSERT_TRUE(strstr(err, b->says) != NULL);
    }
    free(log);
}

TEST(events_callback_error_names_the_action)
{
    evlog *log = calloc(1, sizeof *log);
    char err[FW_PHH_ERR_MAX];
    /* 7 setup events, 6 cards, then the 14th event is "p3 cbr 6". */
    log->fail_at = 14;
    int rc = events_of(NT3(DEAL3 "'p3 cbr 6', 'p1 f', 'p2 f'"), log, err,
                       sizeof err);
    ASSERT_INT_EQ(rc, FW_ESTATE);
    ASSERT_TRUE(strstr(err, "action 4 \"p3 cbr 6\"") != NULL);
    ASSERT_TRUE(strstr(err, "test callback says no") != NULL);
    ASSERT_STR_EQ(fw_last_error(), err);
    log->n = 0;
    log->fail_at = 2;
    rc = events_of(NT3(DEAL3 "'p3 f'"), log, err, sizeof err);
    ASSERT_INT_EQ(rc, FW_ESTATE);
    ASSERT_TRUE(strstr(err, "level event") != NULL);
    free(log);
}

TEST(format_amount)
{
    char buf[32];
    ASSERT_INT_EQ(fw_phh_format_amount(193792375, 100, buf, sizeof buf), FW_OK);
    ASSERT_STR_EQ(buf, "1937923.75");
    fw_phh_format_amount(147569, 100, buf, sizeof buf);
    ASSERT_STR_EQ(buf, "1475.69");
    fw_phh_format_amount(67847350, 100, buf, sizeof buf);
    ASSERT_STR_EQ(buf, "678473.5");
    fw_phh_format_amount(0, 100, buf, sizeof buf);
    ASSERT_STR_EQ(buf, "0");
    fw_phh_format_amount(600, 1, buf, sizeof buf);
    ASSERT_STR_EQ(buf, "600");
    fw_phh_format_amount(5, 1000000, buf, sizeof buf);
    ASSERT_STR_EQ(buf, "0.000005");
    ASSERT_INT_EQ(fw_phh_format_amount(123456, 1, buf, 4), FW_ERANGE);
}

/* ------------------------------------------------------------------ */
/* Real hands through the engine                                        */
/* ------------------------------------------------------------------ */

/* Replay tests/phh/name and compare with its finishing_stacks. */
static void replay_hand(const char *name)
{
    size_t len;
    char *text = read_hand(name, &len);
    ASSERT_TRUE(text != NULL);
    fw_phh *h = new_phh();
    char err[FW_PHH_ERR_MAX];
    int rc = fw_phh_parse(text, len, h, err, sizeof err);
    free(text);
    if (rc != FW_OK)
        fprintf(stderr, "  parse: %s\n", err);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(h->has_finishing, 1);
    int64_t got[FW_PHH_MAX_PLAYERS];
    int n = 0;
    rc = fw_phh_replay(h, got, &n, err, sizeof err);
    if (rc != FW_OK)
        fprintf(stderr, "  replay: %s\n", err);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(n, h->nplayers);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (got[i] == h->finishing_stacks[i])
            continue;
        fprintf(stderr, "  p%d: expected %" PRId64 ", engine %" PRId64 "\n",
                i + 1, h->finishing_stacks[i], got[i]);
        bad = 1;
    }
    free(h);
    ASSERT_INT_EQ(bad, 0);
}

TEST(replay_nt_wsop2023_hand1_bb_ante)
{
    replay_hand("wsop2023-43-5-001-nt.phh");
}

TEST(replay_nt_wsop2023_hand64_shove_uncalled)
{
    replay_hand("wsop2023-43-5-064-nt-shove.phh");
}

TEST(replay_nt_wsop2023_hand68_allin_runout)
{
    replay_hand("wsop2023-43-5-068-nt-allin.phh");
}

TEST(replay_reports_a_skipped_player)
{
    /* A published hand whose actions never let p8, the button, act: the
     * engine reads the next actions as out of turn and the hand cannot
     * end. The replay must say so, not report stacks. */
    size_t len;
    char *text = read_hand("wsop2019-42-3-000107-nt-bad.phh", &len);
    ASSERT_TRUE(text != NULL);
    fw_phh *h = new_phh();
    char err[FW_PHH_ERR_MAX];
    int rc = fw_phh_parse(text, len, h, err, sizeof err);
    free(text);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(h->nplayers, 8);
    int64_t got[FW_PHH_MAX_PLAYERS];
    int n = 0;
    rc = fw_phh_replay(h, got, &n, err, sizeof err);
    ASSERT_INT_EQ(rc, FW_ESTATE);
    ASSERT_TRUE(strstr(err, "has not ended") != NULL);
    ASSERT_TRUE(strstr(err, "seat 8") != NULL);
    free(h);
}

TEST(replay_nt_pluribus_six_max)
{
    replay_hand("pluribus-100-0-nt.phh");
}

TEST(replay_nt_dwan_ivey_antes_allin)
{
    replay_hand("dwan-ivey-2009-nt.phh");
}

TEST(replay_nt_handhq_heads_up_cents)
{
    replay_hand("handhq-abs-1000nl-1-14-nt-headsup.phh");
}

TEST(replay_po_wsop2023_hand30)
{
    replay_hand("wsop2023-43-5-030-po.phh");
}

TEST(replay_po_wsop2023_hand31_split_pot)
{
    replay_hand("wsop2023-43-5-031-po-split.phh");
}

TEST(replay_po_antonius_blom_heads_up)
{
    replay_hand("antonius-blom-2009-po.phh");
}

TEST(replay_ft_wsop2023_hand35_showdown_muck)
{
    replay_hand("wsop2023-43-5-035-ft.phh");
}

TEST(replay_ft_wsop2023_hand37_walk)
{
    replay_hand("wsop2023-43-5-037-ft-walk.phh");
}

TEST(replay_ft_wsop2023_hand40)
{
    replay_hand("wsop2023-43-5-040-ft.phh");
}

TEST(replay_auto_showdown)
{
    /* The file stops after the river betting: the players still in show
     * the cards they were dealt. Pot 4: p1's aces win it. */
    fw_phh *h = new_phh();
    char err[FW_PHH_ERR_MAX];
    int rc = parse_str(NT3(DEAL3 "'p3 f', 'p1 cc', 'p2 cc', "
                                 "'d db 2h3h9s', 'p1 cc', 'p2 cc', "
                                 "'d db 5s', 'p1 cc', 'p2 cc', "
                                 "'d db 9d', 'p1 cc', 'p2 cc'"),
                       h, err, sizeof err);
    ASSERT_INT_EQ(rc, FW_OK);
    int64_t got[FW_PHH_MAX_PLAYERS];
    int n = 0;
    rc = fw_phh_replay(h, got, &n, err, sizeof err);
    if (rc != FW_OK)
        fprintf(stderr, "  replay: %s\n", err);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(got[0], 202);
    ASSERT_INT_EQ(got[1], 198);
    ASSERT_INT_EQ(got[2], 200);
    free(h);
}

TEST(events_short_all_in_bet)
{
    /* p1 has 5 behind the small blind: "cbr 6" is all-in for less than
     * the 10 to call, said as all-in. */
    evlog *log = calloc(1, sizeof *log);
    char err[FW_PHH_ERR_MAX];
    int rc = events_of("variant = 'NT'\nantes = [0, 0, 0]\n"
                       "blinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
                       "starting_stacks = [6, 200, 200]\n"
                       "actions = [" DEAL3 "'p3 cbr 10', 'p1 cbr 6']\n",
                       log, err, sizeof err);
    if (rc != FW_OK)
        fprintf(stderr, "  %s\n", err);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(log->ev[14].seat, 1);
    ASSERT_INT_EQ(log->ev[14].word, FW_WORD_ALL_IN);
    ASSERT_INT_EQ(log->ev[14].amount, 6);
    free(log);
}

TEST(replay_side_pots)
{
    /* Not a published hand: three all-in stacks of 100, 300 and 500. The
     * aces win the main pot of 300, the kings the side pot of 400, and
     * the button's last 200 come back uncalled. */
    fw_phh *h = new_phh();
    char err[FW_PHH_ERR_MAX];
    int rc = parse_str("variant = 'NT'\nantes = [0, 0, 0]\n"
                       "blinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
                       "starting_stacks = [100, 300, 500]\n"
                       "actions = ['d dh p1 AcAd', 'd dh p2 KcKd', "
                       "'d dh p3 QcQd', 'p3 cbr 500', 'p1 cc', 'p2 cc', "
                       "'p1 sm AcAd', 'p2 sm KcKd', 'p3 sm QcQd', "
                       "'d db 2h3h4s', 'd db 8d', 'd db 9c']\n",
                       h, err, sizeof err);
    ASSERT_INT_EQ(rc, FW_OK);
    int64_t got[FW_PHH_MAX_PLAYERS];
    int n = 0;
    rc = fw_phh_replay(h, got, &n, err, sizeof err);
    if (rc != FW_OK)
        fprintf(stderr, "  replay: %s\n", err);
    ASSERT_INT_EQ(rc, FW_OK);
    ASSERT_INT_EQ(got[0], 300);
    ASSERT_INT_EQ(got[1], 400);
    ASSERT_INT_EQ(got[2], 200);
    free(h);
}

/* Run fw_phh_main on path; *out and *errout get what it wrote. */
static int run_main(const char *path, char *out, size_t osz, char *errout,
                    size_t esz)
{
    FILE *o = tmpfile(), *e = tmpfile();
    if (!o || !e) {
        fprintf(stderr, "no tmpfile\n");
        exit(2);
    }
    int rc = fw_phh_main(path, o, e);
    rewind(o);
    rewind(e);
    out[fread(out, 1, osz - 1, o)] = '\0';
    errout[fread(errout, 1, esz - 1, e)] = '\0';
    fclose(o);
    fclose(e);
    return rc;
}

TEST(main_prints_finishing_stacks)
{
    char path[1024], out[512], errout[512];
    hand_path("antonius-blom-2009-po.phh", path, sizeof path);
    ASSERT_INT_EQ(run_main(path, out, sizeof out, errout, sizeof errout), 0);
    ASSERT_STR_EQ(out, "{\"finishing_stacks\":[1937923.75,0]}\n");
    ASSERT_STR_EQ(errout, "");

    hand_path("handhq-abs-1000nl-1-14-nt-headsup.phh", path, sizeof path);
    ASSERT_INT_EQ(run_main(path, out, sizeof out, errout, sizeof errout), 0);
    ASSERT_STR_EQ(out, "{\"finishing_stacks\":[1475.69,1851.58]}\n");

    hand_path("no-such-hand.phh", path, sizeof path);
    ASSERT_INT_EQ(run_main(path, out, sizeof out, errout, sizeof errout), 1);
    ASSERT_STR_EQ(out, "");
    ASSERT_TRUE(strstr(errout, "feltwatch: phh: ") == errout);
    ASSERT_TRUE(strstr(errout, "cannot open") != NULL);

    hand_path("wsop2019-42-3-000107-nt-bad.phh", path, sizeof path);
    ASSERT_INT_EQ(run_main(path, out, sizeof out, errout, sizeof errout), 1);
    ASSERT_TRUE(strstr(errout, "has not ended") != NULL);
}

TEST(replay_unfinished_hand)
{
    fw_phh *h = new_phh();
    char err[FW_PHH_ERR_MAX];
    ASSERT_INT_EQ(parse_str(NT3(DEAL3 "'p3 cbr 6'"), h, err, sizeof err),
                  FW_OK);
    int64_t got[FW_PHH_MAX_PLAYERS];
    int n = 0;
    int rc = fw_phh_replay(h, got, &n, err, sizeof err);
    ASSERT_INT_EQ(rc, FW_ESTATE);
    ASSERT_TRUE(strstr(err, "has not ended") != NULL);
    free(h);
}

static const fw_test_case cases[] = {
    TEST_CASE(parse_fields),
    TEST_CASE(parse_decimal_amounts),
    TEST_CASE(parse_noops_and_commentary),
    TEST_CASE(parse_optional_fields),
    TEST_CASE(parse_long_name_cut_on_utf8_boundary),
    TEST_CASE(parse_errors),
    TEST_CASE(parse_limits),
    TEST_CASE(events_setup_and_deal),
    TEST_CASE(events_check_call_and_muck),
    TEST_CASE(events_one_card_at_a_time_deal),
    TEST_CASE(events_heads_up_and_big_blind_ante),
    TEST_CASE(events_limit_level),
    TEST_CASE(events_errors),
    TEST_CASE(events_callback_error_names_the_action),
    TEST_CASE(events_short_all_in_bet),
    TEST_CASE(format_amount),
    TEST_CASE(replay_nt_wsop2023_hand1_bb_ante),
    TEST_CASE(replay_nt_wsop2023_hand64_shove_uncalled),
    TEST_CASE(replay_nt_wsop2023_hand68_allin_runout),
    TEST_CASE(replay_nt_pluribus_six_max),
    TEST_CASE(replay_nt_dwan_ivey_antes_allin),
    TEST_CASE(replay_nt_handhq_heads_up_cents),
    TEST_CASE(replay_po_wsop2023_hand30),
    TEST_CASE(replay_po_wsop2023_hand31_split_pot),
    TEST_CASE(replay_po_antonius_blom_heads_up),
    TEST_CASE(replay_ft_wsop2023_hand35_showdown_muck),
    TEST_CASE(replay_ft_wsop2023_hand37_walk),
    TEST_CASE(replay_ft_wsop2023_hand40),
    TEST_CASE(replay_auto_showdown),
    TEST_CASE(replay_side_pots),
    TEST_CASE(main_prints_finishing_stacks),
    TEST_CASE(replay_unfinished_hand),
    TEST_CASE(replay_reports_a_skipped_player),
};

TEST_MAIN(cases)
