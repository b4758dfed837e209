/* aclOpExecutor: the plan made in phase 1 plus the bound data addresses. Phase 2
 * validates the executor, checks the addresses and queues the plan on a stream. */
#ifndef ROPEKIT_ACLNN_EXECUTOR_H_
#define ROPEKIT_ACLNN_EXECUTOR_H_

#include "aclnn/acl_meta.h"
#include "ops/partial_rotary.h"

enum rk_exec_op {
    RK_EXEC_PARTIAL_ROTARY_MUL = 1,
    RK_EXEC_PARTIAL_ROTARY_MUL_GRAD = 2,
};

#define RK_EXEC_MAX_ADDR 6

/* Maps an operator's IR input/output indices onto address slots (-1: none). */
struct rk_exec_io {
    int input_slot[RK_EXEC_MAX_ADDR];
    int output_slot[RK_EXEC_MAX_ADDR];
};

struct aclOpExecutor {
    enum rk_exec_op op;
    bool repeatable;
    const struct rk_exec_io *io;
    aclnnStatus (*code_of)(enum rk_pr_rule rule); /* the op's CANN code table */
    void *addr[RK_EXEC_MAX_ADDR];
    union {
        struct rk_pr_plan pr;
    } plan;
};

/* A new registered executor (NULL when out of memory, message set). */
aclOpExecutor *rk_executor_new(enum rk_exec_op op, const struct rk_exec_io *io,
                               aclnnStatus (*code_of)(enum rk_pr_rule));

/* Unregisters and frees an executor that phase 1 could not hand out. */
void rk_executor_discard(aclOpExecutor *e);

/* Phase 2 for every operator: executor NULL -> 161001; unknown, consumed or of another
 * operator -> 161002; workspace too small -> 161002; otherwise checks the bound data
 * and queues the work. A non-repeatable executor is consumed, also on failure. */
aclnnStatus rk_executor_launch(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                               aclrtStream stream, enum rk_exec_op op, const char *api);

#endif /* ROPEKIT_ACLNN_EXECUTOR_H_ */
