/*
 * eval.c - hand evaluation for hold'em, Omaha and short deck, and the names
 * a dealer announces.
 *
 * Each evaluator sums per-card keys, then makes one table lookup: a flush by
 * the rank mask of its suit, anything else by a perfect hash of the rank
 * multiset (eval_tables.h explains the keys, the tables and the layout of a
 * value). No branches depend on the hand except the rare flush test, nothing
 * allocates, and every table is const, so all of it is reentrant.
 */
#include "rules.h"

#include "eval_tables.h"

#define LANE_MASK 0x1FFFu
/* Ranks A, 6, 7, 8, 9 (ace 12, six 4 .. nine 7): short deck's low straight. */
#define SHORT_WHEEL ((1u << 12) | (0xFu << 4))
#define NINE 7
#define SHORT_DECK_LOWEST_CARD 16 /* the six of clubs */

/*
 * Adds the keys of the n cards at cards[] to *acc (which holds
 * FW_EVAL_SUIT_BIAS on entry) and sets bit 16 * suit + rank of *lanes for
 * each card, which gives one 13-bit rank mask per suit. Returns 1, or 0 when
 * a card is below lowest or above the ace of spades, or repeats.
 */
static inline int accumulate(const fw_card *cards, int n, unsigned lowest,
                             uint64_t *acc, uint64_t *lanes)
{
    uint64_t a = *acc, l = 0;
    for (int i = 0; i < n; i++) {
        unsigned c = cards[i];
        if (c - lowest >= 52 - lowest)
            return 0;
        uint64_t bit = UINT64_C(1) << ((c & 3) * 16 + (c >> 2));
        if (l & bit)
            return 0;
        l |= bit;
        a += fw__eval_card_key[c];
    }
    *acc = a;
    *lanes = l;
    return 1;
}

/*
 * The class id (eval_tables.h) of the best five of the cards summed into acc
 * and lanes by accumulate(). With five or more cards of one suit no other
 * hand can beat the flush (seven cards cannot hold a flush and a full house
 * or quads), so the flush suit's mask alone decides.
 */
static inline unsigned lookup(uint64_t acc, uint64_t lanes)
{
    uint64_t flush = acc & FW_EVAL_FLUSH_BITS;
    if (flush) {
        /* The counter's top bit is bit 51 + 4 * suit; its lane 16 * suit. */
        int shift = (__builtin_ctzll(flush) - 51) * 4;
        return fw__eval_flush[(lanes >> shift) & LANE_MASK];
    }
    uint32_t key = (uint32_t)(acc & FW_EVAL_RANK_KEY_MASK);
    return fw__eval_rank[fw__eval_rank_slot(key, fw__eval_disp)];
}

fw_hand_value fw_eval_high(const fw_card *cards, int n)
{
    uint64_t acc = FW_EVAL_SUIT_BIAS, lanes;
    if (!cards || n < 5 || n > 7 || !accumulate(cards, n, 0, &acc, &lanes))
        return 0;
    return fw__eval_value[lookup(acc, lanes)];
}

static uint32_t make_value(int slot, int cat, int top)
{
    return (uint32_t)slot << FW_EVAL_SLOT_SHIFT |
           (uint32_t)cat << FW_EVAL_CAT_SHIFT | (uint32_t)top << 16;
}

/*
 * Short deck: the standard evaluation, then the two ways the 36-card deck
 * differs. A-6-7-8-9 is a straight (its only new straight, since the A-2-3-
 * 4-5 wheel cannot be dealt), and a flush outranks a full house, which only
 * moves the order slot. Straights stay above three of a kind, as most
 * short-deck rooms play; this is not the variant that swaps them.
 */
