/*
 * profile_doc.c - prints docs/rulebooks.md, the table of differences
 * between the rulebook profiles, from the profile data (rules/profile.c),
 * so the document cannot say something the engine does not do. The test
 * docs.rulebooks compares this output with the committed file byte for
 * byte; regenerate it with
 *
 *     build/tools/profile_doc > docs/rulebooks.md
 */
#include "profile.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *const rule_names[FW_R_COUNT] = {
#define FW__RULE_NAME(id, num) #id,
    FW_RULE_IDS(FW__RULE_NAME)
#undef FW__RULE_NAME
};

/* Print s as the inside of a markdown table cell: '|' would end it. */
static void cell(const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", stdout);
        else
            putchar(*s);
    }
}

/* Whether two entries say the same: number, text and remedy. */
static bool same_rule(const fw_rule_ref *a, const fw_rule_ref *b)
{
    return strcmp(a->number, b->number) == 0 && strcmp(a->text, b->text) == 0 &&
           strcmp(a->remedy, b->remedy) == 0;
}

static void header_row(const char *first)
{
    printf("| %s |", first);
    for (int p = 0; p < FW_PROFILE_COUNT; p++)
        printf(" %s |", fw__profile((fw_profile_id)p)->name);
    printf("\n|---|");
    for (int p = 0; p < FW_PROFILE_COUNT; p++)
        printf("---|");
    printf("\n");
}

static void profiles_table(void)
{
    printf("## Profiles\n\n");
    printf("| Profile | Book | Coverage |\n|---|---|---|\n");
    for (int p = 0; p < FW_PROFILE_COUNT; p++) {
        const fw_profile *pr = fw__profile((fw_profile_id)p);
        printf("| `%s` | ", pr->name);
        cell(pr->book);
        printf(" | ");
        cell(pr->coverage);
        printf(" |\n");
    }
    printf("\n");
}

/*
 * One row per rule id, one column per profile. A profile's cell is "= tda"
 * where its whole entry (number, text and remedy) is tda's, "(none)" where
 * its book has no such rule, and the book's rule number otherwise.
 */
static void numbers_table(void)
{
    const fw_profile *tda = fw__profile(FW_PROFILE_TDA);
    printf("## Rule numbers\n\n");
    printf("`(none)`: the book has no such rule; the profile's text says "
           "what applies instead.\n`= tda`: the entry (number, text and "
           "remedy) is the same as tda's; for tda-older, the rule is not "
           "on its page and tda's entry is used.\n\n");
    header_row("Rule id");
    for (int r = 0; r < FW_R_COUNT; r++) {
        printf("| %s |", rule_names[r]);
        for (int p = 0; p < FW_PROFILE_COUNT; p++) {
            const fw_rule_ref *ref = &fw__profile((fw_profile_id)p)->rules[r];
            if (p != FW_PROFILE_TDA && same_rule(ref, &tda->rules[r]))
                printf(" = tda |");
            else if (ref->number[0] == '\0')
                printf(" (none) |");
            else
                printf(" %s |", ref->number);
        }
        printf("\n");
    }
    printf("\n");
}

/* One row of the procedures table: the field's value in every profile. */
#define FIELD_ROW(field, fmt, value)                                           \
    do {                                                                       \
        printf("| `%s` |", #field);                                            \
        for (int p = 0; p < FW_PROFILE_COUNT; p++) {                           \
            const fw_profile *pr = fw__profile((fw_profile_id)p);              \
            printf(" " fmt " |", value);                                       \
        }                                                                      \
        printf("\n");                                                          \
    } while (0)
#define INT_ROW(field) FIELD_ROW(field, "%d", pr->field)
#define BOOL_ROW(field) FIELD_ROW(field, "%s", pr->field ? "yes" : "no")

static void procedures_table(void)
{
    printf("## Procedures\n\n");
    printf("Where the books differ in what to do, not only in wording, a "
           "field of the profile says what the book does and the engine "
           "follows it (rules/profile.h).\n\n");
    header_row("Field");
    INT_ROW(clock_seconds);
    INT_ROW(countdown_seconds);
    BOOL_ROW(premature_turn_reburn);
    BOOL_ROW(premature_river_reburn);
    BOOL_ROW(single_boxed_procedure);
    BOOL_ROW(multi_boxed_floor_decides);
    BOOL_ROW(missed_blinds);
    BOOL_ROW(one_bb_per_rotation);
    BOOL_ROW(two_motion_raise);
    BOOL_ROW(all_in_must_be_declared);
    BOOL_ROW(clock_kills_unfaced);
    BOOL_ROW(unclear_amount_lesser);
    BOOL_ROW(no_last_chips_exception);
    BOOL_ROW(redeal_kills_absent);
    printf("\n");
}

/* Every rule a book lacks, with what the profile says instead. */
static void gaps_table(void)
{
    const fw_profile *tda = fw__profile(FW_PROFILE_TDA);
    printf("## Rules a book does not have\n\n");
    printf("| Rule id | Profile | What the profile says |\n|---|---|---|\n");
    for (int r = 0; r < FW_R_COUNT; r++) {
        for (int p = 0; p < FW_PROFILE_COUNT; p++) {
            const fw_profile *pr = fw__profile((fw_profile_id)p);
            const fw_rule_ref *ref = &pr->rules[r];
            if (ref->number[0] != '\0')
                continue;
            if (p != FW_PROFILE_TDA && same_rule(ref, &tda->rules[r]))
                continue;
            printf("| %s | %s | ", rule_names[r], pr->name);
            cell(ref->text);
            printf(" |\n");
        }
    }
}

int main(void)
{
    printf("<!-- Generated by tools/profile_doc from rules/profile.c: do not "
           "edit.\n     Regenerate: build/tools/profile_doc > "
           "docs/rulebooks.md -->\n\n");
    printf("# Rulebooks\n\n");
    printf("The rules engine cites the rule of the active rulebook in every "
           "ruling and alert. Each rulebook is a profile: for every rule id, "
           "the rule's number in that book, what it says and what to do. "
           "This page shows where the profiles differ.\n\n");
    profiles_table();
    numbers_table();
    procedures_table();
    gaps_table();
    return ferror(stdout) ? 1 : 0;
}
