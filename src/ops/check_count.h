/* How often each validation rule was checked, by any thread. Compiled in only
 * with ROPEKIT_COUNT_CHECKS (a test build), where a test proves that a call checks each
 * rule once: phase 1 or plan creation everything, launch or execute only the data it
 * binds, the worker only what its data holds (positions). */
#ifndef ROPEKIT_OPS_CHECK_COUNT_H_
#define ROPEKIT_OPS_CHECK_COUNT_H_

#include <stdbool.h>

#include "ops/op.h"

enum { RK_CHECK_COUNT_RULES = RK_OP_MAX_RULES };

#if defined(ROPEKIT_COUNT_CHECKS)
void rk_check_count(enum rk_op_id op, int rule);
#define RK_COUNT_CHECK(op, rule) rk_check_count((op), (int)(rule))
#else
#define RK_COUNT_CHECK(op, rule) ((void)0)
#endif

/* True when this build counts. */
bool rk_check_counting(void);
/* The count of `rule` of `op`, and a reset of all counts. */
unsigned rk_check_count_of(enum rk_op_id op, int rule);
void rk_check_count_reset(void);

#endif /* ROPEKIT_OPS_CHECK_COUNT_H_ */
