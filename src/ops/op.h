/* An operator is one descriptor: its rules (as data), the size of its plan and the
 * functions every face calls. A face builds the operator's problem from its own
 * arguments, calls `make` with its policy (what the face restricts, as data), keeps the
 * plan as opaque bytes beside the descriptor pointer, and later binds data and runs it.
 * oneDNN's split: `make` is the primitive descriptor (is it valid, how will it run),
 * `check_data` + `run` the primitive. Operators report ropekit statuses and rule ids;
 * what a face makes of a rule (its own codes) is the face's business. */
#ifndef ROPEKIT_OPS_OP_H_
#define ROPEKIT_OPS_OP_H_

#include <stddef.h>

#include "core/error.h"
#include "ops/op_list.h"
#include "ropekit/ropekit.h"

/* The most tensors an operator binds (rope: positions, query/key in and out, cache,
 * offsets). */
#define RK_OP_MAX_TENSORS 8

/* The data one call binds to a plan: a pointer per tensor slot, in the operator's slot
 * order. Inputs are never written through their slots. */
struct rk_op_data {
    void *ptr[RK_OP_MAX_TENSORS];
};

/* One validation rule: its name (the table's), the status a failure returns and what it
 * checks. Rule 0 is "none". */
struct rk_rule {
    const char *name;
    ropekit_status status;
    const char *meaning;
};

#define RK_OP_ID_(name, NAME) RK_OP_##NAME,
enum rk_op_id { RK_OPS(RK_OP_ID_) RK_OP_COUNT };
#undef RK_OP_ID_

struct rk_op {
    const char *name;
    enum rk_op_id id;
    size_t plan_size;
    int tensor_count; /* slots used in struct rk_op_data */
    int rule_count;   /* rules are 1 .. rule_count - 1 */
    const struct rk_rule *rules;
    /* Validates the problem under the policy (both the operator's own structs) once and
     * fills the plan (plan_size bytes, not initialised). On failure *rule names the
     * broken rule, the message is set and the plan owns nothing. */
    ropekit_status (*make)(const void *problem, const void *policy, void *plan, int *rule);
    /* What only bound data can break (pointers present, no overlap), for data bound after
     * `make` ran. */
    ropekit_status (*check_data)(const void *plan, const char *api, const struct rk_op_data *data,
                                 int *rule);
    /* Runs the plan on data check_data (or `make`) accepted; checks only what the data's
     * values decide (rope: positions). Nothing is written on failure. */
    ropekit_status (*run)(const void *plan, const char *api, const struct rk_op_data *data,
                          int *rule);
    /* One line: operator, shapes, kernel, threads. Returns the length it needed. */
    size_t (*describe)(const void *plan, char *buf, size_t len);
    /* Frees what a plan owns beyond its bytes (then the bytes may be dropped). */
    void (*release)(void *plan);
};

/* The largest plan of any operator, for faces that keep a plan on the stack for one call,
 * and the most rules an operator has (check counting keeps a counter per rule). */
#define RK_OP_MAX_PLAN_SIZE 4096
#define RK_OP_MAX_RULES 32

/* Defines rk_op_<name_>, the descriptor of operator `name_` (id RK_OP_<ID>) with plans of
 * `plan_type`, `tensors` slots and the rule table `rules_` (indexed by rule id, row 0
 * "none"), whose functions are <fn>_make, <fn>_check_data, <fn>_run, <fn>_describe and
 * <fn>_release. */
#define RK_OP_DEFINE(name_, ID, plan_type, tensors, rules_, fn)                                    \
    _Static_assert(sizeof(plan_type) <= RK_OP_MAX_PLAN_SIZE, #name_ ": plan too big");             \
    _Static_assert(sizeof rules_ / sizeof rules_[0] <= RK_OP_MAX_RULES,                            \
                   #name_ ": too many rules");                                                     \
    const struct rk_op rk_op_##name_ = {.name = #name_,                                            \
                                        .id = RK_OP_##ID,                                          \
                                        .plan_size = sizeof(plan_type),                            \
                                        .tensor_count = tensors,                                   \
                                        .rule_count = (int)(sizeof rules_ / sizeof rules_[0]),     \
                                        .rules = rules_,                                           \
                                        .make = fn##_make,                                         \
                                        .check_data = fn##_check_data,                             \
                                        .run = fn##_run,                                           \
                                        .describe = fn##_describe,                                 \
                                        .release = fn##_release}

/* A row of a rule table: the rule of id `id` named `name` (a string: the rule's name is
 * stringized where it is pasted, since one rule is named NULL), its status and meaning. */
#define RK_RULE_ROW(id, name, status, meaning) [id] = {name, ROPEKIT_##status, meaning}
#define RK_RULE_NONE_ROW                                                                           \
    { "NONE", ROPEKIT_OK, "no rule broken" }

/* Fails with rule `rule_id` of `op`: stores it in `*rule` and returns the rule's status
 * with the message. */
#define RK_OP_FAIL(op, rule_id, ...)                                                               \
    do {                                                                                           \
        *rule = (rule_id);                                                                         \
        return rk_error_set(rk_op_rule_status((op), (rule_id)), __VA_ARGS__);                      \
    } while (0)

/* Declares the descriptor's functions of an operator whose function prefix is `fn` (the
 * fn of RK_OP_DEFINE); each takes the operator's own problem, policy and plan. */
#define RK_OP_FUNCTIONS(fn)                                                                        \
    ropekit_status fn##_make(const void *problem, const void *policy, void *plan, int *rule);      \
    ropekit_status fn##_check_data(const void *plan, const char *api,                              \
                                   const struct rk_op_data *data, int *rule);                      \
    ropekit_status fn##_run(const void *plan, const char *api, const struct rk_op_data *data,      \
                            int *rule);                                                            \
    size_t fn##_describe(const void *plan, char *buf, size_t len);                                 \
    void fn##_release(void *plan)

/* Makes a plan of `op` in `plan` (RK_OP_MAX_PLAN_SIZE bytes), checks `data` and runs: the
 * one-shot calls of the native face. The plan is released before returning. */
ropekit_status rk_op_once(const struct rk_op *op, const char *api, const void *problem,
                          const void *policy, void *plan, const struct rk_op_data *data);

#define RK_OP_DECLARE_(name, NAME) extern const struct rk_op rk_op_##name;
RK_OPS(RK_OP_DECLARE_)
#undef RK_OP_DECLARE_

/* The descriptor of an operator id. */
const struct rk_op *rk_op_of(enum rk_op_id id);

/* The status of a failure of `rule` of `op` (ROPEKIT_OK for 0 or a rule it has not). */
ropekit_status rk_op_rule_status(const struct rk_op *op, int rule);

#endif /* ROPEKIT_OPS_OP_H_ */
