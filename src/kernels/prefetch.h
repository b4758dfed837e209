/* Software prefetch for strided rows that use only part of their stride (a partial
 * rotary slice, or rotaryDim < headSize in place). The hardware prefetchers follow
 * dense streams but fall behind on these: measured on AMD Zen 4, in-place bf16 rope
 * with rotaryDim = headSize / 2 ran 3-4x faster with rows requested 4 KiB ahead. */
#ifndef ROPEKIT_KERNELS_PREFETCH_H_
#define ROPEKIT_KERNELS_PREFETCH_H_

#include <stdint.h>

#define RK_PREFETCH_AHEAD_BYTES 4096

/* Rows to look ahead in a stream of rows `stride` bytes apart that use `used` bytes
 * each; 0 (no prefetch) when the rows leave no gap. */
static inline int64_t rk_prefetch_rows_ahead(int64_t stride, int64_t used) {
    if (stride <= used)
        return 0;
    return (RK_PREFETCH_AHEAD_BYTES + stride - 1) / stride;
}

/* Requests, for writing, the `used` bytes of the row `ahead` rows after `row`. A
 * prefetch never faults, so the row may lie past the end of the data; the address is
 * formed as an integer for that reason. */
static inline void rk_prefetch_row(const void *row, int64_t stride, int64_t ahead, int64_t used) {
#if defined(__GNUC__)
    const uintptr_t p = (uintptr_t)row + (uintptr_t)(stride * ahead);
    for (int64_t off = 0; off < used; off += 64)
        __builtin_prefetch((const void *)(p + (uintptr_t)off), 1, 3);
#else
    (void)row;
    (void)stride;
    (void)ahead;
    (void)used;
#endif
}

#endif /* ROPEKIT_KERNELS_PREFETCH_H_ */
