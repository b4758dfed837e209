/* `ropekit soak [--threads N] [--streams M] [--seconds S] [--seed X] [--invalid-percent P]
 * [--rss-limit MIB] [--quiet]`: the options, the ACL session and the summary line around
 * the test kit's soak engine (testkit/soak.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "commands.h"
#include "testkit/acl_session.h"
#include "testkit/reference.h"
#include "testkit/rope_reference.h"
#include "testkit/soak.h"

/* ---- options ---- */

static void soak_usage(FILE *out) {
    fprintf(out, "usage: ropekit soak [--threads N] [--streams M] [--seconds S] [--seed X]\n"
                 "                    [--invalid-percent P] [--rss-limit MIB] [--quiet]\n\n"
                 "N threads (default 2), each with its own M aclrtStreams (default 2), issue\n"
                 "random problems of both operators for S seconds (default 20): aclnn calls\n"
                 "(InplacePartialRotaryMul[Grad], RopeWithSinCosCache V1/V2) queued on every\n"
                 "stream before any is synchronized, and native one-shot and plan calls. Valid\n"
                 "calls are checked against float64 (docs/spec.md section 6) and the aclnn\n"
                 "results against the native bytes; P percent of the calls (default 20) are\n"
                 "invalid (problems CANN rejects, bad slices, altered rope arguments, positions\n"
                 "out of range) and must fail with the code docs/spec.md gives on that call or\n"
                 "that stream's sync, writing nothing and disturbing no other stream. The RSS\n"
                 "must not grow by more than MIB (default 8; 0: not checked, the default in\n"
                 "sanitizer builds) after a warm-up.\n"
                 "Exits 1 on any failure.\n");
}

/* 1: parsed, 0: a bad value (reported), -1: not an option of soak. */
static int soak_option(int argc, char **argv, int *i, struct tk_soak_opts *o) {
    static const struct {
        const char *name;
        int64_t lo, hi;
        size_t at;
    } rows[] = {
        {"--threads", 1, TK_SOAK_MAX_THREADS, offsetof(struct tk_soak_opts, threads)},
        {"--streams", 1, TK_SOAK_MAX_STREAMS, offsetof(struct tk_soak_opts, streams)},
        {"--seconds", 1, 86400, offsetof(struct tk_soak_opts, seconds)},
        {"--invalid-percent", 0, 100, offsetof(struct tk_soak_opts, invalid_percent)},
        {"--rss-limit", 0, 1 << 20, offsetof(struct tk_soak_opts, rss_limit_mib)},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
        if (tk_cli_option_is(argv[*i], rows[k].name))
            return tk_cli_int_option(argc, argv, i, rows[k].name, rows[k].lo, rows[k].hi,
                                     (int64_t *)((char *)o + rows[k].at));
    int64_t v;
    if (!tk_cli_option_is(argv[*i], "--seed"))
        return -1;
    if (!tk_cli_int_option(argc, argv, i, "--seed", 0, INT64_MAX, &v))
        return 0;
    o->seed = (uint64_t)v;
    return 1;
}

/* Returns -1 to continue, or an exit status. */
static int soak_parse(int argc, char **argv, struct tk_soak_opts *o) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    memset(o, 0, sizeof *o);
    o->seed = (uint64_t)ts.tv_nsec % 1000000u + (uint64_t)ts.tv_sec % 1000u * 1000000u;
    o->threads = o->streams = 2;
    o->seconds = 20;
    o->invalid_percent = 20;
    o->rss_limit_mib = TK_SOAK_SANITIZED ? 0 : 8;
    for (int i = 1; i < argc; i++) {
        if (tk_cli_is_help(argv[i])) {
            soak_usage(stdout);
            return TK_EXIT_OK;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            o->quiet = true;
        } else {
            const int got = soak_option(argc, argv, &i, o);
            if (got < 0) {
                fprintf(stderr, "ropekit soak: unknown option '%s'\n\n", argv[i]);
                soak_usage(stderr);
            }
            if (got <= 0)
                return TK_EXIT_USAGE;
        }
    }
    return -1;
}

static bool soak_report(const struct tk_soak_opts *o, const struct tk_soak_counts *t, int64_t rss0,
                        int64_t rss1, double secs) {
    const double mib = 1024.0 * 1024.0;
    const bool rss_ok = o->rss_limit_mib == 0 ||
                        (rss0 >= 0 && rss1 >= 0 && rss1 - rss0 <= o->rss_limit_mib * 1024 * 1024);
    printf("soak: %lld calls (%lld native, %lld aclnn; %lld valid, %lld invalid, %lld failed as "
           "expected), %lld threads x %lld streams, %.1f s, RSS %.1f -> %.1f MiB (%+.1f, %s), "
           "%lld failures, seed %llu\n",
           (long long)t->calls, (long long)t->native, (long long)t->aclnn, (long long)t->valid,
           (long long)t->invalid, (long long)t->invalid_ok, (long long)o->threads,
           (long long)o->streams, secs, (double)rss0 / mib, (double)rss1 / mib,
           (double)(rss1 - rss0) / mib,
           o->rss_limit_mib == 0 ? "not checked"
           : rss_ok              ? "flat"
                                 : "GREW",
           (long long)t->failures, (unsigned long long)o->seed);
    return rss_ok && t->failures == 0 && t->invalid_ok == t->invalid && t->calls > 0;
}

int tk_cmd_soak(int argc, char **argv) {
    struct tk_soak_opts o;
    int rc = soak_parse(argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (tk_ref_self_test() != 0 || tk_rope_ref_self_test() != 0) {
        fprintf(stderr, "ropekit soak: the float64 reference fails its own self-test\n");
        return TK_EXIT_FAIL;
    }
    struct tk_acl acl;
    char err[256];
    if (tk_acl_open(&acl, err, sizeof err) != ACL_SUCCESS) {
        fprintf(stderr, "ropekit soak: %s\n", err);
        return TK_EXIT_FAIL;
    }
    if (!o.quiet)
        tk_cli_print_banner(stdout);
    struct tk_soak_result res;
    if (tk_soak_run(&o, &res) != 0) {
        tk_acl_close(&acl);
        fprintf(stderr, "ropekit soak: out of memory\n");
        return TK_EXIT_FAIL;
    }
    bool ok = soak_report(&o, &res.total, res.rss0, res.rss1, res.secs) && res.started == o.threads;
    tk_acl_close(&acl);
    return ok ? TK_EXIT_OK : TK_EXIT_FAIL;
}
