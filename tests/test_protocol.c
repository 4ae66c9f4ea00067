/*
 * test_protocol.c - the protocol names (rules/names.c), the JSON Lines reader
 * and the record writer (app/protocol.c).
 */
#include "harness.h"
#include "protocol.h"

#include <limits.h>

/* Parse a NUL-terminated line as line 7; expects FW_OK. */
#define PARSE_OK(text, ev)                                                     \
    do {                                                                       \
        char err_[FW_PROTOCOL_ERR_MAX];                                        \
        int rc_ = fw_protocol_parse_line(text, strlen(text), 7, ev, err_,      \
                                         sizeof err_);                         \
        if (rc_ != FW_OK)                                                      \
            FW_TEST_FAIL_("parse %s: rc %d: %s", text, rc_, err_);             \
    } while (0)

/* ------------------------------------------------------------------ */
/* Names                                                                */
/* ------------------------------------------------------------------ */

TEST(names_games_and_profiles)
{
    static const char *games[] = {"NLHE", "PLO", "PLO5", "FLHE", "NLSD"};
    static const int holes[] = {2, 4, 5, 2, 2};
    static const char *profiles[] = {"tda", "tda-2015", "tpf", "tda-older"};
    for (int i = 0; i < FW_GAME_COUNT; i++) {
        ASSERT_STR_EQ(fw_game_name((fw_game)i), games[i]);
        ASSERT_INT_EQ(fw_game_from_name(games[i]), i);
        ASSERT_INT_EQ(fw_game_hole_cards((fw_game)i), holes[i]);
    }
    for (int i = 0; i < FW_PROFILE_COUNT; i++) {
        ASSERT_STR_EQ(fw_profile_name((fw_profile_id)i), profiles[i]);
        ASSERT_INT_EQ(fw_profile_from_name(profiles[i]), i);
    }
    ASSERT_TRUE(fw_game_name(FW_GAME_COUNT) == NULL);
    ASSERT_TRUE(fw_game_name((fw_game)-1) == NULL);
    ASSERT_INT_EQ(fw_game_hole_cards(FW_GAME_COUNT), 0);
    ASSERT_TRUE(fw_profile_name(FW_PROFILE_COUNT) == NULL);
    ASSERT_INT_EQ(fw_game_from_name("nlhe"), -1);
    ASSERT_INT_EQ(fw_game_from_name(""), -1);
    ASSERT_INT_EQ(fw_game_from_name(NULL), -1);
    ASSERT_INT_EQ(fw_profile_from_name("TDA"), -1);
}

TEST(names_events_words_decisions)
{
    static const char *types[] = {
        "table",   "level",      "seat", "button", "away",  "present",
        "penalty", "hand_start", "card", "say",    "push",  "pull",
        "fold",    "show",       "muck", "floor",  "clock", "tick"};
    static const char *words[] = {NULL,   "check",  "call", "bet",     "raise",
                                  "fold", "all-in", "pot",  "complete"};
    static const char *decisions[] = {"misdeal", "continue", "full_call",
                                      "forfeit_fold", "dead_hand"};
    static const char *tos[] = {"seat", "burn", "board", "deck", "muck"};
    ASSERT_INT_EQ(sizeof types / sizeof types[0], FW_EV_COUNT);
    for (int i = 0; i < FW_EV_COUNT; i++) {
        ASSERT_STR_EQ(fw_event_type_name((fw_event_type)i), types[i]);
        ASSERT_INT_EQ(fw_event_type_from_name(types[i]), i);
    }
    ASSERT_TRUE(fw_word_name(FW_WORD_NONE) == NULL);
    for (int i = 1; i < FW_WORD_COUNT; i++) {
        ASSERT_STR_EQ(fw_word_name((fw_word)i), words[i]);
        ASSERT_INT_EQ(fw_word_from_name(words[i]), i);
    }
    for (int i = 0; i < FW_DEC_COUNT; i++) {
        ASSERT_STR_EQ(fw_decision_name((fw_decision)i), decisions[i]);
        ASSERT_INT_EQ(fw_decision_from_name(decisions[i]), i);
    }
    for (int i = 0; i <= FW_TO_MUCK; i++) {
        ASSERT_STR_EQ(fw_card_to_name((fw_card_to)i), tos[i]);
        ASSERT_INT_EQ(fw_card_to_from_name(tos[i]), i);
    }
    ASSERT_TRUE(fw_event_type_name(FW_EV_COUNT) == NULL);
    ASSERT_TRUE(fw_word_name(FW_WORD_COUNT) == NULL);
    ASSERT_TRUE(fw_decision_name(FW_DEC_COUNT) == NULL);
    ASSERT_TRUE(fw_card_to_name((fw_card_to)(FW_TO_MUCK + 1)) == NULL);
    ASSERT_INT_EQ(fw_word_from_name("allin"), -1);
    ASSERT_INT_EQ(fw_word_from_name(""), -1);
    ASSERT_INT_EQ(fw_event_type_from_name("Table"), -1);
    ASSERT_INT_EQ(fw_decision_from_name(NULL), -1);
    ASSERT_INT_EQ(fw_card_to_from_name("hand"), -1);
}

TEST(names_output_enums)
{
    static const char *actions[] = {"check",  "call", "bet",  "raise",
                                    "all-in", "fold", "floor"};
    static const char *sevs[] = {"info", "warn", "stop"};
    static const char *streets[] = {"predeal", "deal",  "preflop",  "flop",
                                    "turn",    "river", "showdown", "complete"};
    static const char *statuses[] = {"empty",  "out",    "active",
                                     "folded", "all_in", "dead"};
    for (int i = 0; i < FW_ACT_COUNT; i++)
        ASSERT_STR_EQ(fw_action_name((fw_action)i), actions[i]);
    for (int i = 0; i <= FW_SEV_STOP; i++)
        ASSERT_STR_EQ(fw_severity_name((fw_severity)i), sevs[i]);
    for (int i = 0; i <= FW_ST_COMPLETE; i++)
        ASSERT_STR_EQ(fw_street_name((fw_street)i), streets[i]);
    for (int i = 0; i <= FW_SEAT_DEAD; i++)
        ASSERT_STR_EQ(fw_seat_status_name((fw_seat_status)i), statuses[i]);
    ASSERT_TRUE(fw_action_name(FW_ACT_COUNT) == NULL);
    ASSERT_TRUE(fw_severity_name((fw_severity)(FW_SEV_STOP + 1)) == NULL);
    ASSERT_TRUE(fw_street_name((fw_street)(FW_ST_COMPLETE + 1)) == NULL);
    ASSERT_TRUE(fw_seat_status_name((fw_seat_status)(FW_SEAT_DEAD + 1)) ==
                NULL);
    ASSERT_TRUE(fw_street_name((fw_street)-1) == NULL);
}

/* ------------------------------------------------------------------ */
/* Reader: every event type                                             */
/* ------------------------------------------------------------------ */

TEST(parse_table)
{
    fw_event ev;
    PARSE_OK("{\"type\":\"table\",\"seats\":9,\"game\":\"PLO5\","
             "\"rules\":\"tda-2015\",\"chips\":[{\"value\":25,\"color\":"
             "\"green\"},{\"value\":100},{\"value\":500,\"color\":null}],"
             "\"raise_cap\":3,\"t\":1.5}",
             &ev);
    ASSERT_INT_EQ(ev.type, FW_EV_TABLE);
    ASSERT_INT_EQ(ev.seats, 9);
    ASSERT_INT_EQ(ev.game, FW_GAME_PLO5);
    ASSERT_INT_EQ(ev.profile, FW_PROFILE_TDA_2015);
    ASSERT_INT_EQ(ev.nchip_set, 3);
    ASSERT_INT_EQ(ev.chip_set[0], 25);
    ASSERT_INT_EQ(ev.chip_set[1], 100);
    ASSERT_INT_EQ(ev.chip_set[2], 500);
    ASSERT_INT_EQ(ev.raise_cap, 3);
    ASSERT_INT_EQ(ev.has_t, 1);
    ASSERT_TRUE(ev.t == 1.5);

    PARSE_OK("{\"type\":\"table\",\"seats\":2,\"game\":\"NLSD\"}", &ev);
    ASSERT_INT_EQ(ev.seats, 2);
    ASSERT_INT_EQ(ev.game, FW_GAME_NLSD);
    ASSERT_INT_EQ(ev.profile, FW_PROFILE_TDA);
    ASSERT_INT_EQ(ev.nchip_set, 0);
    ASSERT_INT_EQ(ev.raise_cap, 0);
    ASSERT_INT_EQ(ev.has_t, 0);
}

TEST(parse_level)
{
    fw_event ev;
    PARSE_OK("{\"type\":\"level\",\"sb\":250,\"bb\":500}", &ev);
    ASSERT_INT_EQ(ev.type, FW_EV_LEVEL);
    ASSERT_INT_EQ(ev.sb, 250);
    ASSERT_INT_EQ(ev.bb, 500);
    ASSERT_INT_EQ(ev.ante, 0);
    ASSERT_INT_EQ(ev.ante_type, FW_ANTE_BB);
    PARSE_OK("{\"type\":\"level\",\"sb\":0,\"bb\":1000000000000000,"
             "\"ante\":50,\"ante_type\":\"each\",\"small_bet\":200,"
             "\"big_bet\":400}",
             &ev);
    ASSERT_INT_EQ(ev.sb, 0);
    ASSERT_INT_EQ(ev.bb, FW_PROTOCOL_MAX_AMOUNT);
    ASSERT_INT_EQ(ev.ante, 50);
    ASSERT_INT_EQ(ev.ante_type, FW_ANTE_EACH);
    ASSERT_INT_EQ(ev.small_bet, 200);
    ASSERT_INT_EQ(ev.big_bet, 400);
    PARSE_OK("{\"type\":\"level\",\"sb\":1,\"bb\":2,\"ante_type\":\"bb\"}",
             &ev);
    ASSERT_INT_EQ(ev.ante_type, FW_ANTE_BB);
}

