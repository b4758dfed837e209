/* Timing: repeated runs with a time budget, and the copy and touch baselines. */
#ifndef ROPEKIT_BENCH_MEASURE_H_
#define ROPEKIT_BENCH_MEASURE_H_

#include <stddef.h>
#include <stdint.h>

struct rkb_timing {
    double median_s;
    double min_s;
    int runs;
};

/* Runs fn(ctx) once to warm up, then repeatedly until `budget_s` has passed (at least
 * min_runs, at most max_runs times). */
struct rkb_timing rkb_time(void (*fn)(void *ctx), void *ctx, double budget_s, int min_runs,
                           int max_runs);

/* Copy bandwidth in bytes/s (bytes read + bytes written) for copying `bytes / 2` bytes
 * between two buffers with `threads` threads, as fast as memcpy does it. Results are
 * cached per (bytes, threads) for the run. */
double rkb_copy_bandwidth(double bytes, int threads, double budget_s);

/* Touch bandwidth in bytes/s (2 * rows * used) for reading and writing back in place the
 * first `used` bytes of each of `rows` rows `stride` bytes apart, with `threads` threads
 * and the library's software prefetch when stride > used: what the op's own geometry
 * allows. Results are cached per (rows, stride, used, threads) for the run. */
double rkb_touch_bandwidth(int64_t rows, int64_t stride, int64_t used, int threads,
                           double budget_s);

double rkb_now(void);

#endif /* ROPEKIT_BENCH_MEASURE_H_ */
