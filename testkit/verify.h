/* The verify suites behind `ropekit verify` (randomized self-check). Each operator family
 * contributes a suite (a file verify_<op>.c and a row in TK_VERIFY_SUITES with its share of the
 * cases); a suite draws one random problem from the stream it is given, runs it through every face
 * that accepts it and reports what went wrong. */
#ifndef ROPEKIT_TESTKIT_VERIFY_H_
#define ROPEKIT_TESTKIT_VERIFY_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "testkit/acl_session.h"
#include "testkit/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tk_verify_env {
    const struct tk_acl *acl;
    bool cross_isa;     /* also run with the ISA capped to scalar and require equal bytes */
    bool cross_threads; /* also run on one thread and require equal bytes */
};

struct tk_verify_result {
    bool failed;
    bool ran_aclnn;      /* the aclnn face accepted and ran the problem */
    bool rejected_aclnn; /* the aclnn face had to reject it, and was checked for that */
    char what[400];      /* the problem */
    char why[480];       /* the first thing that went wrong */
};

/* X(name, weight): weight is the suite's relative share of the cases. */
#define TK_VERIFY_SUITES(X) X(partial_rotary, 1) X(rope, 1) X(rotary_ops, 1)

#define TK_VERIFY_SUITE_DECLARE_(name, weight)                                                     \
    void tk_verify_case_##name(const struct tk_verify_env *env, struct tk_rng *rng,                \
                               struct tk_verify_result *res);
TK_VERIFY_SUITES(TK_VERIFY_SUITE_DECLARE_)
#undef TK_VERIFY_SUITE_DECLARE_

/* The suites in TK_VERIFY_SUITES order. */
struct tk_verify_suite {
    const char *name;
    unsigned weight;
    void (*run)(const struct tk_verify_env *env, struct tk_rng *rng, struct tk_verify_result *res);
};
extern const struct tk_verify_suite tk_verify_suites[];
extern const size_t tk_verify_nsuites;

/* Case `index` of a run seeded with `seed`: draws its suite (by weight) and its problem
 * from the case's own stream (tk_rng_derive(seed, index)), so that one case replays
 * alone, and runs it into *res (cleared first). Returns the suite's index. */
size_t tk_verify_run_case(const struct tk_verify_env *env, uint64_t seed, int64_t index,
                          struct tk_verify_result *res);

/* The suites' random problems, for other commands (soak). */
struct tk_pr_case;
struct tk_rope_case;
struct tk_rc_acl_call;
int tk_verify_gen_partial_rotary(struct tk_rng *rng, struct tk_pr_case *pc);
/* `layout` receives a few words on the views ("fused in-place"). Some problems have
 * overlapping outputs (tk_rc_outputs_overlap), which the native face must reject. */
int tk_verify_gen_rope(struct tk_rng *rng, struct tk_rope_case *rc, char *layout, size_t len);
/* Alters one argument of an aclnn call in a way CANN's contract may reject; false when
 * the alteration drawn does not apply to the problem. */
bool tk_verify_rope_perturb(struct tk_rc_acl_call *call, const struct tk_rope_case *rc,
                            struct tk_rng *rng);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_VERIFY_H_ */
