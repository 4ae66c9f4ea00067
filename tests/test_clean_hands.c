/*
 * test_clean_hands.c - the false-alarm test. Thousands of generated hands,
 * dealt and bet by the book (cards one at a time from the left of the
 * button, one burn per street, legal bets by voice or by chips, all-ins,
 * folds, heads-up play as players go broke), must raise no irregularity:
 * no alert of severity warn or stop. Chips are counted after every hand:
 * nothing is created or lost.
 *
 * The generator reads the engine's own state record to know whose turn it
 * is and what is legal, the way a dealer reads the screen.
 */
#include "harness.h"
#include "rules.h"

#include <stdbool.h>

typedef struct gen {
    uint64_t rng;
    fw_engine *engine;
    fw_state st;       /* the last state record */
    int alarms;        /* warn or stop alerts */
    int hands_ended;
    int awards;
    char last_alarm[FW_TEXT_MAX + 64];
} gen;

static uint64_t next_rand(gen *g)
{
    g->rng ^= g->rng << 13;
    g->rng ^= g->rng >> 7;
    g->rng ^= g->rng << 17;
    return g->rng;
}

static int pick(gen *g, int n)
{
    return (int)(next_rand(g) % (uint64_t)n);
}

static void on_record(void *ctx, const fw_record *rec)
{
    gen *g = ctx;
    switch (rec->type) {
    case FW_REC_STATE:
        g->st = rec->u.state;
        break;
    case FW_REC_ALERT:
        if (rec->u.alert.severity != FW_SEV_INFO) {
            g->alarms++;
            snprintf(g->last_alarm, sizeof g->last_alarm, "%s (%s): %s",
                     rec->u.alert.kind, rec->u.alert.rule,
                     rec->u.alert.text);
        }
        break;
    case FW_REC_HAND_END:
        g->hands_ended++;
        break;
    case FW_REC_AWARD:
        g->awards++;
        break;
    default:
        break;
    }
}

/* FW_TRACE=1 prints every event, to reproduce a failing hand by eye */
static void trace(const gen *g, const fw_event *ev)
{
    if (!getenv("FW_TRACE"))
        return;
    fprintf(stderr, "  [hand %d %s to_act %d call %lld] %s seat %d",
            g->st.hand, fw_street_name(g->st.street), g->st.to_act,
            (long long)g->st.to_call, fw_event_type_name(ev->type),
            ev->seat);
    if (ev->type == FW_EV_SAY)
        fprintf(stderr, " %s %lld", fw_word_name(ev->word) ? fw_word_name(ev->word) : "-",
                ev->has_amount ? (long long)ev->amount : -1LL);
    for (int i = 0; i < ev->nchips; i++)
        fprintf(stderr, " %lld", (long long)ev->chips[i]);
    fprintf(stderr, "\n");
}

static int apply(gen *g, const fw_event *ev)
{
    const char *why = NULL;
    trace(g, ev);
    int rc = fw_engine_apply(g->engine, ev, &why);
    if (rc != FW_OK)
        fprintf(stderr, "  engine refused an event: %s\n", why ? why : "");
    return rc;
}

static const int64_t chip_set[] = {5000, 1000, 500, 100, 25};

/* Push `amount` as chips of the set, largest first. */
static void push_amount(gen *g, int s, int64_t amount)
{
    fw_event ev = {0};
    ev.type = FW_EV_PUSH;
    ev.seat = s;
    for (size_t i = 0; i < sizeof chip_set / sizeof chip_set[0]; i++)
        while (amount >= chip_set[i] && ev.nchips < FW_MAX_CHIPS_PER_EVENT) {
            ev.chips[ev.nchips++] = chip_set[i];
            amount -= chip_set[i];
        }
    if (ev.nchips)
        apply(g, &ev);
}

static void say(gen *g, int s, fw_word w, int64_t amount)
{
    fw_event ev = {0};
    ev.type = FW_EV_SAY;
    ev.seat = s;
    ev.word = w;
    if (amount >= 0) {
        ev.has_amount = 1;
        ev.amount = amount;
    }
    apply(g, &ev);
}

static const fw_seat_view *view(const gen *g, int s)
{
    return &g->st.seats[s - 1];
}