TEST(parse_seat)
{
    fw_event ev;
    PARSE_OK("{\"type\":\"seat\",\"seat\":1,\"player\":\"A\","
             "\"stack\":50000}",
             &ev);
    ASSERT_INT_EQ(ev.type, FW_EV_SEAT);
    ASSERT_INT_EQ(ev.seat, 1);
    ASSERT_INT_EQ(ev.has_player, 1);
    ASSERT_STR_EQ(ev.player, "A");
    ASSERT_INT_EQ(ev.has_stack, 1);
    ASSERT_INT_EQ(ev.stack, 50000);

    PARSE_OK("{\"type\":\"seat\",\"seat\":10,\"player\":null}", &ev);
    ASSERT_INT_EQ(ev.seat, 10);
    ASSERT_INT_EQ(ev.has_player, 0);
    ASSERT_STR_EQ(ev.player, "");
    ASSERT_INT_EQ(ev.has_stack, 0);

    /* A name of exactly FW_MAX_NAME - 1 bytes, UTF-8 included. */
    char line[256], name[FW_MAX_NAME];
    memset(name, 'x', sizeof name);
    memcpy(name, "\xc3\xa9", 2); /* e acute */
    name[FW_MAX_NAME - 1] = '\0';
    snprintf(line, sizeof line,
             "{\"type\":\"seat\",\"seat\":3,\"player\":\"%s\",\"stack\":0}",
             name);
    PARSE_OK(line, &ev);
    ASSERT_STR_EQ(ev.player, name);
    ASSERT_INT_EQ(ev.has_stack, 1);
    ASSERT_INT_EQ(ev.stack, 0);

    /* Escapes are decoded. */
    PARSE_OK("{\"type\":\"seat\",\"seat\":2,\"player\":\"Al \\\"Ace\\\" "
             "\\u00e9\"}",
             &ev);
    ASSERT_STR_EQ(ev.player, "Al \"Ace\" \xc3\xa9");
}

TEST(parse_seat_only_events)
{
    static const struct {
        const char *name;
        fw_event_type type;
    } types[] = {{"button", FW_EV_BUTTON},   {"away", FW_EV_AWAY},
                 {"present", FW_EV_PRESENT}, {"fold", FW_EV_FOLD},
                 {"muck", FW_EV_MUCK},       {"clock", FW_EV_CLOCK}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        char line[128];
        fw_event ev;
        snprintf(line, sizeof line, "{\"type\":\"%s\",\"seat\":%d}",
                 types[i].name, (int)i + 3);
        PARSE_OK(line, &ev);
        ASSERT_INT_EQ(ev.type, types[i].type);
        ASSERT_INT_EQ(ev.seat, (int)i + 3);
    }
}

TEST(parse_penalty_hand_start_tick)
{
    fw_event ev;
    PARSE_OK("{\"type\":\"penalty\",\"seat\":6,\"hands\":3}", &ev);
    ASSERT_INT_EQ(ev.type, FW_EV_PENALTY);
    ASSERT_INT_EQ(ev.seat, 6);
    ASSERT_INT_EQ(ev.hands, 3);

    PARSE_OK("{\"type\":\"hand_start\"}", &ev);
    ASSERT_INT_EQ(ev.type, FW_EV_HAND_START);
    ASSERT_INT_EQ(ev.has_t, 0);
    ASSERT_INT_EQ(ev.card, FW_CARD_NONE);
    PARSE_OK("{\"type\":\"hand_start\",\"t\":12}", &ev);
    ASSERT_INT_EQ(ev.has_t, 1);
    ASSERT_TRUE(ev.t == 12.0);

    PARSE_OK("{\"type\":\"tick\",\"t\":30.25}", &ev);
    ASSERT_INT_EQ(ev.type, FW_EV_TICK);
    ASSERT_INT_EQ(ev.has_t, 1);
    ASSERT_TRUE(ev.t == 30.25);
    PARSE_OK("{\"type\":\"tick\",\"t\":0}", &ev);
    ASSERT_INT_EQ(ev.has_t, 1);
    ASSERT_TRUE(ev.t == 0.0);
}

TEST(parse_card)
{
    fw_event ev;
    char s[3];
    PARSE_OK("{\"type\":\"card\",\"to\":\"seat\",\"seat\":2}", &ev);
    ASSERT_INT_EQ(ev.type, FW_EV_CARD);
    ASSERT_INT_EQ(ev.to, FW_TO_SEAT);
    ASSERT_INT_EQ(ev.seat, 2);
    ASSERT_INT_EQ(ev.face, FW_FACE_DOWN);
    ASSERT_INT_EQ(ev.card, FW_CARD_NONE);

    PARSE_OK("{\"type\":\"card\",\"to\":\"board\",\"card\":\"Ah\"}", &ev);
    ASSERT_INT_EQ(ev.to, FW_TO_BOARD);
    ASSERT_INT_EQ(ev.face, FW_FACE_UP);
    fw_card_str(ev.card, s);
    ASSERT_STR_EQ(s, "Ah");

    /* Board without a card: allowed, the engine decides. */
    PARSE_OK("{\"type\":\"card\",\"to\":\"board\"}", &ev);
    ASSERT_INT_EQ(ev.face, FW_FACE_UP);
    ASSERT_INT_EQ(ev.card, FW_CARD_NONE);

    PARSE_OK("{\"type\":\"card\",\"to\":\"board\",\"face\":\"down\"}", &ev);
    ASSERT_INT_EQ(ev.face, FW_FACE_DOWN);

    PARSE_OK("{\"type\":\"card\",\"to\":\"deck\",\"face\":\"up\","
             "\"card\":\"Td\"}",
             &ev);
    ASSERT_INT_EQ(ev.to, FW_TO_DECK);
    ASSERT_INT_EQ(ev.face, FW_FACE_UP);
    fw_card_str(ev.card, s);
    ASSERT_STR_EQ(s, "Td");

    PARSE_OK("{\"type\":\"card\",\"to\":\"burn\"}", &ev);
    ASSERT_INT_EQ(ev.to, FW_TO_BURN);
    ASSERT_INT_EQ(ev.seat, 0);
    ASSERT_INT_EQ(ev.face, FW_FACE_DOWN);

    PARSE_OK("{\"type\":\"card\",\"to\":\"muck\",\"seat\":4,\"face\":\"up\","
             "\"card\":\"2c\"}",
             &ev);
    ASSERT_INT_EQ(ev.to, FW_TO_MUCK);
    ASSERT_INT_EQ(ev.seat, 4);
    fw_card_str(ev.card, s);
    ASSERT_STR_EQ(s, "2c");

    PARSE_OK("{\"type\":\"card\",\"to\":\"seat\",\"seat\":5,\"face\":\"up\","
             "\"card\":null}",
             &ev);
    ASSERT_INT_EQ(ev.card, FW_CARD_NONE);
}

TEST(parse_say)
{
    fw_event ev;
    PARSE_OK("{\"type\":\"say\",\"seat\":4,\"word\":\"raise\","
             "\"amount\":1100}",
             &ev);
    ASSERT_INT_EQ(ev.type, FW_EV_SAY);
    ASSERT_INT_EQ(ev.seat, 4);
    ASSERT_INT_EQ(ev.word, FW_WORD_RAISE);
    ASSERT_INT_EQ(ev.has_amount, 1);
    ASSERT_INT_EQ(ev.amount, 1100);

    PARSE_OK("{\"type\":\"say\",\"seat\":4,\"word\":\"all-in\"}", &ev);
    ASSERT_INT_EQ(ev.word, FW_WORD_ALL_IN);
    ASSERT_INT_EQ(ev.has_amount, 0);

    /* Rule 40-B: an amount alone. */
    PARSE_OK("{\"type\":\"say\",\"seat\":9,\"amount\":1400}", &ev);
    ASSERT_INT_EQ(ev.word, FW_WORD_NONE);
    ASSERT_INT_EQ(ev.has_amount, 1);
    ASSERT_INT_EQ(ev.amount, 1400);

    PARSE_OK("{\"type\":\"say\",\"seat\":9,\"word\":null,\"amount\":0}", &ev);
    ASSERT_INT_EQ(ev.word, FW_WORD_NONE);
    ASSERT_INT_EQ(ev.amount, 0);

    static const char *words[] = {"check", "call",   "bet", "raise",
                                  "fold",  "all-in", "pot", "complete"};
    for (int i = 0; i < 8; i++) {
        char line[128];
        snprintf(line, sizeof line,
                 "{\"type\":\"say\",\"seat\":1,\"word\":\"%s\"}", words[i]);
        PARSE_OK(line, &ev);
        ASSERT_INT_EQ(ev.word, i + 1);
    }
}

TEST(parse_push_pull)
{
    fw_event ev;
    PARSE_OK("{\"type\":\"push\",\"seat\":5,\"chips\":[1000,100,100,100,"
             "100,100]}",
             &ev);
    ASSERT_INT_EQ(ev.type, FW_EV_PUSH);
    ASSERT_INT_EQ(ev.seat, 5);
    ASSERT_INT_EQ(ev.nchips, 6);
    ASSERT_INT_EQ(ev.chips[0], 1000);
    ASSERT_INT_EQ(ev.chips[5], 100);

    PARSE_OK("{\"type\":\"pull\",\"seat\":5,\"chips\":[100]}", &ev);
    ASSERT_INT_EQ(ev.type, FW_EV_PULL);
    ASSERT_INT_EQ(ev.nchips, 1);
    PARSE_OK("{\"type\":\"pull\",\"seat\":5,\"chips\":[]}", &ev);
    ASSERT_INT_EQ(ev.nchips, 0);

    /* Exactly FW_MAX_CHIPS_PER_EVENT chips. */
    char line[FW_MAX_CHIPS_PER_EVENT * 4 + 64];
    size_t n = (size_t)snprintf(line, sizeof line,
                                "{\"type\":\"push\",\"seat\":1,\"chips\":[");
    for (int i = 0; i < FW_MAX_CHIPS_PER_EVENT; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, "%s25", i ? "," : "");
    snprintf(line + n, sizeof line - n, "]}");
    PARSE_OK(line, &ev);
    ASSERT_INT_EQ(ev.nchips, FW_MAX_CHIPS_PER_EVENT);
    ASSERT_INT_EQ(ev.chips[FW_MAX_CHIPS_PER_EVENT - 1], 25);
}

TEST(parse_show)
{
    fw_event ev;
    char s[3];
    PARSE_OK("{\"type\":\"show\",\"seat\":3,\"cards\":[\"Ah\",\"Kd\"]}", &ev);
    ASSERT_INT_EQ(ev.type, FW_EV_SHOW);
    ASSERT_INT_EQ(ev.seat, 3);
    ASSERT_INT_EQ(ev.ncards, 2);
    fw_card_str(ev.cards[0], s);
    ASSERT_STR_EQ(s, "Ah");
    fw_card_str(ev.cards[1], s);
    ASSERT_STR_EQ(s, "Kd");
    PARSE_OK("{\"type\":\"show\",\"seat\":3,\"cards\":[\"Ah\",\"Kd\",\"2c\","
             "\"3c\",\"Ts\"]}",
             &ev);
    ASSERT_INT_EQ(ev.ncards, 5);
    fw_card_str(ev.cards[4], s);
    ASSERT_STR_EQ(s, "Ts");
    PARSE_OK("{\"type\":\"show\",\"seat\":3,\"cards\":[\"9s\"]}", &ev);
    ASSERT_INT_EQ(ev.ncards, 1);
}

