/* Native face of the rotary gradient: dx, and dcos/dsin when x is given, for every mode,
 * dtype pair, rank, slice and broadcast of the native partial rotary (SPEC §16.1). */
#include "faces/native/plan.h"
#include "ops/rotary_grad/rotary_grad.h"

static const enum rk_rg_step rk_native_rg_order[] = {
    RK_RG_STEP_PR_NULL, RK_RG_STEP_NULL,   RK_RG_STEP_PR_DTYPE, RK_RG_STEP_DTYPE,
    RK_RG_STEP_PR_REST, RK_RG_STEP_SHAPES, RK_RG_STEP_OVERLAP,
};

static const struct rk_rg_policy rk_native_rg_policy = {
    .pr = &rk_native_pr_policy,
    .cs_grad_required = false,
    .cs_grad_same_dtype = false,
    .order = rk_native_rg_order,
    .order_len = sizeof rk_native_rg_order / sizeof rk_native_rg_order[0],
};

ropekit_status ropekit_partial_rotary_grad(const ropekit_tensor *dy, const ropekit_tensor *cos,
                                           const ropekit_tensor *sin, const ropekit_tensor *x,
                                           const ropekit_tensor *dx, const ropekit_tensor *dcos,
                                           const ropekit_tensor *dsin, ropekit_rotary_mode mode,
                                           int64_t start, int64_t end) {
    static const char api[] = "ropekit_partial_rotary_grad";
    const int64_t slice[2] = {start, end};
    const ropekit_tensor *const t[RK_RG_TENSORS] = {dy, cos, sin, x, dx, dcos, dsin};
    const struct rk_rg_problem prob = rk_rg_problem_of(api, t, (int64_t)mode, slice);
    _Alignas(max_align_t) unsigned char plan[RK_OP_MAX_PLAN_SIZE];
    struct rk_op_data data = {{0}};
    for (int i = 0; i < RK_RG_TENSORS; i++)
        data.ptr[i] = t[i] ? t[i]->data : NULL;
    return rk_op_once(&rk_op_rotary_grad, api, &prob, &rk_native_rg_policy, plan, &data);
}

ropekit_status
ropekit_partial_rotary_grad_plan_create(const ropekit_tensor *dy, const ropekit_tensor *cos,
                                        const ropekit_tensor *sin, const ropekit_tensor *x,
                                        const ropekit_tensor *dx, const ropekit_tensor *dcos,
                                        const ropekit_tensor *dsin, ropekit_rotary_mode mode,
                                        int64_t start, int64_t end, ropekit_plan **plan) {
    static const char api[] = "ropekit_partial_rotary_grad_plan_create";
    ropekit_status st = rk_plan_out_ready(api, plan);
    if (st != ROPEKIT_OK)
        return st;
    const int64_t slice[2] = {start, end};
    const ropekit_tensor *const t[RK_RG_TENSORS] = {dy, cos, sin, x, dx, dcos, dsin};
    const struct rk_rg_problem prob = rk_rg_problem_of(api, t, (int64_t)mode, slice);
    int rule;
    return rk_plan_make(&rk_op_rotary_grad, api, &prob, &rk_native_rg_policy, plan, &rule);
}

ropekit_status ropekit_partial_rotary_grad_execute(const ropekit_plan *plan, const void *dy,
                                                   const void *cos, const void *sin, const void *x,
                                                   void *dx, void *dcos, void *dsin) {
    static const char api[] = "ropekit_partial_rotary_grad_execute";
    const void *pl = rk_plan_of(plan, &rk_op_rotary_grad);
    if (!pl)
        return rk_plan_error(plan, api, "a rotary-gradient plan");
    const struct rk_op_data data = {
        {(void *)dy, (void *)cos, (void *)sin, (void *)x, dx, dcos, dsin}};
    int rule;
    ropekit_status st = rk_op_rotary_grad.check_data(pl, api, &data, &rule);
    return st != ROPEKIT_OK ? st : rk_op_rotary_grad.run(pl, api, &data, &rule);
}
