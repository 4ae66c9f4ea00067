/* cards.c - card text: "Ah" <-> rank * 4 + suit. */
#include "rules.h"

static const char rank_chars[] = "23456789TJQKA";
static const char suit_chars[] = "cdhs";

/* The rank 0..12 of a rank character in either case, or -1. */
static int rank_of(char ch)
{
    if (ch >= '2' && ch <= '9')
        return ch - '2';
    switch (ch) {
    case 'T':
    case 't':
        return 8;
    case 'J':
    case 'j':
        return 9;
    case 'Q':
    case 'q':
        return 10;
    case 'K':
    case 'k':
        return 11;
    case 'A':
    case 'a':
        return 12;
    }
    return -1;
}

/* The suit 0..3 of a suit character in either case, or -1. */
static int suit_of(char ch)
{
    switch (ch) {
    case 'C':
    case 'c':
        return 0;
    case 'D':
    case 'd':
        return 1;
    case 'H':
    case 'h':
        return 2;
    case 'S':
    case 's':
        return 3;
    }
    return -1;
}

/*
 * Exactly two characters: anything after them ("Ahh", "Ah ") is an error, so
 * a reader never silently drops part of its input. The string is read only
 * up to its NUL, so "" and "A" are safe.
 */
int fw_card_parse(const char *s, fw_card *out)
{
    if (out)
        *out = FW_CARD_NONE;
    if (!s || s[0] == '\0' || s[1] == '\0' || s[2] != '\0')
        return FW_EPARSE;
    int rank = rank_of(s[0]), suit = suit_of(s[1]);
    if (rank < 0 || suit < 0)
        return FW_EPARSE;
    if (out)
        *out = fw_card_make(rank, suit);
    return FW_OK;
}

void fw_card_str(fw_card c, char out[3])
{
    if (!out)
        return;
    if (c >= 52) {
        out[0] = '?';
        out[1] = '?';
    } else {
        out[0] = rank_chars[fw_card_rank(c)];
        out[1] = suit_chars[fw_card_suit(c)];
    }
    out[2] = '\0';
}