TEST(parse_floor)
{
    fw_event ev;
    PARSE_OK("{\"type\":\"floor\",\"decision\":\"misdeal\"}", &ev);
    ASSERT_INT_EQ(ev.type, FW_EV_FLOOR);
    ASSERT_INT_EQ(ev.decision, FW_DEC_MISDEAL);
    ASSERT_INT_EQ(ev.seat, 0);
    PARSE_OK("{\"type\":\"floor\",\"decision\":\"forfeit_fold\",\"seat\":7}",
             &ev);
    ASSERT_INT_EQ(ev.decision, FW_DEC_FORFEIT_FOLD);
    ASSERT_INT_EQ(ev.seat, 7);
    PARSE_OK("{\"type\":\"floor\",\"decision\":\"dead_hand\",\"seat\":null}",
             &ev);
    ASSERT_INT_EQ(ev.decision, FW_DEC_DEAD_HAND);
    ASSERT_INT_EQ(ev.seat, 0);
}

TEST(parse_lenient_bits)
{
    fw_event ev;
    /* Unknown fields of any shape are ignored, wherever they sit. */
    PARSE_OK("{\"note\":{\"a\":[1,2,{\"b\":null}]},\"type\":\"fold\","
             "\"seat\":2,\"confidence\":0.93,\"x\":\"\\u00e9\"}",
             &ev);
    ASSERT_INT_EQ(ev.type, FW_EV_FOLD);
    ASSERT_INT_EQ(ev.seat, 2);
    /* Whitespace and a CRLF ending. */
    PARSE_OK("  { \"type\" : \"fold\" , \"seat\" : 3 }\r\n", &ev);
    ASSERT_INT_EQ(ev.seat, 3);
    /* Not NUL-terminated: only len bytes are read. */
    const char buf[] = "{\"type\":\"fold\",\"seat\":4}garbage";
    char err[FW_PROTOCOL_ERR_MAX];
    ASSERT_INT_EQ(fw_protocol_parse_line(buf, 24, 1, &ev, err, sizeof err),
                  FW_OK);
    ASSERT_INT_EQ(ev.seat, 4);
    /* err may be NULL. */
    ASSERT_INT_EQ(fw_protocol_parse_line(buf, 24, 1, &ev, NULL, 0), FW_OK);
}

TEST(parse_blank_lines)
{
    static const char *blanks[] = {"", "\n", "\r\n", "   \t  \n", " "};
    for (size_t i = 0; i < sizeof blanks / sizeof blanks[0]; i++) {
        fw_event ev;
        char err[FW_PROTOCOL_ERR_MAX] = "x";
        memset(&ev, 0x5a, sizeof ev);
        ASSERT_INT_EQ(fw_protocol_parse_line(blanks[i], strlen(blanks[i]), 3,
                                             &ev, err, sizeof err),
                      FW_PROTOCOL_SKIP);
        ASSERT_STR_EQ(err, "");
        ASSERT_INT_EQ(ev.seat, 0);
        ASSERT_INT_EQ(ev.nchips, 0);
    }
    fw_event ev;
    ASSERT_INT_EQ(fw_protocol_parse_line(NULL, 0, 1, &ev, NULL, 0),
                  FW_PROTOCOL_SKIP);
    ASSERT_INT_EQ(fw_protocol_parse_line(NULL, 3, 1, &ev, NULL, 0), FW_EINVAL);
    ASSERT_INT_EQ(fw_protocol_parse_line("{}", 2, 1, NULL, NULL, 0), FW_EINVAL);
    /* A form feed is not JSON whitespace. */
    ASSERT_INT_EQ(fw_protocol_parse_line("\f", 1, 1, &ev, NULL, 0), FW_EPARSE);
}

/* ------------------------------------------------------------------ */
/* Reader: errors                                                       */
/* ------------------------------------------------------------------ */

typedef struct bad_line {
    const char *line;
    const char *expect; /* a substring of the message after "line 42: " */
} bad_line;