fw_hand_value fw_eval_short_deck(const fw_card *cards, int n)
{
    uint64_t acc = FW_EVAL_SUIT_BIAS, lanes;
    if (!cards || n < 5 || n > 7 ||
        !accumulate(cards, n, SHORT_DECK_LOWEST_CARD, &acc, &lanes))
        return 0;
    uint32_t v = fw__eval_value[lookup(acc, lanes)];
    int cat = (int)(v >> FW_EVAL_CAT_SHIFT) & 0xF;
    uint64_t flush = acc & FW_EVAL_FLUSH_BITS;
    if (flush) {
        int shift = (__builtin_ctzll(flush) - 51) * 4;
        unsigned mask = (unsigned)(lanes >> shift) & LANE_MASK;
        if (cat != FW_STRAIGHT_FLUSH && (mask & SHORT_WHEEL) == SHORT_WHEEL)
            v = make_value(FW_STRAIGHT_FLUSH, FW_STRAIGHT_FLUSH, NINE);
    } else {
        unsigned ranks =
            (unsigned)(lanes | lanes >> 16 | lanes >> 32 | lanes >> 48) &
            LANE_MASK;
        if (cat < FW_STRAIGHT && (ranks & SHORT_WHEEL) == SHORT_WHEEL)
            v = make_value(FW_STRAIGHT, FW_STRAIGHT, NINE);
    }
    cat = (int)(v >> FW_EVAL_CAT_SHIFT) & 0xF;
    int slot = cat == FW_FLUSH        ? FW_FULL_HOUSE + 1
               : cat == FW_FULL_HOUSE ? FW_FLUSH
                                      : cat;
    return (v & ~(UINT32_C(0xF) << FW_EVAL_SLOT_SHIFT)) |
           (uint32_t)slot << FW_EVAL_SLOT_SHIFT;
}

/* The rank part of a card's key: 5^rank. */
static inline uint32_t rank_key(fw_card c)
{
    return (uint32_t)(fw__eval_card_key[c] & FW_EVAL_RANK_KEY_MASK);
}

/*
 * Omaha: every pair of hole cards with every triple of board cards (60
 * five-card hands for PLO, 100 for PLO5). Pairs and triples are summed once;
 * a combination can be a flush only when the pair is suited and the triple is
 * of the same suit. Class ids order like values, so the best id is kept and
 * turned into a value once at the end.
 *
 * For each pair the hash slots are computed first and looked up after, so the
 * table loads of one pair overlap instead of waiting on each other. A flush
 * combination is looked up in the rank table too, harmlessly: five suited
 * cards have five ranks, so the rank table says at most "straight", and the
 * flush table's answer is higher.
 */
fw_hand_value fw_eval_omaha(const fw_card *hole, int nhole,
                            const fw_card *board, int nboard)
{
    if (!hole || !board || nhole < 4 || nhole > 5 || nboard < 3 || nboard > 5)
        return 0;
    uint64_t seen = 0;
    for (int i = 0; i < nhole + nboard; i++) {
        unsigned c = i < nhole ? hole[i] : board[i - nhole];
        if (c >= 52 || (seen >> c & 1))
            return 0;
        seen |= UINT64_C(1) << c;
    }

    uint32_t hkey[10] = {0}, bkey[10] = {0};
    unsigned hmask[10] = {0}, bmask[10] = {0};
    int hsuit[10] = {0}, bsuit[10] = {0};
    int nh = 0, nb = 0;
    for (int i = 0; i < nhole; i++) {
        for (int j = i + 1; j < nhole; j++, nh++) {
            fw_card a = hole[i], b = hole[j];
            hkey[nh] = rank_key(a) + rank_key(b);
            hmask[nh] = 1u << fw_card_rank(a) | 1u << fw_card_rank(b);
            hsuit[nh] =
                fw_card_suit(a) == fw_card_suit(b) ? fw_card_suit(a) : 4;
        }
    }
    for (int i = 0; i < nboard; i++) {
        for (int j = i + 1; j < nboard; j++) {
            for (int k = j + 1; k < nboard; k++, nb++) {
                fw_card a = board[i], b = board[j], c = board[k];
                bkey[nb] = rank_key(a) + rank_key(b) + rank_key(c);
                bmask[nb] = 1u << fw_card_rank(a) | 1u << fw_card_rank(b) |
                            1u << fw_card_rank(c);
                bsuit[nb] = fw_card_suit(a) == fw_card_suit(b) &&
                                    fw_card_suit(a) == fw_card_suit(c)
                                ? fw_card_suit(a)
                                : 5;
            }
        }
    }

    unsigned best = 0;
    for (int h = 0; h < nh; h++) {
        uint32_t slot[10];
        for (int b = 0; b < nb; b++)
            slot[b] = fw__eval_rank_slot(hkey[h] + bkey[b], fw__eval_disp);
        for (int b = 0; b < nb; b++) {
            unsigned id = fw__eval_rank[slot[b]];
            best = id > best ? id : best;
        }
        for (int b = 0; b < nb; b++) {
            if (hsuit[h] == bsuit[b]) {
                unsigned id = fw__eval_flush[hmask[h] | bmask[b]];
                best = id > best ? id : best;
            }
        }
    }
    return fw__eval_value[best];
}