/* One legal action for the seat to act, by voice or by chips. */
static void act(gen *g)
{
    int s = g->st.to_act;
    const fw_seat_view *v = view(g, s);
    int64_t to_call = g->st.to_call;
    bool can_raise = g->st.min_raise_to != FW_NULL_AMOUNT;
    bool by_voice = pick(g, 2);
    int r = pick(g, 100);
    if (r < 15 && to_call > 0) {
        fw_event ev = {0};
        ev.type = FW_EV_FOLD;
        ev.seat = s;
        apply(g, &ev);
    } else if (r < 75 || !can_raise) {
        if (to_call == 0)
            say(g, s, FW_WORD_CHECK, -1);
        else if (by_voice)
            say(g, s, FW_WORD_CALL, -1);
        else if (to_call >= v->stack)
            say(g, s, FW_WORD_ALL_IN, -1);
        else
            push_amount(g, s, to_call);
    } else if (r < 92) {
        int64_t lo = g->st.min_raise_to, hi = g->st.max_raise_to;
        int64_t to = lo;
        if (hi > lo && pick(g, 3) == 0)
            to = lo + (int64_t)(next_rand(g) % (uint64_t)(hi - lo + 1));
        to -= to % 25;
        if (to < lo)
            to = lo;
        if (by_voice || to >= v->bet + v->stack)
            say(g, s, FW_WORD_RAISE, to);
        else
            push_amount(g, s, to - v->bet);
    } else {
        say(g, s, FW_WORD_ALL_IN, -1);
    }
}

static void card_event(gen *g, fw_card_to to, int s, fw_card c)
{
    fw_event ev = {0};
    ev.type = FW_EV_CARD;
    ev.to = to;
    ev.seat = s;
    ev.face = to == FW_TO_BOARD ? FW_FACE_UP : FW_FACE_DOWN;
    ev.card = to == FW_TO_BOARD ? c : FW_CARD_NONE;
    apply(g, &ev);
}

static int64_t chips_on_table(const gen *g)
{
    int64_t t = 0;
    for (int i = 0; i < g->st.nseats; i++)
        t += g->st.seats[i].stack + g->st.seats[i].bet;
    return t;
}