static const bad_line bad_lines[] = {
    /* JSON itself */
    {"{\"type\":", "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1", "not valid JSON: "},
    {"{\"type\":\"fold\" \"seat\":1}", "at column "},
    {"{\"type\":\"fold\",\"seat\":1} {}", "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1,}", "not valid JSON: "},
    {"{'type':'fold'}", "not valid JSON: "},
    {"fold 1", "not valid JSON: "},
    {"12", "not valid JSON: "},
    {"\"fold\"", "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1,\"seat\":2}",
     "not valid JSON: duplicate object key near '\"seat\"'"},
    {"{\"type\":\"fold\",\"seat\":1,\"x\":\"\xff\"}", "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1,\"x\":\"\xc0\xaf\"}", "not valid JSON: "},
    {"{\"type\":\"fold\",\"x\":\"\\u0000\",\"seat\":1}", "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":NaN}", "not valid JSON: "},
    {"{\"type\":\"tick\",\"t\":1e999}", "not valid JSON: "},
    {"[1,2]", "not a JSON object"},
    {"[]", "not a JSON object"},
    /* type */
    {"{}", "field \"type\": required"},
    {"{\"seat\":1}", "field \"type\": required"},
    {"{\"type\":null}", "field \"type\": must be a string"},
    {"{\"type\":5}", "field \"type\": must be a string"},
    {"{\"type\":[\"fold\"]}", "field \"type\": must be a string"},
    {"{\"type\":\"bogus\"}", "unknown type \"bogus\""},
    {"{\"type\":\"Fold\",\"seat\":1}", "unknown type \"Fold\""},
    {"{\"type\":\"fold\\n\",\"seat\":1}", "unknown type \"fold\\x0a\""},
    /* seats and seat numbers */
    {"{\"type\":\"fold\"}", "field \"seat\": required for type \"fold\""},
    {"{\"type\":\"fold\",\"seat\":null}", "field \"seat\": required"},
    {"{\"type\":\"fold\",\"seat\":0}", "field \"seat\": must be a seat 1..10"},
    {"{\"type\":\"fold\",\"seat\":11}", "field \"seat\": must be a seat 1..10"},
    {"{\"type\":\"fold\",\"seat\":-1}", "field \"seat\": must be a seat 1..10"},
    {"{\"type\":\"fold\",\"seat\":\"3\"}", "field \"seat\": must be a seat"},
    {"{\"type\":\"fold\",\"seat\":3.0}", "field \"seat\": must be a seat"},
    {"{\"type\":\"fold\",\"seat\":true}", "field \"seat\": must be a seat"},
    {"{\"type\":\"fold\",\"seat\":99999999999999999999}",
     "field \"seat\": integer out of range"},
    {"{\"type\":\"button\"}", "field \"seat\": required"},
    {"{\"type\":\"away\",\"seat\":12}", "field \"seat\""},
    {"{\"type\":\"present\",\"seat\":[1]}", "field \"seat\""},
    {"{\"type\":\"muck\",\"seat\":{}}", "field \"seat\""},
    {"{\"type\":\"clock\"}", "field \"seat\""},
    /* table */
    {"{\"type\":\"table\",\"game\":\"NLHE\"}", "field \"seats\": required"},
    {"{\"type\":\"table\",\"seats\":1,\"game\":\"NLHE\"}",
     "field \"seats\": must be an integer 2..10"},
    {"{\"type\":\"table\",\"seats\":11,\"game\":\"NLHE\"}",
     "field \"seats\": must be an integer 2..10"},
    {"{\"type\":\"table\",\"seats\":9}", "field \"game\": required"},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"Stud\"}",
     "field \"game\": unknown game \"Stud\""},
    {"{\"type\":\"table\",\"seats\":9,\"game\":1}",
     "field \"game\": must be a string"},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\",\"rules\":\"wsop\"}",
     "field \"rules\": unknown rules \"wsop\""},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\",\"chips\":5}",
     "field \"chips\": must be an array"},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\",\"chips\":[25]}",
     "field \"chips\": element 1 must be an object"},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\","
     "\"chips\":[{\"value\":25},{\"value\":0}]}",
     "field \"chips\": element 2: \"value\""},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\","
     "\"chips\":[{\"color\":\"red\"}]}",
     "field \"chips\": element 1: \"value\""},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\","
     "\"chips\":[{\"value\":2.5}]}",
     "field \"chips\": element 1: \"value\""},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\","
     "\"chips\":[{\"value\":5,\"color\":7}]}",
     "field \"chips\": element 1: \"color\" must be a string"},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\",\"chips\":[{\"value\":"
     "1},{\"value\":2},{\"value\":3},{\"value\":4},{\"value\":5},{\"value\":6}"
     ",{\"value\":7},{\"value\":8},{\"value\":9},{\"value\":10},{\"value\":11}"
     ",{\"value\":12},{\"value\":13},{\"value\":14},{\"value\":15},{\"value\":"
     "16},{\"value\":17}]}",
     "field \"chips\": more than 16 chip values"},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\",\"raise_cap\":-1}",
     "field \"raise_cap\": must be a non-negative integer"},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\",\"raise_cap\":\"4\"}",
     "field \"raise_cap\": must be a non-negative integer"},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\","
     "\"raise_cap\":3000000000}",
     "field \"raise_cap\": must be at most 2147483647"},
    /* level and amounts */
    {"{\"type\":\"level\",\"bb\":500}", "field \"sb\": required"},
    {"{\"type\":\"level\",\"sb\":250}", "field \"bb\": required"},
    {"{\"type\":\"level\",\"sb\":250,\"bb\":\"500\"}",
     "field \"bb\": must be a non-negative integer"},
    {"{\"type\":\"level\",\"sb\":-250,\"bb\":500}",
     "field \"sb\": must be a non-negative integer"},
    {"{\"type\":\"level\",\"sb\":250,\"bb\":500,\"ante\":0.5}",
     "field \"ante\": must be a non-negative integer"},
    {"{\"type\":\"level\",\"sb\":250,\"bb\":500,\"ante_type\":\"button\"}",
     "field \"ante_type\": unknown ante_type \"button\""},
    {"{\"type\":\"level\",\"sb\":1,\"bb\":2,\"small_bet\":2e2}",
     "field \"small_bet\": must be a non-negative integer"},
    {"{\"type\":\"level\",\"sb\":1,\"bb\":2,\"big_bet\":false}",
     "field \"big_bet\": must be a non-negative integer"},
    {"{\"type\":\"say\",\"seat\":1,\"amount\":\"100\"}",
     "field \"amount\": must be a non-negative integer"},
    {"{\"type\":\"say\",\"seat\":1,\"amount\":1.5}",
     "field \"amount\": must be a non-negative integer"},
    {"{\"type\":\"say\",\"seat\":1,\"amount\":100.0}",
     "field \"amount\": must be a non-negative integer"},
    {"{\"type\":\"say\",\"seat\":1,\"amount\":1e3}",
     "field \"amount\": must be a non-negative integer"},
    {"{\"type\":\"say\",\"seat\":1,\"amount\":-5}",
     "field \"amount\": must be a non-negative integer"},
    {"{\"type\":\"say\",\"seat\":1,\"amount\":1000000000000001}",
     "field \"amount\": must be at most 1000000000000000"},
    {"{\"type\":\"say\",\"seat\":1,\"amount\":9223372036854775807}",
     "field \"amount\": must be at most"},
    {"{\"type\":\"say\",\"seat\":1,\"amount\":9223372036854775808}",
     "field \"amount\": integer out of range"},
    {"{\"type\":\"say\",\"seat\":1,\"amount\":-99999999999999999999}",
     "field \"amount\": integer out of range"},
    {"{\"type\":\"seat\",\"seat\":1,\"player\":\"A\",\"stack\":-1}",
     "field \"stack\": must be a non-negative integer"},
    /* seat event */
    {"{\"type\":\"seat\",\"seat\":1}", "field \"player\": required"},
    {"{\"type\":\"seat\",\"seat\":1,\"player\":7}",
     "field \"player\": must be a string or null"},
    {"{\"type\":\"seat\",\"seat\":1,\"player\":\"\"}",
     "field \"player\": must be a name of 1..47 bytes"},
    {"{\"type\":\"seat\",\"seat\":1,\"player\":"
     "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}",
     "field \"player\": must be a name of 1..47 bytes"},
    {"{\"type\":\"seat\",\"player\":\"A\"}", "field \"seat\": required"},
    /* penalty */
    {"{\"type\":\"penalty\",\"seat\":1}", "field \"hands\": required"},
    {"{\"type\":\"penalty\",\"seat\":1,\"hands\":0}",
     "field \"hands\": must be a positive integer"},
    {"{\"type\":\"penalty\",\"seat\":1,\"hands\":\"2\"}",
     "field \"hands\": must be a positive integer"},
    /* card */
    {"{\"type\":\"card\",\"seat\":1}", "field \"to\": required"},
    {"{\"type\":\"card\",\"to\":\"hand\",\"seat\":1}",
     "field \"to\": unknown destination \"hand\""},
    {"{\"type\":\"card\",\"to\":\"seat\"}", "field \"seat\": required"},
    {"{\"type\":\"card\",\"to\":\"burn\",\"seat\":0}", "field \"seat\""},
    {"{\"type\":\"card\",\"to\":\"board\",\"face\":\"sideways\"}",
     "field \"face\": unknown face \"sideways\""},
    {"{\"type\":\"card\",\"to\":\"board\",\"face\":true}",
     "field \"face\": must be a string"},
    {"{\"type\":\"card\",\"to\":\"board\",\"card\":\"1x\"}",
     "field \"card\": \"1x\" is not a card"},
    {"{\"type\":\"card\",\"to\":\"board\",\"card\":\"Ahh\"}",
     "field \"card\": \"Ahh\" is not a card"},
    {"{\"type\":\"card\",\"to\":\"board\",\"card\":\"A\"}",
     "field \"card\": \"A\" is not a card"},
    {"{\"type\":\"card\",\"to\":\"board\",\"card\":\"\"}",
     "field \"card\": \"\" is not a card"},
    {"{\"type\":\"card\",\"to\":\"board\",\"card\":\"10h\"}",
     "field \"card\": \"10h\" is not a card"},
    {"{\"type\":\"card\",\"to\":\"board\",\"card\":51}",
     "field \"card\": must be a card string"},
    /* say */
    {"{\"type\":\"say\",\"word\":\"call\"}", "field \"seat\": required"},
    {"{\"type\":\"say\",\"seat\":1}", "field \"amount\": required"},
    {"{\"type\":\"say\",\"seat\":1,\"word\":\"shove\"}",
     "field \"word\": unknown word \"shove\""},
    {"{\"type\":\"say\",\"seat\":1,\"word\":\"\"}",
     "field \"word\": unknown word \"\""},
    {"{\"type\":\"say\",\"seat\":1,\"word\":[\"call\"]}",
     "field \"word\": must be a string"},
    /* push and pull */
    {"{\"type\":\"push\",\"seat\":1}", "field \"chips\": required"},
    {"{\"type\":\"push\",\"seat\":1,\"chips\":[]}",
     "field \"chips\": must not be empty"},
    {"{\"type\":\"push\",\"seat\":1,\"chips\":100}",
     "field \"chips\": must be an array"},
    {"{\"type\":\"push\",\"seat\":1,\"chips\":[100,0]}",
     "field \"chips\": element 2 must be a positive integer"},
    {"{\"type\":\"push\",\"seat\":1,\"chips\":[-100]}",
     "field \"chips\": element 1 must be a positive integer"},
    {"{\"type\":\"push\",\"seat\":1,\"chips\":[100,\"25\"]}",
     "field \"chips\": element 2 must be a positive integer"},
    {"{\"type\":\"push\",\"seat\":1,\"chips\":[100,25.0]}",
     "field \"chips\": element 2 must be a positive integer"},
    {"{\"type\":\"push\",\"seat\":1,\"chips\":[1000000000000001]}",
     "field \"chips\": element 1 is larger than 1000000000000000"},
    {"{\"type\":\"push\",\"seat\":1,\"chips\":[1,99999999999999999999]}",
     "field \"chips\": integer out of range"},
    {"{\"type\":\"pull\",\"seat\":1,\"chips\":[null]}",
     "field \"chips\": element 1 must be a positive integer"},
    {"{\"type\":\"pull\",\"chips\":[]}", "field \"seat\": required"},
    /* show */
    {"{\"type\":\"show\",\"seat\":1}", "field \"cards\": required"},
    {"{\"type\":\"show\",\"seat\":1,\"cards\":[]}",
     "field \"cards\": must be an array of 1..5 cards"},
    {"{\"type\":\"show\",\"seat\":1,\"cards\":\"AhKd\"}",
     "field \"cards\": must be an array of 1..5 cards"},
    {"{\"type\":\"show\",\"seat\":1,\"cards\":[\"Ah\",\"Kd\",\"Qc\",\"Jc\","
     "\"Tc\",\"9c\"]}",
     "field \"cards\": must be an array of 1..5 cards"},
    {"{\"type\":\"show\",\"seat\":1,\"cards\":[\"Ah\",\"1x\"]}",
     "field \"cards\": \"1x\" is not a card"},
    {"{\"type\":\"show\",\"seat\":1,\"cards\":[\"Ah\",7]}",
     "field \"cards\": must be a card string"},
    {"{\"type\":\"show\",\"seat\":1,\"cards\":[\"Ah\",\"Kd\",\"Ah\"]}",
     "field \"cards\": \"Ah\" appears twice"},
    /* floor */
    {"{\"type\":\"floor\",\"seat\":1}", "field \"decision\": required"},
    {"{\"type\":\"floor\",\"decision\":\"redeal\"}",
     "field \"decision\": unknown decision \"redeal\""},
    {"{\"type\":\"floor\",\"decision\":\"misdeal\",\"seat\":11}",
     "field \"seat\""},
    /* t */
    {"{\"type\":\"tick\"}", "field \"t\": required for type \"tick\""},
    {"{\"type\":\"tick\",\"t\":\"5\"}", "field \"t\": must be a non-negative"},
    {"{\"type\":\"tick\",\"t\":-1}", "field \"t\": must be a non-negative"},
    {"{\"type\":\"fold\",\"seat\":1,\"t\":-0.5}", "field \"t\""},
    {"{\"type\":\"hand_start\",\"t\":[1]}", "field \"t\""},
    /* untrusted text in messages is quoted, cut and kept printable */
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"\\u0001\\\"\\\\\\u00e9\"}",
     "unknown game \"\\x01\\\"\\\\\\xc3\\xa9\""},
    {"{\"type\":"
     "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}",
     "unknown type \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\""},
};

TEST(parse_errors_name_line_and_field)
{
    int failures = 0;
    for (size_t i = 0; i < sizeof bad_lines / sizeof bad_lines[0]; i++) {
        const bad_line *b = &bad_lines[i];
        fw_event ev;
        char err[FW_PROTOCOL_ERR_MAX];
        int rc = fw_protocol_parse_line(b->line, strlen(b->line), 42, &ev, err,
                                        sizeof err);
        if (rc != FW_EPARSE || strncmp(err, "line 42: ", 9) != 0 ||
            !strstr(err, b->expect) || strcmp(fw_last_error(), err) != 0 ||
            ev.seat != 0 || ev.type != 0 || ev.card != FW_CARD_NONE) {
            fprintf(stderr, "  %s:\n    rc %d, got %s\n    want %s\n", b->line,
                    rc, err, b->expect);
            failures++;
        }
    }
    ASSERT_INT_EQ(failures, 0);
}

