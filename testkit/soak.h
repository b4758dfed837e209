/* The soak engine behind `ropekit soak` (and ropekit_soak_check): N threads, each with its
 * own M aclrtStreams, issue the random problems of the verify suites for a fixed time, and
 * check every valid and invalid call (see soak.c). The command parses the options, opens
 * the ACL session and prints the summary. */
#ifndef ROPEKIT_TESTKIT_SOAK_H_
#define ROPEKIT_TESTKIT_SOAK_H_

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TK_SOAK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TK_SOAK_SANITIZED 1
#endif
#endif
#ifndef TK_SOAK_SANITIZED
#define TK_SOAK_SANITIZED 0 /* 1 in ASan/TSan builds, whose RSS is not meaningful */
#endif

enum { TK_SOAK_MAX_THREADS = 64, TK_SOAK_MAX_STREAMS = 16 };

struct tk_soak_opts {
    int64_t threads, streams, seconds, invalid_percent, rss_limit_mib;
    uint64_t seed;
    bool quiet; /* no FAIL lines */
};

struct tk_soak_counts {
    int64_t calls, native, aclnn, valid, invalid, invalid_ok, rounds, failures;
};

struct tk_soak_result {
    struct tk_soak_counts total; /* summed over the threads */
    int64_t rss0, rss1;          /* bytes after the warm-up and at the end; -1 unknown */
    double secs;                 /* wall time of the run */
    int started;                 /* threads started */
};

/* Runs the soak with an ACL session open (aclInit and a device set): starts the threads,
 * waits for the deadline, joins them and sums their counts. Prints the first failures
 * (unless quiet) as "FAIL thread T stream S (...): ...". Returns 0, or -1 when out of
 * memory (nothing started). */
int tk_soak_run(const struct tk_soak_opts *o, struct tk_soak_result *res);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_SOAK_H_ */
