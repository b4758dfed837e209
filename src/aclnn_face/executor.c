#include "aclnn_face/executor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "runtime/acl_objects.h"
#include "runtime/acl_state.h"
#include "runtime/registry.h"
#include "runtime/stream.h"

static struct rk_registry rk_executors = RK_REGISTRY_INIT;

aclOpExecutor *rk_executor_new(const struct rk_exec_ops *ops) {
    /* Not zeroed: phase 1 writes the plan, the flags and every address slot. */
    aclOpExecutor *e = malloc(sizeof *e);
    if (e) {
        e->ops = ops;
        e->repeatable = false;
        e->checked = true;
        for (int i = 0; i < RK_EXEC_MAX_ADDR; i++) {
            e->addr[i] = NULL;
            e->view_offset[i] = 0;
        }
    }
    if (!e || !rk_registry_add(&rk_executors, e, (uint64_t)(uintptr_t)ops)) {
        free(e);
        rk_error_set(ROPEKIT_NO_MEMORY, "aclOpExecutor: out of memory");
        return NULL;
    }
    return e;
}

void rk_executor_bind(aclOpExecutor *e, int slot, const aclTensor *tensor) {
    e->view_offset[slot] = tensor->offset * (int64_t)rk_acl_dtype_size(tensor->dtype);
    e->addr[slot] = tensor->data ? (char *)tensor->data + e->view_offset[slot] : NULL;
}

static void rk_executor_discard(aclOpExecutor *e) {
    if (e && rk_registry_take(&rk_executors, e, NULL))
        free(e);
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor) {
    if (!executor) {
        rk_error_set(ROPEKIT_NULL_POINTER, "aclSetAclOpExecutorRepeatable: executor = NULL");
        return ACLNN_ERR_INNER_NULLPTR;
    }
    if (!rk_registry_find(&rk_executors, executor, NULL)) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                     "aclSetAclOpExecutorRepeatable: executor = %p: unknown or already consumed",
                     (void *)executor);
        return ACLNN_ERR_PARAM_INVALID;
    }
    executor->repeatable = true;
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor) {
    if (!executor) {
        rk_error_set(ROPEKIT_NULL_POINTER, "aclDestroyAclOpExecutor: executor = NULL");
        return ACLNN_ERR_INNER_NULLPTR;
    }
    if (!rk_registry_take(&rk_executors, executor, NULL)) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                     "aclDestroyAclOpExecutor: executor = %p: unknown or already destroyed",
                     (void *)executor);
        return ACLNN_ERR_PARAM_INVALID;
    }
    free(executor);
    return ACLNN_SUCCESS;
}

static aclnnStatus rk_set_addr(aclOpExecutor *executor, size_t index, void *addr, bool output,
                               const char *api) {
    if (!executor) { /* CANN documents 561103 for a NULL executor here */
        rk_error_set(ROPEKIT_NULL_POINTER, "%s: executor = NULL", api);
        return ACLNN_ERR_INNER_NULLPTR;
    }
    if (!rk_registry_find(&rk_executors, executor, NULL)) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: executor = %p: unknown or already consumed",
                     api, (void *)executor);
        return ACLNN_ERR_PARAM_INVALID;
    }
    const int *slots = output ? executor->ops->output_slot : executor->ops->input_slot;
    int slot = index < RK_EXEC_MAX_ADDR ? slots[index] : -1;
    if (slot < 0) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: index = %zu: the operator has no such %s", api,
                     index, output ? "output" : "input");
        return ACLNN_ERR_PARAM_INVALID;
    }
    executor->addr[slot] = addr ? (char *)addr + executor->view_offset[slot] : NULL;
    executor->checked = false;
    return ACLNN_SUCCESS;
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor *executor, size_t index, aclTensor *tensor,
                                  void *addr) {
    (void)tensor; /* the executor keeps its own copy of the layout */
    return rk_set_addr(executor, index, addr, false, "aclSetInputTensorAddr");
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor *executor, size_t index, aclTensor *tensor,
                                   void *addr) {
    (void)tensor;
    return rk_set_addr(executor, index, addr, true, "aclSetOutputTensorAddr");
}