TEST(parse_error_details)
{
    fw_event ev;
    char err[FW_PROTOCOL_ERR_MAX];
    const char *l = "{\"type\":\"fold\" \"seat\":1}";
    ASSERT_INT_EQ(fw_protocol_parse_line(l, strlen(l), 2, &ev, err, sizeof err),
                  FW_EPARSE);
    ASSERT_TRUE(strncmp(err, "line 2: not valid JSON: ", 24) == 0);
    ASSERT_TRUE(strstr(err, "at column 21") != NULL);

    /* Messages are cut to errsz, and NUL-terminated. */
    char small[12];
    l = "{\"type\":\"bogus\"}";
    ASSERT_INT_EQ(
        fw_protocol_parse_line(l, strlen(l), 123456, &ev, small, sizeof small),
        FW_EPARSE);
    ASSERT_STR_EQ(small, "line 123456");
    ASSERT_STR_EQ(fw_last_error(), "line 123456: unknown type \"bogus\"");

    /* Embedded NUL bytes. */
    static const char nul[] = "{\"type\":\"fold\",\0\"seat\":1}";
    ASSERT_INT_EQ(
        fw_protocol_parse_line(nul, sizeof nul - 1, 5, &ev, err, sizeof err),
        FW_EPARSE);
    ASSERT_TRUE(strncmp(err, "line 5: not valid JSON", 22) == 0);
    static const char nul2[] = "{\"type\":\"fo\0ld\",\"seat\":1}";
    ASSERT_INT_EQ(
        fw_protocol_parse_line(nul2, sizeof nul2 - 1, 5, &ev, err, sizeof err),
        FW_EPARSE);

    /* Deep nesting, in a known field and in an unknown one. */
    size_t depth = 100000;
    char *deep = malloc(depth * 2 + 64);
    ASSERT_TRUE(deep != NULL);
    size_t n = (size_t)snprintf(deep, 64, "{\"type\":\"fold\",\"x\":");
    memset(deep + n, '[', depth);
    memset(deep + n + depth, ']', depth);
    memcpy(deep + n + 2 * depth, "}", 2);
    int rc =
        fw_protocol_parse_line(deep, strlen(deep), 9, &ev, err, sizeof err);
    free(deep);
    ASSERT_INT_EQ(rc, FW_EPARSE);
    ASSERT_TRUE(strstr(err, "maximum parsing depth") != NULL);
}

/* ------------------------------------------------------------------ */
/* Reader: garbage                                                      */
/* ------------------------------------------------------------------ */

/* xorshift64*: a fixed-seed PRNG, so a failure reproduces. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

static const char *const valid_lines[] = {
    "{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\",\"rules\":\"tda\","
    "\"chips\":[{\"value\":25,\"color\":\"green\"},{\"value\":100}]}",
    "{\"type\":\"level\",\"sb\":250,\"bb\":500,\"ante\":500,"
    "\"ante_type\":\"bb\"}",
    "{\"type\":\"seat\",\"seat\":1,\"player\":\"A\",\"stack\":50000}",
    "{\"type\":\"seat\",\"seat\":2,\"player\":null}",
    "{\"type\":\"button\",\"seat\":3}",
    "{\"type\":\"penalty\",\"seat\":6,\"hands\":2}",
    "{\"type\":\"hand_start\",\"t\":10.5}",
    "{\"type\":\"card\",\"to\":\"seat\",\"seat\":2,\"face\":\"down\"}",
    "{\"type\":\"card\",\"to\":\"board\",\"card\":\"Ah\"}",
    "{\"type\":\"say\",\"seat\":4,\"word\":\"raise\",\"amount\":1100}",
    "{\"type\":\"push\",\"seat\":5,\"chips\":[1000,100,100,100,100,100]}",
    "{\"type\":\"pull\",\"seat\":5,\"chips\":[100]}",
    "{\"type\":\"show\",\"seat\":3,\"cards\":[\"Ah\",\"Kd\"]}",
    "{\"type\":\"floor\",\"decision\":\"full_call\",\"seat\":4}",
    "{\"type\":\"tick\",\"t\":99}",
};

/* Checks that a parse result is one of the three answers, and sane. */
static int parse_is_sane(const char *line, size_t n, char *why, size_t whysz)
{
    fw_event ev;
    char err[FW_PROTOCOL_ERR_MAX];
    int rc = fw_protocol_parse_line(line, n, 77, &ev, err, sizeof err);
    if (rc == FW_EPARSE) {
        if (strncmp(err, "line 77: ", 9) != 0 || strlen(err) < 12) {
            snprintf(why, whysz, "bad message \"%s\"", err);
            return 0;
        }
        for (const char *c = err; *c; c++) {
            if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f) {
                snprintf(why, whysz, "unprintable message");
                return 0;
            }
        }
        return 1;
    }
    if (rc == FW_PROTOCOL_SKIP)
        return 1;
    if (rc != FW_OK) {
        snprintf(why, whysz, "rc %d", rc);
        return 0;
    }
    if ((int)ev.type < 0 || ev.type >= FW_EV_COUNT || ev.seat < 0 ||
        ev.seat > FW_MAX_SEATS || ev.nchips < 0 ||
        ev.nchips > FW_MAX_CHIPS_PER_EVENT || ev.ncards < 0 ||
        ev.ncards > FW_MAX_HOLE || ev.nchip_set < 0 ||
        ev.nchip_set > FW_MAX_CHIP_SET || ev.amount < 0 ||
        ev.amount > FW_PROTOCOL_MAX_AMOUNT ||
        (ev.card != FW_CARD_NONE && ev.card >= 52) ||
        memchr(ev.player, '\0', sizeof ev.player) == NULL) {
        snprintf(why, whysz, "insane event");
        return 0;
    }
    for (int i = 0; i < ev.nchips; i++) {
        if (ev.chips[i] < 1 || ev.chips[i] > FW_PROTOCOL_MAX_AMOUNT) {
            snprintf(why, whysz, "insane chip");
            return 0;
        }
    }
    return 1;
}

TEST(parse_garbage_never_crashes)
{
    static const char alphabet[] = "{}[]\":,0123456789-+.eE tfnrul\\\"abcxyz"
                                   "typeseatchipsamountcard\x00\xff\xc3\xa9"
                                   "\n\r\t";
    char line[512], why[128];
    size_t nvalid = sizeof valid_lines / sizeof valid_lines[0];
    for (int iter = 0; iter < 60000; iter++) {
        size_t n;
        uint64_t r = rng();
        if (r % 4 == 0) {
            /* Random bytes from a JSON-ish alphabet, or any byte. */
            n = (size_t)(rng() % 120);
            for (size_t i = 0; i < n; i++) {
                uint64_t x = rng();
                line[i] = (x & 1) ? (char)(x >> 8)
                                  : alphabet[(x >> 8) % (sizeof alphabet - 1)];
            }
        } else {
            /* A valid line with a few bytes flipped, inserted or cut. */
            const char *src = valid_lines[rng() % nvalid];
            n = strlen(src);
            memcpy(line, src, n);
            int edits = 1 + (int)(rng() % 4);
            for (int e = 0; e < edits && n > 0; e++) {
                size_t at = (size_t)(rng() % n);
                switch (rng() % 5) {
                case 0:
                    line[at] = (char)rng();
                    break;
                case 1:
                    line[at] = alphabet[rng() % (sizeof alphabet - 1)];
                    break;
                case 2:
                    if (n < sizeof line - 1) {
                        memmove(line + at + 1, line + at, n - at);
                        line[at] = alphabet[rng() % (sizeof alphabet - 1)];
                        n++;
                    }
                    break;
                case 3:
                    memmove(line + at, line + at + 1, n - at - 1);
                    n--;
                    break;
                default:
                    n = at;
                    break;
                }
            }
        }
        if (!parse_is_sane(line, n, why, sizeof why))
            FW_TEST_FAIL_("iteration %d: %s", iter, why);
    }
}

/*
 * Lines where a streaming parser is easily more lenient than jansson: each
 * must still be an error, worded as jansson words it where it matters.
 */
static const bad_line lenient_traps[] = {
    /* an unfinished token after the object */
    {"{\"type\":\"fold\",\"seat\":1}\"", "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1}\"{", "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1} tru", "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1}12", "not valid JSON: "},
    /* form feed and vertical tab are not JSON whitespace */
    {"{\"type\":\"fold\",\f\"seat\":1}", "not valid JSON: "},
    {"{\"type\":\"fold\",\v\"seat\":1}", "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1}\f", "not valid JSON: "},
    /* control bytes inside strings */
    {"{\"type\":\"fold\",\"seat\":1,\"x\":\"a\tb\"}", "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1,\"x\":\"\x01\"}", "not valid JSON: "},
    /* duplicates at any depth, known keys or not */
    {"{\"type\":\"fold\",\"seat\":1,\"x\":1,\"x\":2}",
     "not valid JSON: duplicate object key"},
    {"{\"type\":\"fold\",\"seat\":1,\"x\":{\"a\":1,\"a\":2}}",
     "not valid JSON: duplicate object key"},
    {"{\"type\":\"fold\",\"seat\":1,\"x\":[{\"a\":1,\"a\":2}]}",
     "not valid JSON: duplicate object key"},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\","
     "\"chips\":[{\"value\":25,\"value\":50}]}",
     "not valid JSON: duplicate object key"},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\","
     "\"chips\":[{\"value\":25,\"color\":\"red\",\"color\":\"blue\"}]}",
     "not valid JSON: duplicate object key"},
    {"{\"type\":\"fold\",\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,"
     "\"g\":7,\"h\":8,\"i\":9,\"j\":10,\"a\":11,\"seat\":1}",
     "not valid JSON: duplicate object key"},
    {"{\"type\":\"fold\",\"seat\":1,"
     "\"a_key_longer_than_thirty_two_bytes_x\":1,"
     "\"a_key_longer_than_thirty_two_bytes_x\":2}",
     "not valid JSON: duplicate object key"},
    {"{\"\\u0074ype\":\"fold\",\"type\":\"fold\",\"seat\":1}",
     "not valid JSON: duplicate object key"},
    /* escapes jansson rejects, in a field the reader ignores */
    {"{\"type\":\"fold\",\"seat\":1,\"x\":\"\\ud800\"}", "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1,\"x\":\"\\udc00\\ud800\"}",
     "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1,\"x\":\"a\\u0000\"}", "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1,\"x\\u0000\":1}", "not valid JSON: "},
    /* UTF-8 that is well formed only at a glance */
    {"{\"type\":\"fold\",\"seat\":1,\"x\":\"\xed\xa0\x80\"}",
     "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1,\"x\":\"\xf4\x90\x80\x80\"}",
     "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1,\"x\":\"\xe0\x80\xaf\"}",
     "not valid JSON: "},
    {"{\"type\":\"fold\",\"seat\":1,\"x\":\"\xc3\"}", "not valid JSON: "},
    /* numbers out of range where the reader does not look */
    {"{\"type\":\"fold\",\"seat\":1,\"x\":99999999999999999999}",
     "field \"x\": integer out of range"},
    {"{\"type\":\"fold\",\"seat\":1,\"x\":[1,[-99999999999999999999]]}",
     "field \"x\": integer out of range"},
    {"{\"type\":\"fold\",\"seat\":1,\"x\":-1e400}", "not valid JSON: "},
    {"{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\","
     "\"chips\":[{\"value\":25,\"color\":1e999}]}",
     "not valid JSON: "},
    /* the top level */
    {"[{\"type\":\"fold\",\"seat\":1}]", "not a JSON object"},
    {"{\"type\":\"fold\",\"seat\":1}{\"type\":\"fold\",\"seat\":2}",
     "not valid JSON: "},
    {"true", "not valid JSON: "},
    /* strings longer than any name */
    {"{\"type\":\"table\",\"seats\":9,\"game\":"
     "\"NLHEXXXXXXXXXXXXXXXXXXXXXXXXXXX"
     "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\"}",
     "field \"game\": unknown game \"NLHEXXXXXXXXXXXXXXXXXXXXXXXXXXXX...\""},
    {"{\"type\":\"card\",\"to\":\"board\",\"card\":"
     "\"AhAhAhAhAhAhAhAhAhAhAhAhAhA"
     "hAhAhAhAhAhAhAhAhAhAhAhAhAhAhAhAhAhAhAh\"}",
     "field \"card\": \"AhAhAhAhAhAhAhAhAhAhAhAhAhAhAhAh...\" is not a card"},
};

