/* `ropekit verify`: randomized self-check. Each operator family contributes a suite (a
 * file verify_<op>.c and a row in TK_VERIFY_SUITES with its share of the cases); a
 * suite draws one random problem from the stream it is given, runs it through every
 * face that accepts it and reports what went wrong. */
#ifndef ROPEKIT_TOOLS_VERIFY_H_
#define ROPEKIT_TOOLS_VERIFY_H_

#include <stdbool.h>

#include "acl_session.h"
#include "rng.h"

struct verify_env {
    const struct tk_acl *acl;
    bool cross_isa;     /* also run with the ISA capped to scalar and require equal bytes */
    bool cross_threads; /* also run on one thread and require equal bytes */
};

struct verify_result {
    bool failed;
    bool ran_aclnn;      /* the aclnn face accepted and ran the problem */
    bool rejected_aclnn; /* the aclnn face had to reject it, and was checked for that */
    char what[400];      /* the problem */
    char why[480];       /* the first thing that went wrong */
};

/* X(name, weight): weight is the suite's relative share of the cases. */
#define TK_VERIFY_SUITES(X) X(partial_rotary, 1) X(rope, 1)

#define TK_VERIFY_SUITE_DECLARE_(name, weight)                                                     \
    void verify_case_##name(const struct verify_env *env, struct tk_rng *rng,                      \
                            struct verify_result *res);
TK_VERIFY_SUITES(TK_VERIFY_SUITE_DECLARE_)
#undef TK_VERIFY_SUITE_DECLARE_

#endif /* ROPEKIT_TOOLS_VERIFY_H_ */
