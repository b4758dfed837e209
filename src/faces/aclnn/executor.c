#include "faces/aclnn/executor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "runtime/acl_objects.h"
#include "runtime/acl_state.h"
#include "runtime/registry.h"
#include "runtime/stream.h"

static struct rk_registry rk_executors = RK_REGISTRY_INIT;

aclnnStatus rk_aclnn_code(const struct rk_aclnn_entry *entry, int rule) {
    return rule > 0 && rule < entry->op->rule_count ? entry->codes[rule] : ACLNN_ERR_INNER;
}

static size_t rk_executor_size(const struct rk_aclnn_entry *entry) {
    return offsetof(aclOpExecutor, plan) + entry->op->plan_size;
}

/* Frees an executor and what its plan owns. */
static void rk_executor_free(void *executor) {
    aclOpExecutor *e = executor;
    e->entry->op->release(e->plan);
    free(e);
}

aclnnStatus rk_executor_prepare(const struct rk_aclnn_entry *entry, const void *problem,
                                const aclTensor *const tensors[RK_EXEC_MAX_ADDR],
                                uint64_t *workspaceSize, aclOpExecutor **executor) {
    /* The plan is made in place; the rest is written below. */
    aclOpExecutor *e = malloc(rk_executor_size(entry));
    if (!e) {
        rk_error_set(ROPEKIT_NO_MEMORY, "%s: aclOpExecutor: out of memory", entry->phase1_name);
        return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    }
    int rule = 0;
    if (entry->op->make(problem, entry->policy, e->plan, &rule) != ROPEKIT_OK) {
        free(e);
        return rk_aclnn_code(entry, rule);
    }
    e->entry = entry;
    e->repeatable = false;
    e->checked = true;
    for (int i = 0; i < RK_EXEC_MAX_ADDR; i++) {
        const aclTensor *t = tensors[i];
        e->view_offset[i] = t ? t->offset * (int64_t)rk_acl_dtype_size(t->dtype) : 0;
        e->addr.ptr[i] = t && t->data ? (char *)t->data + e->view_offset[i] : NULL;
    }
    if (!rk_registry_add(&rk_executors, e, (uint64_t)(uintptr_t)entry)) {
        rk_executor_free(e);
        rk_error_set(ROPEKIT_NO_MEMORY, "%s: aclOpExecutor: out of memory", entry->phase1_name);
        return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    }
    *workspaceSize = 0;
    *executor = e;
    return ACLNN_SUCCESS;
}

static void rk_executor_discard(aclOpExecutor *e) {
    if (e && rk_registry_take(&rk_executors, e, NULL))
        rk_executor_free(e);
}

/* What the calls on an executor check first (CANN documents 561103 for a NULL one): it is
 * registered; `take` removes it from the registry. */
static aclnnStatus rk_executor_known(aclOpExecutor *executor, const char *api, bool take) {
    if (!executor) {
        rk_error_set(ROPEKIT_NULL_POINTER, "%s: executor = NULL", api);
        return ACLNN_ERR_INNER_NULLPTR;
    }
    if (take ? !rk_registry_take(&rk_executors, executor, NULL)
             : !rk_registry_find(&rk_executors, executor, NULL)) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: executor = %p: unknown or already %s", api,
                     (void *)executor, take ? "destroyed" : "consumed");
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor *executor) {
    aclnnStatus code = rk_executor_known(executor, "aclSetAclOpExecutorRepeatable", false);
    if (code == ACLNN_SUCCESS)
        executor->repeatable = true;
    return code;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor *executor) {
    aclnnStatus code = rk_executor_known(executor, "aclDestroyAclOpExecutor", true);
    if (code == ACLNN_SUCCESS)
        rk_executor_free(executor);
    return code;
}

static aclnnStatus rk_set_addr(aclOpExecutor *executor, size_t index, void *addr, bool output,
                               const char *api) {
    aclnnStatus code = rk_executor_known(executor, api, false);
    if (code != ACLNN_SUCCESS)
        return code;
    const int *slots = output ? executor->entry->output_slot : executor->entry->input_slot;
    int slot = index < RK_EXEC_MAX_ADDR ? slots[index] : -1;
    if (slot < 0) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: index = %zu: the operator has no such %s", api,
                     index, output ? "output" : "input");
        return ACLNN_ERR_PARAM_INVALID;
    }
    executor->addr.ptr[slot] = addr ? (char *)addr + executor->view_offset[slot] : NULL;
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

/* The error the stream reports for a failed run. */
static aclError rk_exec_fault(const struct rk_aclnn_entry *entry, ropekit_status status, int rule) {
    if (status == ROPEKIT_NO_MEMORY)
        return ACL_ERROR_BAD_ALLOC;
    return rule > 0 && rule < entry->op->rule_count ? entry->faults[rule] : ACL_ERROR_RT_FAILURE;
}

static void rk_exec_run(const aclOpExecutor *e, struct rk_task_result *result) {
    const struct rk_aclnn_entry *entry = e->entry;
    int rule = 0;
    result->code = ACL_SUCCESS;
    result->message[0] = '\0';
    ropekit_status st = entry->op->run(e->plan, entry->name, &e->addr, &rule);
    if (st != ROPEKIT_OK) {
        result->code = rk_exec_fault(entry, st, rule);
        snprintf(result->message, sizeof result->message, "%s", rk_error_text());
    }
}

/* A queued executor: the consumed one itself, or a copy of a repeatable one (whose
 * addresses may be rebound before the queue reaches it). */
static void rk_exec_task_run(void *arg, struct rk_task_result *result) {
    rk_exec_run(arg, result);
}

bool rk_executor_made_by(const aclOpExecutor *executor, const struct rk_aclnn_entry *entry) {
    uint64_t tag = 0;
    return executor && rk_registry_find(&rk_executors, executor, &tag) &&
           tag == (uint64_t)(uintptr_t)entry;
}

aclnnStatus rk_executor_launch(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                               aclrtStream stream, const struct rk_aclnn_entry *entry) {
    uint64_t tag = 0;
    const char *api = entry->name;
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
    if (tag != (uint64_t)(uintptr_t)entry) { /* not consumed: it belongs to another operator */
        rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                     "%s: executor = %p: was made by %s's GetWorkspaceSize", api, (void *)executor,
                     executor->entry->name);
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
        if (entry->op->check_data(executor->plan, api, &executor->addr, &rule) != ROPEKIT_OK)
            code = rk_aclnn_code(entry, rule);
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
        task = malloc(rk_executor_size(entry));
        if (task) /* plain bytes: the aclnn policies make no plan that owns memory */
            memcpy(task, executor, rk_executor_size(entry));
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
    if (task && rk_stream_enqueue(s, rk_exec_task_run, task == executor ? rk_executor_free : free,
                                  task) != ACL_SUCCESS)
        code = ACLNN_ERR_INNER;
    return code;
}