TEST(parse_lenient_traps)
{
    int failures = 0;
    for (size_t i = 0; i < sizeof lenient_traps / sizeof lenient_traps[0];
         i++) {
        const bad_line *b = &lenient_traps[i];
        fw_event ev;
        char err[FW_PROTOCOL_ERR_MAX];
        int rc = fw_protocol_parse_line(b->line, strlen(b->line), 42, &ev, err,
                                        sizeof err);
        if (rc != FW_EPARSE || strncmp(err, "line 42: ", 9) != 0 ||
            !strstr(err, b->expect) || ev.type != 0) {
            fprintf(stderr, "  %s:\n    rc %d, got %s\n    want %s\n", b->line,
                    rc, err, b->expect);
            failures++;
        }
    }
    ASSERT_INT_EQ(failures, 0);
}

TEST(parse_lenient_bits_more)
{
    fw_event ev;
    /* Escapes in keys and values are decoded before names are looked up. */
    PARSE_OK("{\"\\u0074ype\":\"fo\\u006cd\",\"seat\":2}", &ev);
    ASSERT_INT_EQ(ev.type, FW_EV_FOLD);
    ASSERT_INT_EQ(ev.seat, 2);
    /* -0 is the integer 0; a chip color may be null or any string. */
    PARSE_OK("{\"type\":\"say\",\"seat\":1,\"amount\":-0}", &ev);
    ASSERT_INT_EQ(ev.has_amount, 1);
    ASSERT_INT_EQ(ev.amount, 0);
    PARSE_OK("{\"type\":\"table\",\"seats\":9,\"game\":\"NLHE\",\"chips\":[{"
             "\"color\":\"\\u00e9\",\"value\":5},{\"value\":7,\"note\":[1]}]}",
             &ev);
    ASSERT_INT_EQ(ev.nchip_set, 2);
    ASSERT_INT_EQ(ev.chip_set[0], 5);
    ASSERT_INT_EQ(ev.chip_set[1], 7);
    /* Many unknown keys, long ones, deep nesting in an unknown field. */
    PARSE_OK("{\"type\":\"fold\",\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,"
             "\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10,\"seat\":1,"
             "\"a_key_longer_than_thirty_two_bytes_x\":{\"k\":[{}]},"
             "\"n\":[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]}",
             &ev);
    ASSERT_INT_EQ(ev.seat, 1);
    /* Integers at the edges of int64 in ignored fields are fine. */
    PARSE_OK("{\"type\":\"fold\",\"seat\":1,\"x\":[9223372036854775807,"
             "-9223372036854775808,1e308,-1e-400]}",
             &ev);
    /* A time stamp given as an integer, or as a tiny real. */
    PARSE_OK("{\"type\":\"tick\",\"t\":7}", &ev);
    ASSERT_TRUE(ev.t == 7.0);
    PARSE_OK("{\"type\":\"tick\",\"t\":1e-400}", &ev);
    ASSERT_INT_EQ(ev.has_t, 1);
    ASSERT_TRUE(ev.t == 0.0);
    /* Raw UTF-8 in a name, and a name of exactly 47 bytes. */
    PARSE_OK("{\"type\":\"seat\",\"seat\":4,\"player\":\"Jos\xc3\xa9 "
             "\xf0\x9f\x83\x8f\"}",
             &ev);
    ASSERT_STR_EQ(ev.player, "Jos\xc3\xa9 \xf0\x9f\x83\x8f");
    PARSE_OK("{\"type\":\"seat\",\"seat\":4,\"player\":"
             "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}",
             &ev);
    ASSERT_INT_EQ(strlen(ev.player), FW_MAX_NAME - 1);
    /* More than FW_MAX_CHIPS_PER_EVENT chips, and a wrong one past them. */
    char line[FW_MAX_CHIPS_PER_EVENT * 4 + 64], err[FW_PROTOCOL_ERR_MAX];
    size_t n = (size_t)snprintf(line, sizeof line,
                                "{\"type\":\"push\",\"seat\":1,\"chips\":[");
    for (int i = 0; i <= FW_MAX_CHIPS_PER_EVENT; i++)
        n += (size_t)snprintf(line + n, sizeof line - n, "%s25", i ? "," : "");
    snprintf(line + n, sizeof line - n, ",\"x\"]}");
    ASSERT_INT_EQ(
        fw_protocol_parse_line(line, strlen(line), 3, &ev, err, sizeof err),
        FW_EPARSE);
    ASSERT_STR_EQ(err, "line 3: field \"chips\": more than 256 chips");
}

/*
 * Insert ,"zz":"\u00e9" before the last '}' of line into out: a field the
 * reader ignores, with an escape in it.
 */
static void with_escaped_field(const char *line, char *out, size_t size)
{
    const char *end = strrchr(line, '}');
    size_t at = (size_t)(end - line);
    snprintf(out, size, "%.*s,\"zz\":\"\\u00e9\"%s", (int)at, line, end);
}

TEST(parse_same_with_or_without_escapes)
{
    /* Every line reads the same, and fails the same, whether or not an
     * escape elsewhere on the line sends it through the other parser. */
    int failures = 0;
    for (size_t i = 0; i < sizeof valid_lines / sizeof valid_lines[0]; i++) {
        fw_event a, b;
        char line[1024];
        with_escaped_field(valid_lines[i], line, sizeof line);
        PARSE_OK(valid_lines[i], &a);
        PARSE_OK(line, &b);
        if (memcmp(&a, &b, sizeof a) != 0) {
            fprintf(stderr, "  differs: %s\n", valid_lines[i]);
            failures++;
        }
    }
    for (size_t i = 0; i < sizeof bad_lines / sizeof bad_lines[0]; i++) {
        const char *l = bad_lines[i].line;
        fw_event ev;
        char line[1024], e1[FW_PROTOCOL_ERR_MAX], e2[FW_PROTOCOL_ERR_MAX];
        if (fw_protocol_parse_line(l, strlen(l), 5, &ev, e1, sizeof e1) !=
                FW_EPARSE ||
            strstr(e1, "JSON") || !strchr(l, ':') || strlen(l) > 900)
            continue;
        with_escaped_field(l, line, sizeof line);
        ASSERT_INT_EQ(
            fw_protocol_parse_line(line, strlen(line), 5, &ev, e2, sizeof e2),
            FW_EPARSE);
        if (strcmp(e1, e2) != 0) {
            fprintf(stderr, "  %s:\n    %s\n    %s\n", l, e1, e2);
            failures++;
        }
    }
    ASSERT_INT_EQ(failures, 0);
}

/* ------------------------------------------------------------------ */
/* Writer                                                               */
/* ------------------------------------------------------------------ */

/* Write rec and compare with the expected line (without its "\n"). */
#define WRITE_EQ(w, rec, expected)                                             \
    do {                                                                       \
        char buf_[FW_PROTOCOL_RECORD_MAX];                                     \
        size_t len_ = 0;                                                       \
        int rc_ = fw_protocol_write_record(w, rec, buf_, sizeof buf_, &len_);  \
        if (rc_ != FW_OK)                                                      \
            FW_TEST_FAIL_("write: rc %d: %s", rc_, fw_last_error());           \
        ASSERT_INT_EQ(len_, strlen(expected) + 1);                             \
        ASSERT_INT_EQ(buf_[len_ - 1], '\n');                                   \
        buf_[len_ - 1] = '\0';                                                 \
        ASSERT_STR_EQ(buf_, expected);                                         \
    } while (0)

TEST(write_ruling)
{
    fw_protocol_writer *w = NULL;
    ASSERT_INT_EQ(fw_protocol_writer_new(&w), FW_OK);
    fw_record rec;
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_RULING;
    rec.u.ruling.seat = 5;
    rec.u.ruling.action = FW_ACT_RAISE;
    rec.u.ruling.to = 1700;
    rec.u.ruling.why = "min_raise_enforced";
    rec.u.ruling.rule = "45-B";
    snprintf(rec.u.ruling.text, sizeof rec.u.ruling.text,
             "Raise to 1,700: \"min\" raise\\rule");
    WRITE_EQ(w, &rec,
             "{\"type\":\"ruling\",\"seat\":5,\"action\":\"raise\","
             "\"to\":1700,\"returned\":0,\"why\":\"min_raise_enforced\","
             "\"rule\":\"45-B\",\"text\":\"Raise to 1,700: \\\"min\\\" "
             "raise\\\\rule\"}");

    rec.u.ruling.action = FW_ACT_CALL;
    rec.u.ruling.to = 500;
    rec.u.ruling.returned = 500;
    rec.u.ruling.why = "";
    rec.u.ruling.rule = "RP-5";
    snprintf(rec.u.ruling.text, sizeof rec.u.ruling.text, "Call");
    WRITE_EQ(w, &rec,
             "{\"type\":\"ruling\",\"seat\":5,\"action\":\"call\","
             "\"to\":500,\"returned\":500,\"rule\":\"RP-5\","
             "\"text\":\"Call\"}");
    rec.u.ruling.why = NULL;
    rec.u.ruling.rule = NULL;
    rec.u.ruling.action = FW_ACT_ALL_IN;
    WRITE_EQ(w, &rec,
             "{\"type\":\"ruling\",\"seat\":5,\"action\":\"all-in\","
             "\"to\":500,\"returned\":500,\"rule\":\"\","
             "\"text\":\"Call\"}");
    fw_protocol_writer_free(w);
}

