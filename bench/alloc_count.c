/*
 * alloc_count.c - malloc and its kin counted (alloc_count.h).
 *
 * The program's own malloc, calloc, realloc, posix_memalign,
 * aligned_alloc and memalign stand in for glibc's everywhere in the
 * process (the dynamic linker finds the executable's first: C++'s
 * operator new and OpenCV's fastMalloc come here too). Each counts the
 * call and hands it to glibc's own allocator (__libc_malloc and the
 * rest), so free() stays glibc's. A realloc counts as an allocation
 * (it may move the block), a free does not.
 */
#include "alloc_count.h"

#include <stdlib.h> /* for __GLIBC__ (features.h) */

/* a sanitizer replaces malloc itself: GCC says so by macros, clang by
 * __has_feature */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define FW_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||   \
    __has_feature(memory_sanitizer)
#define FW_SANITIZED 1
#endif
#endif

#if defined(__GLIBC__) && !defined(FW_SANITIZED)

#include <errno.h>
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);

/* relaxed: only the total matters, read between frames */
static long allocs;

static void counted(void)
{
    __atomic_fetch_add(&allocs, 1, __ATOMIC_RELAXED);
}

long fw_alloc_count(void)
{
    return __atomic_load_n(&allocs, __ATOMIC_RELAXED);
}

long fw_heap_in_use(void)
{
    const struct mallinfo2 m = mallinfo2();
    return (long)(m.uordblks + m.hblkhd);
}

void *malloc(size_t n)
{
    counted();
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    counted();
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    counted();
    return __libc_realloc(p, n);
}

/* glibc's memalign takes any power of two; posix_memalign also asks for
 * a multiple of a pointer's size */
int posix_memalign(void **out, size_t align, size_t n)
{
    if (align == 0 || (align & (align - 1)) != 0 || align % sizeof(void *))
        return EINVAL;
    counted();
    void *p = __libc_memalign(align, n);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t align, size_t n)
{
    counted();
    return __libc_memalign(align, n);
}

void *memalign(size_t align, size_t n)
{
    counted();
    return __libc_memalign(align, n);
}

#else

long fw_alloc_count(void)
{
    return -1;
}

long fw_heap_in_use(void)
{
    return -1;
}

#endif
