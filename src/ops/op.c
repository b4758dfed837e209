/* The operator list's descriptors (op.h). */
#include "ops/op.h"

#define RK_OP_ENTRY_(name, NAME) [RK_OP_##NAME] = &rk_op_##name,
static const struct rk_op *const rk_ops[RK_OP_COUNT] = {RK_OPS(RK_OP_ENTRY_)};
#undef RK_OP_ENTRY_

const struct rk_op *rk_op_of(enum rk_op_id id) {
    return (int)id >= 0 && id < RK_OP_COUNT ? rk_ops[id] : NULL;
}

ropekit_status rk_op_rule_status(const struct rk_op *op, int rule) {
    return rule > 0 && rule < op->rule_count ? op->rules[rule].status : ROPEKIT_OK;
}

ropekit_status rk_op_once(const struct rk_op *op, const char *api, const void *problem,
                          const void *policy, void *plan, const struct rk_op_data *data) {
    int rule;
    ropekit_status st = op->make(problem, policy, plan, &rule);
    if (st != ROPEKIT_OK)
        return st;
    st = op->check_data(plan, api, data, &rule);
    if (st == ROPEKIT_OK)
        st = op->run(plan, api, data, &rule);
    op->release(plan);
    return st;
}
