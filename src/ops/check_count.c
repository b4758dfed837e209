/* Counts of validation checks (see check_count.h). */
#include "ops/check_count.h"

#include <stdatomic.h>

#if defined(ROPEKIT_COUNT_CHECKS)
static atomic_uint rk_counts[RK_OP_COUNT][RK_CHECK_COUNT_RULES];

void rk_check_count(enum rk_op_id op, int rule) {
    atomic_fetch_add_explicit(&rk_counts[op][rule], 1u, memory_order_relaxed);
}

bool rk_check_counting(void) {
    return true;
}

unsigned rk_check_count_of(enum rk_op_id op, int rule) {
    return atomic_load_explicit(&rk_counts[op][rule], memory_order_relaxed);
}

void rk_check_count_reset(void) {
    for (int op = 0; op < RK_OP_COUNT; op++)
        for (int r = 0; r < RK_CHECK_COUNT_RULES; r++)
            atomic_store_explicit(&rk_counts[op][r], 0u, memory_order_relaxed);
}
#else
bool rk_check_counting(void) {
    return false;
}

unsigned rk_check_count_of(enum rk_op_id op, int rule) {
    (void)op;
    (void)rule;
    return 0;
}

void rk_check_count_reset(void) {}
#endif
