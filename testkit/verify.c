/* The verify suites' table and one case of a verify run (verify.h). */
#include "testkit/verify.h"

#include <string.h>

#define TK_VERIFY_SUITE_ROW_(name, weight) {#name, weight, tk_verify_case_##name},
const struct tk_verify_suite tk_verify_suites[] = {TK_VERIFY_SUITES(TK_VERIFY_SUITE_ROW_)};
#undef TK_VERIFY_SUITE_ROW_
const size_t tk_verify_nsuites = sizeof tk_verify_suites / sizeof tk_verify_suites[0];

static size_t verify_pick_suite(struct tk_rng *rng) {
    unsigned total = 0;
    for (size_t i = 0; i < tk_verify_nsuites; i++)
        total += tk_verify_suites[i].weight;
    uint64_t r = tk_rng_below(rng, total);
    for (size_t i = 0; i < tk_verify_nsuites; i++) {
        if (r < tk_verify_suites[i].weight)
            return i;
        r -= tk_verify_suites[i].weight;
    }
    return 0;
}

size_t tk_verify_run_case(const struct tk_verify_env *env, uint64_t seed, int64_t index,
                          struct tk_verify_result *res) {
    struct tk_rng rng = tk_rng_make(tk_rng_derive(seed, (uint64_t)index));
    const size_t suite = verify_pick_suite(&rng);
    memset(res, 0, sizeof *res);
    tk_verify_suites[suite].run(env, &rng, res);
    return suite;
}
