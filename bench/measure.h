/* Timing: repeated runs with a time budget, alone or paired with the copy and touch
 * baselines in interleaved rounds. */
#ifndef ROPEKIT_BENCH_MEASURE_H_
#define ROPEKIT_BENCH_MEASURE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rkb_timing {
    double median_s;
    double min_s;
    double p90_s;
    double cpu_per_run_s; /* library CPU time per run (rkb_library_cpu_s); 0: not measured */
    int runs;
};

/* Something to time: fn(ctx) moves `bytes` bytes (read + written) per call. */
struct rkb_task {
    void (*fn)(void *ctx);
    void *ctx;
    double bytes;
};

#define RKB_MAX_TASKS 6

/* Called before every timed run, outside the timed interval (NULL: nothing): e.g. the
 * host's own parallel region between two library calls. */
struct rkb_between {
    void (*fn)(void *ctx);
    void *ctx;
};

/* Timings of tasks measured together. */
struct rkb_paired {
    struct rkb_timing t[RKB_MAX_TASKS]; /* over all samples of each task */
    double bw[RKB_MAX_TASKS];           /* bytes/s: bytes / median over all samples */
    /* Median over the rounds of (task i's bandwidth in the round) / (task j's bandwidth in
     * the same round), each from the round's median time. 0: not measured. */
    double ratio[RKB_MAX_TASKS][RKB_MAX_TASKS];
};

/* Times tasks[0..n) in `rounds` interleaved rounds: in each round, each task in turn runs
 * repeatedly for budget_s / rounds (at least min_runs times, and at most max_runs /
 * rounds times). Each task is run once to warm up before its first round. So the ratios
 * compare measurements taken at about the same time. CPU time per run is measured when
 * `between` is NULL (the host's work would be counted otherwise). False when out of
 * memory. */
bool rkb_time_paired(const struct rkb_task *tasks, int n, int rounds, double budget_s, int min_runs,
                     int max_runs, const struct rkb_between *between, struct rkb_paired *out);

/* Runs fn(ctx) once to warm up, then repeatedly until `budget_s` has passed (at least
 * min_runs, at most max_runs times). */
struct rkb_timing rkb_time(void (*fn)(void *ctx), void *ctx, double budget_s, int min_runs,
                           int max_runs);

/* The copy baseline as a task: memcpy of `bytes / 2` bytes between two buffers with
 * `threads` threads (bytes read + bytes written: about `bytes`). */
bool rkb_copy_task(double bytes, int threads, struct rkb_task *task);

/* The touch baseline as a task: reading and writing back in place the first `used`
 * bytes of each of `rows` rows `stride` bytes apart (2 * rows * used bytes), with
 * `threads` threads and the library's software prefetch when it would prefetch: what
 * the op's own geometry allows. */
bool rkb_touch_task(int64_t rows, int64_t stride, int64_t used, int threads, struct rkb_task *task);

/* The buffers of the baseline tasks are kept and reused from one task to the next of
 * the same kind (a task stays valid until the next one of its kind is made); this frees
 * them. */
void rkb_baselines_free(void);

double rkb_now(void);

#endif /* ROPEKIT_BENCH_MEASURE_H_ */