/* Play one hand by the book. Returns false if the table cannot play. */
static bool play_hand(gen *g, fw_game game, int64_t total)
{
    fw_event ev = {0};
    ev.type = FW_EV_HAND_START;
    int before = g->hands_ended;
    apply(g, &ev);
    if (g->st.street != FW_ST_DEAL)
        return false;

    /* shuffle a deck */
    fw_card deck[52];
    for (int i = 0; i < 52; i++)
        deck[i] = (fw_card)i;
    for (int i = 51; i > 0; i--) {
        int j = pick(g, i + 1);
        fw_card t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    int top = 0;
    fw_card hole[FW_MAX_SEATS + 1][FW_MAX_HOLE];
    int n = g->st.nseats, hc = fw_game_hole_cards(game);
    bool in[FW_MAX_SEATS + 1] = {0};
    for (int s = 1; s <= n; s++)
        in[s] = view(g, s)->status == FW_SEAT_ACTIVE ||
                view(g, s)->status == FW_SEAT_ALL_IN;
    for (int r = 0; r < hc; r++)
        for (int k = 1; k <= n; k++) {
            int s = (g->st.button + k - 1) % n + 1;
            if (!in[s])
                continue;
            hole[s][r] = deck[top++];
            card_event(g, FW_TO_SEAT, s, FW_CARD_NONE);
        }
    int street_cards[] = {3, 1, 1};
    for (int street = 0; street < 3 && g->hands_ended == before; street++) {
        for (int guard = 0; g->st.to_act && guard < 200; guard++)
            act(g);
        if (g->hands_ended != before)
            break;
        card_event(g, FW_TO_BURN, 0, FW_CARD_NONE);
        top++;
        for (int i = 0; i < street_cards[street]; i++)
            card_event(g, FW_TO_BOARD, 0, deck[top++]);
    }
    for (int guard = 0; g->st.to_act && guard < 200; guard++)
        act(g);
    /* showdown: every live hand tabled */
    for (int k = 1; k <= n && g->hands_ended == before; k++) {
        int s = (g->st.button + k - 1) % n + 1;
        fw_seat_status st = view(g, s)->status;
        if (!in[s] || (st != FW_SEAT_ACTIVE && st != FW_SEAT_ALL_IN))
            continue;
        fw_event sh = {0};
        sh.type = FW_EV_SHOW;
        sh.seat = s;
        sh.ncards = hc;
        for (int i = 0; i < hc; i++)
            sh.cards[i] = hole[s][i];
        apply(g, &sh);
    }
    if (g->hands_ended == before) {
        fprintf(stderr, "  hand %d did not end (street %s)\n", g->st.hand,
                fw_street_name(g->st.street));
        return false;
    }
    if (chips_on_table(g) != total) {
        fprintf(stderr, "  hand %d: %lld chips on the table, expected %lld\n",
                g->st.hand, (long long)chips_on_table(g), (long long)total);
        return false;
    }
    return true;
}

/* A table of `seats` players; busted players buy back in now and then so
 * the table goes heads-up and back. */
static int run_session(uint64_t seed, fw_game game, int seats, int hands)
{
    gen g;
    memset(&g, 0, sizeof g);
    g.rng = seed;
    if (fw_engine_new(on_record, &g, &g.engine) != FW_OK)
        return -1;
    fw_event ev = {0};
    ev.type = FW_EV_TABLE;
    ev.seats = seats;
    ev.game = game;
    for (size_t i = 0; i < sizeof chip_set / sizeof chip_set[0]; i++)
        ev.chip_set[ev.nchip_set++] = chip_set[i];
    apply(&g, &ev);
    memset(&ev, 0, sizeof ev);
    ev.type = FW_EV_LEVEL;
    ev.sb = 50;
    ev.bb = 100;
    ev.small_bet = 100;
    ev.big_bet = 200;
    ev.ante = game == FW_GAME_NLHE ? 100 : 0;
    apply(&g, &ev);
    int64_t total = 0;
    for (int s = 1; s <= seats; s++) {
        memset(&ev, 0, sizeof ev);
        ev.type = FW_EV_SEAT;
        ev.seat = s;
        ev.has_player = 1;
        snprintf(ev.player, sizeof ev.player, "P%d", s);
        ev.has_stack = 1;
        ev.stack = 2000 + 500 * pick(&g, 10);
        total += ev.stack;
        apply(&g, &ev);
    }
    int played = 0;
    for (int h = 0; h < hands; h++) {
        int with_chips = 0;
        for (int s = 1; s <= seats; s++)
            with_chips += view(&g, s)->stack > 0;
        /* every 25 hands, or when one player is left, the broke players
         * buy back in */
        if (h % 25 == 24 || with_chips < 2)
            for (int s = 1; s <= seats; s++)
                if (view(&g, s)->stack == 0) {
                    memset(&ev, 0, sizeof ev);
                    ev.type = FW_EV_SEAT;
                    ev.seat = s;
                    ev.has_player = 1;
                    snprintf(ev.player, sizeof ev.player, "Q%d", s);
                    ev.has_stack = 1;
                    ev.stack = 3000;
                    total += 3000;
                    apply(&g, &ev);
                }
        if (!play_hand(&g, game, total))
            break;
        played++;
        if (g.alarms)
            break;
    }
    if (g.alarms)
        fprintf(stderr, "  false alarm in hand %d: %s\n", g.st.hand,
                g.last_alarm);
    fw_engine_free(g.engine);
    return g.alarms ? -1 : played;
}

static void check_sessions(fw_game game, uint64_t seed0, int sessions,
                           int hands)
{
    int total = 0;
    for (int i = 0; i < sessions; i++) {
        int seats = 2 + i % 9;
        int played = run_session(seed0 + (uint64_t)i * 7919, game, seats,
                                 hands);
        if (played < 0)
            FW_TEST_FAIL_("session %d (%d seats) raised a false alarm", i,
                          seats);
        if (played < hands && played < 5)
            FW_TEST_FAIL_("session %d (%d seats) stopped after %d hands", i,
                          seats, played);
        total += played;
    }
    printf("  %d clean hands, no irregularity alert\n", total);
    ASSERT_TRUE(total >= sessions * 5);
}

TEST(nlhe_thousands_of_clean_hands)
{
    check_sessions(FW_GAME_NLHE, 0x9E3779B97F4A7C15ull, 36, 250);
}

TEST(plo_clean_hands)
{
    check_sessions(FW_GAME_PLO, 0xD1B54A32D192ED03ull, 18, 60);
}

TEST(flhe_clean_hands)
{
    check_sessions(FW_GAME_FLHE, 0xA0761D6478BD642Full, 18, 60);
}

static const fw_test_case cases[] = {
    TEST_CASE(nlhe_thousands_of_clean_hands),
    TEST_CASE(plo_clean_hands),
    TEST_CASE(flhe_clean_hands),
};

TEST_MAIN(cases)
