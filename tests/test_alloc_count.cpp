/*
 * test_alloc_count.cpp - bench/alloc_count.h: the benchmarks' count of
 * heap allocations, and of the heap in use.
 *
 * Linked with alloc_count.c, this program's malloc and its kin are the
 * counting ones. In a sanitizer build nothing is counted, and the cases
 * skip. Built with -fno-builtin (tests/CMakeLists.txt), so the compiler
 * keeps every allocation written here.
 */
#include "alloc_count.h"
#include "harness.h"

#include <opencv2/core.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#define SKIP_UNCOUNTED()                                                     \
    do {                                                                     \
        if (fw_alloc_count() < 0)                                            \
            TEST_SKIP("allocations are not counted in this build");         \
    } while (0)

TEST(each_allocating_call_counts_once)
{
    SKIP_UNCOUNTED();
    const long n0 = fw_alloc_count();
    void *a = std::malloc(24);
    void *b = std::calloc(3, 8);
    void *c = std::realloc(nullptr, 40);
    void *d = nullptr;
    ASSERT_INT_EQ(posix_memalign(&d, 64, 100), 0);
    void *e = aligned_alloc(32, 64);
    ASSERT_TRUE(a && b && c && d && e);
    ASSERT_INT_EQ((uintptr_t)d % 64, 0);
    ASSERT_INT_EQ((uintptr_t)e % 32, 0);
    std::memset(d, 1, 100); /* the blocks are usable */
    ASSERT_INT_EQ(fw_alloc_count() - n0, 5);
    std::free(a);
    std::free(b);
    std::free(c);
    std::free(d);
    std::free(e);
    /* a free is not an allocation */
    ASSERT_INT_EQ(fw_alloc_count() - n0, 5);
}

TEST(cpp_and_opencv_allocations_count)
{
    SKIP_UNCOUNTED();
    long n0 = fw_alloc_count();
    std::vector<int> *v = new std::vector<int>(1000, 7);
    ASSERT_INT_EQ(fw_alloc_count() - n0, 2); /* the vector and its ints */
    delete v;
    n0 = fw_alloc_count();
    cv::Mat m(100, 100, CV_8UC3, cv::Scalar::all(9));
    ASSERT_TRUE(fw_alloc_count() - n0 >= 1);
    /* created again at the same size and type: nothing allocated */
    n0 = fw_alloc_count();
    m.create(100, 100, CV_8UC3);
    ASSERT_INT_EQ(fw_alloc_count() - n0, 0);
}

TEST(bad_alignment_refused_uncounted)
{
    SKIP_UNCOUNTED();
    const long n0 = fw_alloc_count();
    void *p = &p;
    ASSERT_INT_EQ(posix_memalign(&p, 3, 16), EINVAL);
    ASSERT_INT_EQ(posix_memalign(&p, 4, 16), sizeof(void *) > 4 ? EINVAL : 0);
    ASSERT_TRUE(p == &p || sizeof(void *) <= 4);
    ASSERT_INT_EQ(fw_alloc_count() - n0, 0);
}

TEST(heap_in_use_follows_a_block)
{
    SKIP_UNCOUNTED();
    const long h0 = fw_heap_in_use();
    ASSERT_TRUE(h0 > 0);
    const size_t big = (size_t)4 << 20;
    char *p = (char *)std::malloc(big);
    ASSERT_TRUE(p != nullptr);
    std::memset(p, 3, big);
    ASSERT_TRUE(fw_heap_in_use() - h0 >= (long)big);
    std::free(p);
    ASSERT_TRUE(fw_heap_in_use() - h0 < (long)big / 4);
}

static const fw_test_case cases[] = {
    TEST_CASE(each_allocating_call_counts_once),
    TEST_CASE(cpp_and_opencv_allocations_count),
    TEST_CASE(bad_alignment_refused_uncounted),
    TEST_CASE(heap_in_use_follows_a_block),
};
TEST_MAIN(cases)