/* ---- running ---- */

static void rk_exec_run(const aclOpExecutor *e, struct rk_task_result *result) {
    int rule = 0;
    result->code = ACL_SUCCESS;
    result->message[0] = '\0';
    ropekit_status st = e->ops->run(e, e->ops->name, &rule);
    if (st != ROPEKIT_OK) {
        result->code = e->ops->fault_of(st, rule);
        snprintf(result->message, sizeof result->message, "%s", rk_error_text());
    }
}

/* A queued executor: the consumed one itself, or a copy of a repeatable one (whose
 * addresses may be rebound before the queue reaches it). */
static void rk_exec_task_run(void *arg, struct rk_task_result *result) {
    rk_exec_run(arg, result);
}

aclnnStatus rk_executor_launch(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                               aclrtStream stream, const struct rk_exec_ops *ops) {
    uint64_t tag = 0;
    const char *api = ops->name;
    if (!executor) {
        rk_error_set(ROPEKIT_NULL_POINTER, "%s: executor = NULL", api);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    if (!rk_registry_find(&rk_executors, executor, &tag)) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                     "%s: executor = %p: unknown or already consumed (a non-repeatable executor "
                     "runs once; see aclSetAclOpExecutorRepeatable)",
                     api, (void *)executor);
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (tag != (uint64_t)(uintptr_t)ops) { /* not consumed: it belongs to another operator */
        rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                     "%s: executor = %p: was made by %s's GetWorkspaceSize", api, (void *)executor,
                     executor->ops->name);
        return ACLNN_ERR_PARAM_INVALID;
    }
    aclnnStatus code = ACLNN_SUCCESS;
    int rule = 0;
    /* The workspace is never touched (phase 1 reports 0 bytes), so only a contradictory
     * pair is refused; any size and alignment of a real buffer is accepted. */
    if (!workspace && workspaceSize > 0) {
        rk_error_set(ROPEKIT_NULL_POINTER,
                     "%s: workspace = NULL: must be a buffer when workspaceSize = %llu", api,
                     (unsigned long long)workspaceSize);
        code = ACLNN_ERR_PARAM_NULLPTR;
    } else if (!rk_acl_require_init(api)) {
        code = ACLNN_ERR_RUNTIME_ERROR;
    }
    if (code == ACLNN_SUCCESS && !executor->checked) {
        if (ops->check(executor, api, &rule) != ROPEKIT_OK)
            code = ops->code_of(rule);
        else if (executor->repeatable)
            executor->checked = true;
    }
    struct rk_stream *s = code == ACLNN_SUCCESS ? rk_stream_resolve(stream, api) : NULL;
    if (code == ACLNN_SUCCESS && !s)
        code = ACLNN_ERR_PARAM_INVALID; /* the message names the stream */
    if (code == ACLNN_SUCCESS && rk_stream_begin_inline(s)) {
        struct rk_task_result result;
        rk_exec_run(executor, &result);
        rk_stream_end_inline(s, &result);
        if (!executor->repeatable)
            rk_executor_discard(executor);
        return ACLNN_SUCCESS;
    }
    aclOpExecutor *task = NULL;
    if (code == ACLNN_SUCCESS && executor->repeatable) {
        task = malloc(sizeof *task);
        if (task)
            *task = *executor;
        else {
            rk_error_set(ROPEKIT_NO_MEMORY, "%s: out of memory", api);
            code = ACLNN_ERR_INNER;
        }
    } else if (code == ACLNN_SUCCESS && rk_registry_take(&rk_executors, executor, NULL)) {
        task = executor; /* consumed: the queue owns it from here on */
    }
    if (!executor->repeatable && task != executor)
        rk_executor_discard(executor);
    /* enqueue fails only out of memory (message set); it releases the task */
    if (task && rk_stream_enqueue(s, rk_exec_task_run, free, task) != ACL_SUCCESS)
        code = ACLNN_ERR_INNER;
    return code;
}
