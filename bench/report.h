/* Benchmark results: the table, the JSON document and the targets. */
#ifndef ROPEKIT_BENCH_REPORT_H_
#define ROPEKIT_BENCH_REPORT_H_

#include <stdbool.h>
#include <stdio.h>

#include "workloads.h"

struct rkb_options {
    int max_threads;
    double budget_s;
    int rounds; /* of the faces interleaved with the baselines */
    bool scalar;
    bool json;
    bool host_openmp;       /* an OpenMP region of the host before every timed call */
    bool neighbour;         /* another process spinning on a core throughout */
    bool host_parallel_for; /* the library's parallel work on the host's OpenMP threads */
    const char *faces;      /* comma-separated face names (NULL: all) */
    double busy_others;     /* share of the CPUs other processes used while it measured
                             * (bench/busy.h; negative: unknown) */
};

/* One face of one configuration at one thread count. */
struct rkb_face_result {
    bool measured;
    double bytes;
    double median_s, min_s, p90_s;
    double vs_native;      /* native GB/s (in place or out of place alike) / this face's GB/s,
                            * median of the rounds (a native face: 1) */
    double copy_ratio;     /* this face's GB/s / copy GB/s, median of the rounds (0: none) */
    double cpu_per_call_s; /* library CPU time per call (0: not measured) */
    double after_s;        /* library CPU in the 10 ms after a call returned: median */
    double after_max_s;    /* ... and the largest of the samples */
};

struct rkb_result {
    struct rkb_config cfg; /* face: native */
    int threads;
    ropekit_isa isa;
    struct rkb_face_result face[RKB_FACE_COUNT];
    double copy_bw;         /* bytes/s of the copy baseline (0: not measured) */
    double touch_bw;        /* bytes/s of the touch baseline (0: not measured) */
    double touch_ratio;     /* native / touch bandwidth, median of the rounds (0: none) */
    double scalar_median_s; /* native face on the scalar path (0: not measured) */
    char plan[320];
};

void rkb_report_table(FILE *out, const struct rkb_options *opt, const struct rkb_result *r, int n);
void rkb_report_json(FILE *out, const struct rkb_options *opt, const struct rkb_result *r, int n);

#endif /* ROPEKIT_BENCH_REPORT_H_ */