TEST(write_alert)
{
    fw_protocol_writer *w = NULL;
    ASSERT_INT_EQ(fw_protocol_writer_new(&w), FW_OK);
    fw_record rec;
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_ALERT;
    rec.u.alert.kind = "misdeal";
    rec.u.alert.why = "two_boxed_cards";
    rec.u.alert.severity = FW_SEV_STOP;
    rec.u.alert.rule = "35-A";
    rec.u.alert.remedy = "Call the floor: misdeal.";
    snprintf(rec.u.alert.text, sizeof rec.u.alert.text,
             "Two boxed cards \xe2\x80\x94 misdeal");
    WRITE_EQ(w, &rec,
             "{\"type\":\"alert\",\"kind\":\"misdeal\",\"why\":"
             "\"two_boxed_cards\",\"severity\":\"stop\",\"rule\":\"35-A\","
             "\"remedy\":\"Call the floor: misdeal.\",\"text\":\"Two boxed "
             "cards \xe2\x80\x94 misdeal\"}");

    rec.u.alert.kind = "string_bet";
    rec.u.alert.why = NULL;
    rec.u.alert.severity = FW_SEV_WARN;
    rec.u.alert.rule = "45-C";
    rec.u.alert.remedy = "";
    rec.u.alert.seat = 4;
    snprintf(rec.u.alert.text, sizeof rec.u.alert.text, "String bet");
    WRITE_EQ(w, &rec,
             "{\"type\":\"alert\",\"kind\":\"string_bet\",\"severity\":"
             "\"warn\",\"rule\":\"45-C\",\"remedy\":\"\",\"text\":\"String "
             "bet\",\"seat\":4}");
    rec.u.alert.severity = FW_SEV_INFO;
    rec.u.alert.why = "";
    rec.u.alert.remedy = NULL;
    WRITE_EQ(w, &rec,
             "{\"type\":\"alert\",\"kind\":\"string_bet\",\"severity\":"
             "\"info\",\"rule\":\"45-C\",\"remedy\":\"\",\"text\":\"String "
             "bet\",\"seat\":4}");
    fw_protocol_writer_free(w);
}

/* A state in the middle of a hand: two pots, a board, one null raise. */
static void fill_state(fw_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rec->type = FW_REC_STATE;
    fw_state *s = &rec->u.state;
    s->hand = 12;
    s->street = FW_ST_TURN;
    s->to_act = 5;
    s->to_call = 1700;
    s->min_raise_to = 3400;
    s->max_raise_to = FW_NULL_AMOUNT;
    s->pot = 12345;
    s->npots = 2;
    s->pots[0].amount = 10000;
    s->pots[0].nseats = 3;
    s->pots[0].seats[0] = 2;
    s->pots[0].seats[1] = 3;
    s->pots[0].seats[2] = 5;
    s->pots[1].amount = 2345;
    s->pots[1].nseats = 2;
    s->pots[1].seats[0] = 3;
    s->pots[1].seats[1] = 5;
    s->nboard = 4;
    fw_card_parse("As", &s->board[0]);
    fw_card_parse("2c", &s->board[1]);
    fw_card_parse("7c", &s->board[2]);
    fw_card_parse("Td", &s->board[3]);
    s->sa = 1;
    s->button = 9;
    s->nseats = 3;
    s->seats[0] = (fw_seat_view){2, 49000, 0, FW_SEAT_FOLDED};
    s->seats[1] = (fw_seat_view){3, 0, 1700, FW_SEAT_ALL_IN};
    s->seats[2] = (fw_seat_view){5, 48000, 0, FW_SEAT_ACTIVE};
}

TEST(write_state)
{
    fw_protocol_writer *w = NULL;
    ASSERT_INT_EQ(fw_protocol_writer_new(&w), FW_OK);
    fw_record rec;
    fill_state(&rec);
    WRITE_EQ(w, &rec,
             "{\"type\":\"state\",\"hand\":12,\"street\":\"turn\","
             "\"to_act\":5,\"to_call\":1700,\"min_raise_to\":3400,"
             "\"max_raise_to\":null,\"pot\":12345,\"pots\":[{\"amount\":"
             "10000,\"seats\":[2,3,5]},{\"amount\":2345,\"seats\":[3,5]}],"
             "\"board\":[\"As\",\"2c\",\"7c\",\"Td\"],\"sa\":true,"
             "\"button\":9,\"seats\":[{\"seat\":2,\"stack\":49000,\"bet\":0,"
             "\"status\":\"folded\"},{\"seat\":3,\"stack\":0,\"bet\":1700,"
             "\"status\":\"all_in\"},{\"seat\":5,\"stack\":48000,\"bet\":0,"
             "\"status\":\"active\"}]}");

    /* Before the first hand: nulls and empty lists. */
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_STATE;
    rec.u.state.street = FW_ST_PREDEAL;
    rec.u.state.min_raise_to = FW_NULL_AMOUNT;
    rec.u.state.max_raise_to = 1000000;
    rec.u.state.nseats = 2;
    rec.u.state.seats[0] = (fw_seat_view){1, 50000, 0, FW_SEAT_OUT};
    rec.u.state.seats[1] = (fw_seat_view){4, 0, 0, FW_SEAT_EMPTY};
    WRITE_EQ(w, &rec,
             "{\"type\":\"state\",\"hand\":0,\"street\":\"predeal\","
             "\"to_act\":null,\"to_call\":0,\"min_raise_to\":null,"
             "\"max_raise_to\":1000000,\"pot\":0,\"pots\":[],\"board\":[],"
             "\"sa\":false,\"button\":null,\"seats\":[{\"seat\":1,\"stack\":"
             "50000,\"bet\":0,\"status\":\"out\"},{\"seat\":4,\"stack\":0,"
             "\"bet\":0,\"status\":\"empty\"}]}");
    rec.u.state.street = FW_ST_COMPLETE;
    rec.u.state.seats[0].status = FW_SEAT_DEAD;
    rec.u.state.nseats = 1;
    WRITE_EQ(w, &rec,
             "{\"type\":\"state\",\"hand\":0,\"street\":\"complete\","
             "\"to_act\":null,\"to_call\":0,\"min_raise_to\":null,"
             "\"max_raise_to\":1000000,\"pot\":0,\"pots\":[],\"board\":[],"
             "\"sa\":false,\"button\":null,\"seats\":[{\"seat\":1,\"stack\":"
             "50000,\"bet\":0,\"status\":\"dead\"}]}");
    fw_protocol_writer_free(w);
}

TEST(write_award_and_hand_end)
{
    fw_protocol_writer *w = NULL;
    ASSERT_INT_EQ(fw_protocol_writer_new(&w), FW_OK);
    fw_record rec;
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_AWARD;
    rec.u.award.pot = 1;
    rec.u.award.amount = 2345;
    rec.u.award.nwinners = 2;
    rec.u.award.winners[0].seat = 3;
    rec.u.award.winners[0].amount = 1175;
    snprintf(rec.u.award.winners[0].hand, sizeof rec.u.award.winners[0].hand,
             "Two Pair, Kings and Sevens");
    rec.u.award.winners[1].seat = 5;
    rec.u.award.winners[1].amount = 1170;
    rec.u.award.odd_chip_seat = 3;
    rec.u.award.rule = "20";
    snprintf(rec.u.award.text, sizeof rec.u.award.text, "Split pot");
    WRITE_EQ(w, &rec,
             "{\"type\":\"award\",\"pot\":1,\"amount\":2345,\"winners\":["
             "{\"seat\":3,\"amount\":1175,\"hand\":\"Two Pair, Kings and "
             "Sevens\"},{\"seat\":5,\"amount\":1170}],\"odd_chip\":3,"
             "\"rule\":\"20\",\"text\":\"Split pot\"}");
    rec.u.award.pot = 0;
    rec.u.award.nwinners = 0;
    rec.u.award.odd_chip_seat = 0;
    WRITE_EQ(w, &rec,
             "{\"type\":\"award\",\"pot\":0,\"amount\":2345,\"winners\":[],"
             "\"odd_chip\":null,\"rule\":\"20\",\"text\":\"Split pot\"}");

    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_HAND_END;
    rec.u.hand_end.hand = 7;
    rec.u.hand_end.nseats = 2;
    rec.u.hand_end.seats[0] = 1;
    rec.u.hand_end.stacks[0] = 0;
    rec.u.hand_end.seats[1] = 10;
    rec.u.hand_end.stacks[1] = INT64_MAX;
    WRITE_EQ(w, &rec,
             "{\"type\":\"hand_end\",\"hand\":7,\"stacks\":[{\"seat\":1,"
             "\"stack\":0},{\"seat\":10,\"stack\":9223372036854775807}]}");
    rec.u.hand_end.nseats = 0;
    WRITE_EQ(w, &rec, "{\"type\":\"hand_end\",\"hand\":7,\"stacks\":[]}");
    fw_protocol_writer_free(w);
}

TEST(write_bad_input)
{
    fw_protocol_writer *w = NULL;
    ASSERT_INT_EQ(fw_protocol_writer_new(&w), FW_OK);
    char buf[FW_PROTOCOL_RECORD_MAX];
    size_t len = 99;
    fw_record rec;

    /* Out-of-range enums and counts: FW_EINVAL, nothing written. */
    fill_state(&rec);
    rec.u.state.street = (fw_street)42;
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_EINVAL);
    ASSERT_INT_EQ(len, 0);
    fill_state(&rec);
    rec.u.state.npots = FW_MAX_POTS + 1;
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_EINVAL);
    fill_state(&rec);
    rec.u.state.nboard = 6;
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_EINVAL);
    fill_state(&rec);
    rec.u.state.pots[1].nseats = -1;
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_EINVAL);
    fill_state(&rec);
    rec.u.state.seats[2].status = (fw_seat_status)9;
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_EINVAL);
    fill_state(&rec);
    rec.type = (fw_record_type)5;
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_EINVAL);
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_ALERT;
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_EINVAL); /* NULL kind */
    rec.type = FW_REC_RULING;
    rec.u.ruling.action = FW_ACT_COUNT;
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_EINVAL);
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_AWARD;
    rec.u.award.nwinners = 11;
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_EINVAL);
    rec.type = FW_REC_HAND_END;
    rec.u.hand_end.nseats = -3;
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_EINVAL);
    ASSERT_INT_EQ(fw_protocol_write_record(NULL, &rec, buf, sizeof buf, &len),
                  FW_EINVAL);

    /* Too small a buffer: FW_ERANGE and the size needed. */
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_HAND_END;
    const char *want = "{\"type\":\"hand_end\",\"hand\":0,\"stacks\":[]}\n";
    size_t need = strlen(want);
    for (size_t size = 0; size <= need; size++) {
        ASSERT_INT_EQ(
            fw_protocol_write_record(w, &rec, size ? buf : NULL, size, &len),
            FW_ERANGE);
        ASSERT_INT_EQ(len, need + 1);
    }
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, need + 1, &len),
                  FW_OK);
    ASSERT_STR_EQ(buf, want);
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, need + 1, NULL),
                  FW_OK);

    /* Invalid UTF-8 and a text without its NUL. */
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_RULING;
    rec.u.ruling.rule = "x\xff";
    memcpy(rec.u.ruling.text, "ab\xe2\x80", 5); /* a cut code point */
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_OK);
    ASSERT_STR_EQ(buf, "{\"type\":\"ruling\",\"seat\":0,\"action\":\"check\","
                       "\"to\":0,\"returned\":0,\"rule\":\"x?\","
                       "\"text\":\"ab??\"}\n");
    memset(rec.u.ruling.text, 'z', sizeof rec.u.ruling.text);
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_OK);
    ASSERT_TRUE(strstr(buf, "\"text\":\"zzzz") != NULL);
    ASSERT_INT_EQ(len, strlen(buf));
    fw_protocol_writer_free(w);
    fw_protocol_writer_free(NULL);
}

