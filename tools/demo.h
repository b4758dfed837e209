/* `ropekit demo`: a table of operator runs, each checked against float64 and timed.
 * Each operator family contributes one suite (a file demo_<op>.c and a row in
 * TK_DEMO_SUITES) that fills rows and hands them to demo_table_add. */
#ifndef ROPEKIT_TOOLS_DEMO_H_
#define ROPEKIT_TOOLS_DEMO_H_

#include <stdbool.h>

#include "testkit/acl_session.h"

struct demo_row {
    const char *face; /* "aclnn" or "native" */
    const char *op;
    const char *mode;
    const char *label; /* what the row models, printed after the result; may be NULL */
    char shape[24];
    char dtypes[16]; /* "<x>/<cos,sin>" */
    double max_abs_err;
    double max_ratio; /* max |err| / (rtol*mag + atol): <= 1 is within SPEC §6 */
    double usec;      /* median time per call */
    bool pass;
    char note[320]; /* why it failed */
};

struct demo_table {
    int rows, failed;
};

/* Prints the row (and its note when it failed) and counts it. */
void demo_table_add(struct demo_table *table, const struct demo_row *row);

struct demo_env {
    const struct tk_acl *acl;
};

/* Median wall time of one call of fn(ctx) in microseconds, over at least a few calls
 * and about 20 ms. A call returning non-zero stops the timing; the result is then < 0. */
double demo_time_us(int (*fn)(void *ctx), void *ctx);

#define TK_DEMO_SUITES(X) X(partial_rotary) X(rope) X(rotary_ops)

#define TK_DEMO_SUITE_DECLARE_(name)                                                               \
    void demo_suite_##name(const struct demo_env *env, struct demo_table *table);
TK_DEMO_SUITES(TK_DEMO_SUITE_DECLARE_)
#undef TK_DEMO_SUITE_DECLARE_

#endif /* ROPEKIT_TOOLS_DEMO_H_ */
