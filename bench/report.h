/* Benchmark results: the table, the JSON document and the target summary. */
#ifndef ROPEKIT_BENCH_REPORT_H_
#define ROPEKIT_BENCH_REPORT_H_

#include <stdbool.h>
#include <stdio.h>

#include "workloads.h"

struct rkb_options {
    int max_threads;
    double budget_s;
    int rounds; /* of the op interleaved with its baselines */
    bool scalar;
    bool json;
};

struct rkb_result {
    struct rkb_config cfg;
    int threads;
    ropekit_isa isa;
    double bytes;
    double median_s, min_s;
    double copy_bw;         /* bytes/s of the copy baseline (0: not measured) */
    double touch_bw;        /* bytes/s of the touch baseline (0: not measured) */
    double copy_ratio;      /* op / copy bandwidth, median of the rounds' ratios (0: none) */
    double touch_ratio;     /* op / touch bandwidth, likewise */
    double scalar_median_s; /* 0: not measured */
    char plan[320];
};

void rkb_report_table(FILE *out, const struct rkb_options *opt, const struct rkb_result *r, int n);
void rkb_report_json(FILE *out, const struct rkb_options *opt, const struct rkb_result *r, int n);

#endif /* ROPEKIT_BENCH_REPORT_H_ */
