/* aclOpExecutor: an operator's plan made in phase 1 plus the bound data addresses.
 * Phase 2 validates the executor, checks addresses rebound since phase 1, and runs the
 * plan on the calling thread when the stream is idle, or queues it behind the stream's
 * work. The executor knows no operator: each CANN entry point is a row of data (struct
 * rk_aclnn_entry) naming the operator's descriptor, its policy and its codes. */
#ifndef ROPEKIT_FACES_ACLNN_EXECUTOR_H_
#define ROPEKIT_FACES_ACLNN_EXECUTOR_H_

#include <stdbool.h>
#include <stddef.h>

#include "acl/acl_base.h"
#include "aclnn/acl_meta.h"
#include "ops/op.h"

#define RK_EXEC_MAX_ADDR RK_OP_MAX_TENSORS

/* One CANN entry point (a GetWorkspaceSize and its phase 2). */
struct rk_aclnn_entry {
    const char *name;        /* phase-2 API name, for messages */
    const char *phase1_name; /* its GetWorkspaceSize */
    const struct rk_op *op;
    const void *policy; /* the operator's policy struct: CANN's restrictions and order */
    /* The operator's rule -> the aclnnStatus phase 1 returns / the aclError the stream
     * reports when the rule fails as the work runs (op->rule_count entries each). */
    const aclnnStatus *codes;
    const aclError *faults;
    /* IR input/output index -> the operator's tensor slot (-1: none). */
    int input_slot[RK_EXEC_MAX_ADDR];
    int output_slot[RK_EXEC_MAX_ADDR];
};

/* The code of a failed rule (ACLNN_ERR_INNER for none). */
aclnnStatus rk_aclnn_code(const struct rk_aclnn_entry *entry, int rule);

struct aclOpExecutor {
    const struct rk_aclnn_entry *entry;
    bool repeatable;
    bool checked; /* the bound addresses passed the op's checks (phase 1 checks them) */
    struct rk_op_data addr;
    /* Bytes from a storage address to the view's first element (offset * item size):
     * aclSet{Input,Output}TensorAddr rebind storage, so the view offset still applies. */
    int64_t view_offset[RK_EXEC_MAX_ADDR];
    max_align_t plan[]; /* entry->op->plan_size bytes */
};

/* Phase 1 for every entry point, once the face has its problem: makes the plan into a new
 * executor, binds `tensors` (the problem's, slot by slot; NULL for an unused slot) and
 * writes both outputs. On failure returns the rule's code and writes neither. */
aclnnStatus rk_executor_prepare(const struct rk_aclnn_entry *entry, const void *problem,
                                const aclTensor *const tensors[RK_EXEC_MAX_ADDR],
                                uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2 for every operator: executor NULL -> 161001; unknown, consumed or of another
 * entry point -> 161002; workspace NULL with a non-zero size -> 161001; before aclInit or
 * after aclFinalize -> 361001; otherwise checks rebound data and runs or queues the
 * work. A non-repeatable executor is consumed, also on failure. */
aclnnStatus rk_executor_launch(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                               aclrtStream stream, const struct rk_aclnn_entry *entry);

/* True when `executor` is a live executor made by `entry`'s phase 1 (for a phase 2 that
 * launches the executors of several entries). */
bool rk_executor_made_by(const aclOpExecutor *executor, const struct rk_aclnn_entry *entry);

/* Defines phase 2 of an entry point: `name` launches executors of `entry`. */
#define RK_ACLNN_PHASE2(name, entry)                                                               \
    aclnnStatus name(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,             \
                     aclrtStream stream) {                                                         \
        return rk_executor_launch(workspace, workspaceSize, executor, stream, entry);              \
    }

#endif /* ROPEKIT_FACES_ACLNN_EXECUTOR_H_ */
