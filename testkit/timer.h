/* Wall-clock timing for the test kit and the commands: POSIX CLOCK_MONOTONIC and a median helper.
 */
#ifndef ROPEKIT_TESTKIT_TIMER_H_
#define ROPEKIT_TESTKIT_TIMER_H_

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline uint64_t tk_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int tk_cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Median of n samples (sorts them in place); 0 for n == 0. */
static inline uint64_t tk_median_u64(uint64_t *samples, size_t n) {
    if (n == 0)
        return 0;
    qsort(samples, n, sizeof *samples, tk_cmp_u64);
    return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_TIMER_H_ */