TEST(write_worst_case_fits)
{
    /* Every text byte escaped (\u0001: 6 bytes), 256-byte codes, every
     * count at its maximum, every number 19 digits and negative. */
    fw_protocol_writer *w = NULL;
    ASSERT_INT_EQ(fw_protocol_writer_new(&w), FW_OK);
    char code[257], buf[FW_PROTOCOL_RECORD_MAX];
    size_t len;
    memset(code, 1, 256);
    code[256] = '\0';
    fw_record rec;
    memset(&rec, 1, sizeof rec);
    rec.type = FW_REC_ALERT;
    rec.u.alert.kind = rec.u.alert.why = rec.u.alert.rule = rec.u.alert.remedy =
        code;
    rec.u.alert.severity = FW_SEV_STOP;
    rec.u.alert.seat = INT_MIN;
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_OK);

    memset(&rec, 1, sizeof rec);
    rec.type = FW_REC_AWARD;
    rec.u.award.pot = INT_MIN;
    rec.u.award.amount = INT64_MIN;
    rec.u.award.nwinners = FW_MAX_SEATS;
    for (int i = 0; i < FW_MAX_SEATS; i++) {
        rec.u.award.winners[i].seat = INT_MIN;
        rec.u.award.winners[i].amount = INT64_MIN;
    }
    rec.u.award.odd_chip_seat = INT_MIN;
    rec.u.award.rule = code;
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_OK);

    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_STATE;
    fw_state *s = &rec.u.state;
    s->hand = INT_MIN;
    s->to_act = INT_MIN;
    s->to_call = s->min_raise_to = s->max_raise_to = s->pot = INT64_MIN;
    s->npots = FW_MAX_POTS;
    for (int i = 0; i < FW_MAX_POTS; i++) {
        s->pots[i].amount = INT64_MIN;
        s->pots[i].nseats = FW_MAX_SEATS;
        for (int k = 0; k < FW_MAX_SEATS; k++)
            s->pots[i].seats[k] = INT_MIN;
    }
    s->nboard = 5;
    s->button = INT_MIN;
    s->nseats = FW_MAX_SEATS;
    for (int i = 0; i < FW_MAX_SEATS; i++)
        s->seats[i] =
            (fw_seat_view){INT_MIN, INT64_MIN, INT64_MIN, FW_SEAT_ALL_IN};
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_OK);
    fw_protocol_writer_free(w);
}

TEST(write_escapes_and_numbers)
{
    /* Control bytes as jansson escapes them (\uXXXX upper case, the short
     * escapes where JSON has them), DEL and U+2028 as they are, '/' too. */
    fw_protocol_writer *w = NULL;
    ASSERT_INT_EQ(fw_protocol_writer_new(&w), FW_OK);
    fw_record rec;
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_RULING;
    rec.u.ruling.seat = INT_MIN;
    rec.u.ruling.to = INT64_MIN;
    rec.u.ruling.returned = INT64_MAX;
    rec.u.ruling.rule = "a/b";
    snprintf(rec.u.ruling.text, sizeof rec.u.ruling.text,
             "\x01\x08\x09\x0a\x0b\x0c\x0d\x1a\x1f\x7f\xe2\x80\xa8\"\\");
    WRITE_EQ(w, &rec,
             "{\"type\":\"ruling\",\"seat\":-2147483648,\"action\":\"check\","
             "\"to\":-9223372036854775808,\"returned\":9223372036854775807,"
             "\"rule\":\"a/b\",\"text\":\"\\u0001\\b\\t\\n\\u000B\\f\\r"
             "\\u001A\\u001F\x7f\xe2\x80\xa8\\\"\\\\\"}");
    /* Numbers of 1, 3, ... 19 digits, of both signs. */
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_HAND_END;
    rec.u.hand_end.hand = 1;
    rec.u.hand_end.nseats = FW_MAX_SEATS;
    char want[1024];
    size_t n = (size_t)snprintf(want, sizeof want,
                                "{\"type\":\"hand_end\",\"hand\":1,"
                                "\"stacks\":[");
    int64_t x = 9;
    for (int i = 0; i < FW_MAX_SEATS; i++) {
        rec.u.hand_end.seats[i] = i + 1;
        rec.u.hand_end.stacks[i] = i % 2 ? -x : x;
        n += (size_t)snprintf(want + n, sizeof want - n,
                              "%s{\"seat\":%d,\"stack\":%lld}", i ? "," : "",
                              i + 1, (long long)rec.u.hand_end.stacks[i]);
        if (x < INT64_MAX / 100)
            x = x * 100 + 9; /* 9, 909, ... 19 digits */
    }
    snprintf(want + n, sizeof want - n, "]}");
    WRITE_EQ(w, &rec, want);
    fw_protocol_writer_free(w);
}

TEST(write_long_invalid_text)
{
    /* A rule far longer than any text buffer, in invalid UTF-8. */
    fw_protocol_writer *w = NULL;
    ASSERT_INT_EQ(fw_protocol_writer_new(&w), FW_OK);
    char rule[3001], marks[3001], want[3200];
    memset(rule, 0xff, 3000);
    rule[3000] = '\0';
    rule[1500] = 'x';
    memset(marks, '?', 3000);
    marks[3000] = '\0';
    marks[1500] = 'x';
    fw_record rec;
    memset(&rec, 0, sizeof rec);
    rec.type = FW_REC_AWARD;
    rec.u.award.rule = rule;
    snprintf(want, sizeof want,
             "{\"type\":\"award\",\"pot\":0,\"amount\":0,\"winners\":[],"
             "\"odd_chip\":null,\"rule\":\"%s\",\"text\":\"\"}",
             marks);
    WRITE_EQ(w, &rec, want);
    fw_protocol_writer_free(w);
}

TEST(write_reuse_after_errors)
{
    /* A writer that failed (too small a buffer, a bad record) writes the
     * next record whole; a record that exactly fits is written. */
    fw_protocol_writer *w = NULL;
    ASSERT_INT_EQ(fw_protocol_writer_new(&w), FW_OK);
    fw_record rec;
    char buf[FW_PROTOCOL_RECORD_MAX], small[40];
    size_t len = 0, need = 0;
    fill_state(&rec);
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &need),
                  FW_OK);
    need += 1; /* the NUL */
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, small, sizeof small, &len),
                  FW_ERANGE);
    ASSERT_INT_EQ(len, need);
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, need - 1, &len),
                  FW_ERANGE);
    ASSERT_INT_EQ(len, need);
    rec.u.state.street = (fw_street)99;
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_EINVAL);
    fill_state(&rec);
    memset(buf, 'z', sizeof buf);
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, need, &len), FW_OK);
    ASSERT_INT_EQ(len, need - 1);
    ASSERT_INT_EQ(buf[need - 2], '\n');
    ASSERT_INT_EQ(buf[need - 1], '\0');
    ASSERT_TRUE(strncmp(buf, "{\"type\":\"state\",\"hand\":12,", 26) == 0);
    fw_protocol_writer_free(w);
}

TEST(write_then_read_back)
{
    /* Every record is one line of valid JSON that jansson reads back. */
    fw_protocol_writer *w = NULL;
    ASSERT_INT_EQ(fw_protocol_writer_new(&w), FW_OK);
    fw_record rec;
    fill_state(&rec);
    char buf[FW_PROTOCOL_RECORD_MAX];
    size_t len;
    ASSERT_INT_EQ(fw_protocol_write_record(w, &rec, buf, sizeof buf, &len),
                  FW_OK);
    ASSERT_TRUE(memchr(buf, '\n', len - 1) == NULL);
    /* A state line is not an input event: the reader names its type. */
    fw_event ev;
    char err[FW_PROTOCOL_ERR_MAX];
    ASSERT_INT_EQ(fw_protocol_parse_line(buf, len, 1, &ev, err, sizeof err),
                  FW_EPARSE);
    ASSERT_STR_EQ(err, "line 1: unknown type \"state\"");
    fw_protocol_writer_free(w);
}

static const fw_test_case cases[] = {
    TEST_CASE(names_games_and_profiles),
    TEST_CASE(names_events_words_decisions),
    TEST_CASE(names_output_enums),
    TEST_CASE(parse_table),
    TEST_CASE(parse_level),
    TEST_CASE(parse_seat),
    TEST_CASE(parse_seat_only_events),
    TEST_CASE(parse_penalty_hand_start_tick),
    TEST_CASE(parse_card),
    TEST_CASE(parse_say),
    TEST_CASE(parse_push_pull),
    TEST_CASE(parse_show),
    TEST_CASE(parse_floor),
    TEST_CASE(parse_lenient_bits),
    TEST_CASE(parse_blank_lines),
    TEST_CASE(parse_errors_name_line_and_field),
    TEST_CASE(parse_error_details),
    TEST_CASE(parse_garbage_never_crashes),
    TEST_CASE(parse_lenient_traps),
    TEST_CASE(parse_lenient_bits_more),
    TEST_CASE(parse_same_with_or_without_escapes),
    TEST_CASE(write_ruling),
    TEST_CASE(write_alert),
    TEST_CASE(write_state),
    TEST_CASE(write_award_and_hand_end),
    TEST_CASE(write_bad_input),
    TEST_CASE(write_worst_case_fits),
    TEST_CASE(write_escapes_and_numbers),
    TEST_CASE(write_long_invalid_text),
    TEST_CASE(write_reuse_after_errors),
    TEST_CASE(write_then_read_back),
};

TEST_MAIN(cases)
