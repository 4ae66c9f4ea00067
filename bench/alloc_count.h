/*
 * alloc_count.h - how many heap allocations a stretch of a benchmark
 * makes: the kiosk's frame loop should make few or none once warm.
 *
 * A program linked with alloc_count.c has malloc and its kin counted
 * (glibc only; not under AddressSanitizer, which replaces them itself).
 */
#ifndef FW_ALLOC_COUNT_H
#define FW_ALLOC_COUNT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Allocations made so far in the process (every thread), or -1 where
 * they are not counted (not glibc, or a sanitizer build). */
long fw_alloc_count(void);

/* Bytes of the heap in use now (glibc's mallinfo2: the blocks handed
 * out, small and mapped), or -1 where not counted. A frame loop whose
 * heap grows from frame to frame leaks. */
long fw_heap_in_use(void);

#ifdef __cplusplus
}
#endif

#endif