int fw_hand_category(fw_hand_value v)
{
    int cat = (int)(v >> FW_EVAL_CAT_SHIFT) & 0xF;
    if (v == 0 || cat >= FW_HAND_CATEGORIES)
        return -1;
    return cat;
}

static const char *const singular[13] = {
    "Two",  "Three", "Four", "Five",  "Six",  "Seven", "Eight",
    "Nine", "Ten",   "Jack", "Queen", "King", "Ace"};
static const char *const plural[13] = {
    "Twos",  "Threes", "Fours", "Fives",  "Sixes", "Sevens", "Eights",
    "Nines", "Tens",   "Jacks", "Queens", "Kings", "Aces"};

/*
 * Appends str to buf (size bytes, at *len so far), cutting it short rather
 * than overrunning and keeping buf NUL-terminated.
 */
static void append(char *buf, size_t size, size_t *len, const char *str)
{
    while (*str && *len + 1 < size)
        buf[(*len)++] = *str++;
    buf[*len] = '\0';
}

/*
 * A value no evaluator returns (0, an unknown category, a rank nibble past
 * the ace) is FW_EINVAL, with buf set to "". A name longer than size - 1
 * bytes is cut short, like snprintf, and still FW_OK; 34 bytes always fit
 * ("Full House, Queens full of Threes").
 */
int fw_hand_name(fw_hand_value v, char *buf, size_t size)
{
    int cat = fw_hand_category(v);
    int r1 = (int)(v >> 16) & 0xF, r2 = (int)(v >> 12) & 0xF;
    if (size > 0 && !buf)
        return FW_EINVAL;
    if (size > 0)
        buf[0] = '\0';
    if (cat < 0 || r1 > FW_RANK_ACE || r2 > FW_RANK_ACE)
        return FW_EINVAL;
    if (size == 0)
        return FW_OK;

    size_t len = 0;
    switch (cat) {
    case FW_HIGH_CARD:
        append(buf, size, &len, "High Card, ");
        append(buf, size, &len, singular[r1]);
        break;
    case FW_ONE_PAIR:
        append(buf, size, &len, "Pair of ");
        append(buf, size, &len, plural[r1]);
        break;
    case FW_TWO_PAIR:
        append(buf, size, &len, "Two Pair, ");
        append(buf, size, &len, plural[r1]);
        append(buf, size, &len, " and ");
        append(buf, size, &len, plural[r2]);
        break;
    case FW_THREE_OF_A_KIND:
        append(buf, size, &len, "Three of a Kind, ");
        append(buf, size, &len, plural[r1]);
        break;
    case FW_STRAIGHT:
        append(buf, size, &len, "Straight, ");
        append(buf, size, &len, singular[r1]);
        append(buf, size, &len, " High");
        break;
    case FW_FLUSH:
        append(buf, size, &len, "Flush, ");
        append(buf, size, &len, singular[r1]);
        append(buf, size, &len, " High");
        break;
    case FW_FULL_HOUSE:
        append(buf, size, &len, "Full House, ");
        append(buf, size, &len, plural[r1]);
        append(buf, size, &len, " full of ");
        append(buf, size, &len, plural[r2]);
        break;
    case FW_FOUR_OF_A_KIND:
        append(buf, size, &len, "Four of a Kind, ");
        append(buf, size, &len, plural[r1]);
        break;
    default: /* FW_STRAIGHT_FLUSH */
        if (r1 == FW_RANK_ACE) {
            append(buf, size, &len, "Royal Flush");
        } else {
            append(buf, size, &len, "Straight Flush, ");
            append(buf, size, &len, singular[r1]);
            append(buf, size, &len, " High");
        }
        break;
    }
    return FW_OK;
}
