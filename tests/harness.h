/*
 * harness.h - the tiny test harness shared by every test executable.
 *
 * A test file defines cases with TEST(name), lists them in a table of
 * TEST_CASE(name) entries and ends with TEST_MAIN(table). The executable runs
 * every case, or only the one named in argv[1], and prints
 * "N passed, N failed". tests/CMakeLists.txt reads the TEST_CASE lines and
 * registers each case with add_test, so `ctest -R name` runs one case.
 * A case may skip itself with TEST_SKIP(why): the executable exits 77.
 *
 * Asserts print both values and end the case; they are never compiled out.
 */
#ifndef FW_TEST_HARNESS_H
#define FW_TEST_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fw_test_case {
    const char *name;
    void (*fn)(void);
} fw_test_case;

static int fw_test_failed_flag;
static int fw_test_skipped_flag;

#define TEST(name) static void test_##name(void)
#define TEST_CASE(name) {#name, test_##name}

#define FW_TEST_FAIL_(...)                                                   \
    do {                                                                     \
        fprintf(stderr, "  %s:%d: ", __FILE__, __LINE__);                    \
        fprintf(stderr, __VA_ARGS__);                                        \
        fprintf(stderr, "\n");                                               \
        fw_test_failed_flag = 1;                                             \
        return;                                                              \
    } while (0)

#define ASSERT_TRUE(cond)                                                    \
    do {                                                                     \
        if (!(cond))                                                         \
            FW_TEST_FAIL_("expected true: %s", #cond);                       \
    } while (0)

#define ASSERT_INT_EQ(a, b)                                                  \
    do {                                                                     \
        long long fw_a_ = (long long)(a), fw_b_ = (long long)(b);            \
        if (fw_a_ != fw_b_)                                                  \
            FW_TEST_FAIL_("%s == %s: %lld != %lld", #a, #b, fw_a_, fw_b_);   \
    } while (0)

#define ASSERT_INT_NE(a, b)                                                  \
    do {                                                                     \
        long long fw_a_ = (long long)(a), fw_b_ = (long long)(b);            \
        if (fw_a_ == fw_b_)                                                  \
            FW_TEST_FAIL_("%s != %s: both %lld", #a, #b, fw_a_);             \
    } while (0)

#define ASSERT_INT_LT(a, b)                                                  \
    do {                                                                     \
        long long fw_a_ = (long long)(a), fw_b_ = (long long)(b);            \
        if (!(fw_a_ < fw_b_))                                                \
            FW_TEST_FAIL_("%s < %s: %lld >= %lld", #a, #b, fw_a_, fw_b_);    \
    } while (0)

#define ASSERT_STR_EQ(a, b)                                                  \
    do {                                                                     \
        const char *fw_a_ = (a), *fw_b_ = (b);                               \
        if (!fw_a_ || !fw_b_ || strcmp(fw_a_, fw_b_) != 0)                   \
            FW_TEST_FAIL_("%s == %s: \"%s\" != \"%s\"", #a, #b,              \
                          fw_a_ ? fw_a_ : "(null)",                          \
                          fw_b_ ? fw_b_ : "(null)");                         \
    } while (0)

#define TEST_SKIP(why)                                                       \
    do {                                                                     \
        fprintf(stderr, "  skipped: %s\n", why);                             \
        fw_test_skipped_flag = 1;                                            \
        return;                                                              \
    } while (0)

static int fw_test_run(const fw_test_case *cases, size_t n, int argc,
                       char **argv)
{
    int passed = 0, failed = 0, skipped = 0, matched = 0;
    for (size_t i = 0; i < n; i++) {
        if (argc > 1 && strcmp(argv[1], cases[i].name) != 0)
            continue;
        matched++;
        fw_test_failed_flag = 0;
        fw_test_skipped_flag = 0;
        cases[i].fn();
        if (fw_test_failed_flag) {
            failed++;
            printf("FAIL %s\n", cases[i].name);
        } else if (fw_test_skipped_flag) {
            skipped++;
            printf("SKIP %s\n", cases[i].name);
        } else {
            passed++;
            printf("ok   %s\n", cases[i].name);
        }
    }
    if (argc > 1 && matched == 0) {
        fprintf(stderr, "no test named %s\n", argv[1]);
        return 2;
    }
    printf("%d passed, %d failed", passed, failed);
    if (skipped)
        printf(", %d skipped", skipped);
    printf("\n");
    if (failed)
        return 1;
    return (skipped && passed == 0) ? 77 : 0;
}

#define TEST_MAIN(table)                                                     \
    int main(int argc, char **argv)                                          \
    {                                                                        \
        return fw_test_run(table, sizeof(table) / sizeof(table[0]), argc,    \
                           argv);                                            \
    }

#endif
