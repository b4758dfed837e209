/* aclOpExecutor: the plan made in phase 1 plus the bound data addresses. Phase 2
 * validates the executor, checks addresses rebound since phase 1, and runs the plan on
 * the calling thread when the stream is idle, or queues it behind the stream's work.
 * The executor is operator-agnostic: each operator supplies a small table of functions. */
#ifndef ROPEKIT_ACLNN_FACE_EXECUTOR_H_
#define ROPEKIT_ACLNN_FACE_EXECUTOR_H_

#include "acl/acl_base.h"
#include "aclnn/acl_meta.h"
#include "ops/partial_rotary.h"
#include "ops/rope.h"

#define RK_EXEC_MAX_ADDR 6

struct rk_exec_ops {
    const char *name;        /* phase-2 API name, for messages */
    const char *phase1_name; /* its GetWorkspaceSize */
    /* IR input/output index -> address slot (-1: none). */
    int input_slot[RK_EXEC_MAX_ADDR];
    int output_slot[RK_EXEC_MAX_ADDR];
    /* Synchronous checks of addresses rebound after phase 1; *rule is op-specific. */
    ropekit_status (*check)(const aclOpExecutor *e, const char *api, int *rule);
    /* The work, on checked addresses. */
    ropekit_status (*run)(const aclOpExecutor *e, const char *api, int *rule);
    /* The operator's CANN code for a failed rule. */
    aclnnStatus (*code_of)(int rule);
    /* The runtime error a failed run reports at aclrtSynchronizeStream. */
    aclError (*fault_of)(ropekit_status status, int rule);
};

struct aclOpExecutor {
    const struct rk_exec_ops *ops;
    bool repeatable;
    bool checked; /* the bound addresses passed the op's checks (phase 1 checks them) */
    void *addr[RK_EXEC_MAX_ADDR];
    /* Bytes from a storage address to the view's first element (offset * item size):
     * aclSet{Input,Output}TensorAddr rebind storage, so the view offset still applies. */
    int64_t view_offset[RK_EXEC_MAX_ADDR];
    union {
        struct rk_pr_plan pr;
        struct rk_rope_plan rope;
    } plan;
};

/* A new registered executor (NULL when out of memory, message set). */
aclOpExecutor *rk_executor_new(const struct rk_exec_ops *ops);

/* Binds slot `slot` to a tensor's data as phase 1 saw it (storage + view offset). */
void rk_executor_bind(aclOpExecutor *e, int slot, const aclTensor *tensor);

/* Phase 2 for every operator: executor NULL -> 161001; unknown, consumed or of another
 * operator -> 161002; workspace NULL with a non-zero size -> 161001; before aclInit or
 * after aclFinalize -> 361001; otherwise checks rebound data and runs or queues the
 * work. A non-repeatable executor is consumed, also on failure. */
aclnnStatus rk_executor_launch(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                               aclrtStream stream, const struct rk_exec_ops *ops);

#endif /* ROPEKIT_ACLNN_FACE_EXECUTOR_H_ */
