/* `ropekit verify [--seed N] [--count N] [--case I] [--quiet]`: randomized self-check.
 * Case i draws from its own stream derived from (seed, i), so a failing case can be
 * replayed alone with --case. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "commands.h"
#include "testkit/reference.h"
#include "testkit/rope_reference.h"
#include "testkit/timer.h"
#include "testkit/verify.h"

#define VERIFY_SUITE_COUNT_(name, weight) +1
enum { VERIFY_MAX_SHOWN = 5, VERIFY_NSUITES = 0 TK_VERIFY_SUITES(VERIFY_SUITE_COUNT_) };
#undef VERIFY_SUITE_COUNT_

struct verify_opts {
    uint64_t seed;
    int64_t count;
    int64_t only_case; /* -1: all */
    bool quiet;
};

static void verify_usage(FILE *out) {
    fprintf(out, "usage: ropekit verify [--seed N] [--count N] [--case I] [--quiet]\n\n"
                 "Runs N random problems (default 200; InplacePartialRotaryMul[Grad],\n"
                 "RopeWithSinCosCache and the whole-row operators - RotaryPositionEmbedding,\n"
                 "its gradient's dx, InterleaveRope, ApplyRotaryPosEmb - in equal shares)\n"
                 "through the native API, checks each\n"
                 "against a float64 reference within docs/spec.md section 6 and that nothing\n"
                 "outside the rotated elements changed, repeats it with the scalar ISA and on\n"
                 "one thread (results must be bit-identical), and runs the aclnn face:\n"
                 "problems CANN's contract accepts must give the native result's bytes, the\n"
                 "others its status code with the memory untouched. Rope problems with a\n"
                 "position out of range must fail natively and with 507015 from\n"
                 "aclrtSynchronizeStream, writing nothing. The whole-row operators' problems\n"
                 "of CANN's shapes run through their aclnn face too: accepted ones must give\n"
                 "the native bytes, refused ones write nothing.\n\n"
                 "  --seed N   random seed (default: from the clock; printed in the summary)\n"
                 "  --count N  number of cases\n"
                 "  --case I   replay only case I of the seed's sequence\n"
                 "  --quiet    print only the summary line\n"
                 "Exits 1 when any case fails.\n");
}

/* Returns -1 to continue, or an exit status. */
static int verify_parse(int argc, char **argv, struct verify_opts *o) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    o->seed = (uint64_t)ts.tv_nsec % 1000000u + (uint64_t)ts.tv_sec % 1000u * 1000000u;
    o->count = 200;
    o->only_case = -1;
    o->quiet = false;
    for (int i = 1; i < argc; i++) {
        int64_t v;
        if (tk_cli_is_help(argv[i])) {
            verify_usage(stdout);
            return TK_EXIT_OK;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            o->quiet = true;
        } else if (tk_cli_option_is(argv[i], "--seed")) {
            if (!tk_cli_int_option(argc, argv, &i, "--seed", 0, INT64_MAX, &v))
                return TK_EXIT_USAGE;
            o->seed = (uint64_t)v;
        } else if (tk_cli_option_is(argv[i], "--count")) {
            if (!tk_cli_int_option(argc, argv, &i, "--count", 0, 100000000, &o->count))
                return TK_EXIT_USAGE;
        } else if (tk_cli_option_is(argv[i], "--case")) {
            if (!tk_cli_int_option(argc, argv, &i, "--case", 0, INT64_MAX, &o->only_case))
                return TK_EXIT_USAGE;
        } else {
            fprintf(stderr, "ropekit verify: unknown option '%s'\n\n", argv[i]);
            verify_usage(stderr);
            return TK_EXIT_USAGE;
        }
    }
    return -1;
}

static void verify_show_failure(const struct verify_opts *o, int64_t index, const char *suite,
                                const struct tk_verify_result *res) {
    printf(
        "FAIL case %lld (%s): %s\n     %s\n     replay: ropekit verify --seed %llu --case %lld\n",
        (long long)index, suite, res->what, res->why, (unsigned long long)o->seed,
        (long long)index);
}

int tk_cmd_verify(int argc, char **argv) {
    struct verify_opts o;
    int rc = verify_parse(argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (tk_ref_self_test() != 0 || tk_rope_ref_self_test() != 0) {
        fprintf(stderr, "ropekit verify: the float64 reference fails its own self-test\n");
        return TK_EXIT_FAIL;
    }
    struct tk_acl acl;
    char err[256];
    if (tk_acl_open(&acl, err, sizeof err) != ACL_SUCCESS) {
        fprintf(stderr, "ropekit verify: %s\n", err);
        return TK_EXIT_FAIL;
    }
    struct tk_verify_env env = {&acl, ropekit_get_active_isa() != ROPEKIT_ISA_SCALAR,
                                ropekit_get_num_threads() > 1};
    if (!o.quiet)
        tk_cli_print_banner(stdout);

    int64_t first = o.only_case >= 0 ? o.only_case : 0;
    int64_t last = o.only_case >= 0 ? o.only_case + 1 : o.count;
    int64_t cases = 0, failures = 0, with_aclnn = 0, rejected = 0;
    int64_t per_suite[VERIFY_NSUITES] = {0};
    uint64_t t0 = tk_now_ns();
    for (int64_t i = first; i < last; i++) {
        struct tk_verify_result res;
        const size_t k = tk_verify_run_case(&env, o.seed, i, &res);
        const struct tk_verify_suite *suite = &tk_verify_suites[k];
        cases++;
        per_suite[k]++;
        if (res.ran_aclnn)
            with_aclnn++;
        if (res.rejected_aclnn)
            rejected++;
        if (res.failed && failures++ < VERIFY_MAX_SHOWN && !o.quiet)
            verify_show_failure(&o, i, suite->name, &res);
        else if (!res.failed && o.only_case >= 0 && !o.quiet)
            printf("case %lld (%s): %s\n", (long long)i, suite->name, res.what);
    }
    double secs = (double)(tk_now_ns() - t0) / 1e9;
    tk_acl_close(&acl);
    printf("verify: %lld cases (", (long long)cases);
    for (size_t k = 0; k < tk_verify_nsuites; k++)
        printf("%s%s %lld", k ? ", " : "", tk_verify_suites[k].name, (long long)per_suite[k]);
    printf("; aclnn: %lld ran, %lld rejected), %lld failures, seed %llu, %.2f s\n",
           (long long)with_aclnn, (long long)rejected, (long long)failures,
           (unsigned long long)o.seed, secs);
    return failures ? TK_EXIT_FAIL : TK_EXIT_OK;
}
