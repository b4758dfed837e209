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
    const struct rk_rg_problem prob = {
        .api = api,
        .dy = dy,
        .cos = cos,
        .sin = sin,
        .x = x,
        .dx = dx,
        .dcos = dcos,
        .dsin = dsin,
        .mode = (int64_t)mode,
        .slice = slice,
    };
    _Alignas(max_align_t) unsigned char plan[RK_OP_MAX_PLAN_SIZE];
    const ropekit_tensor *t[RK_RG_TENSORS] = {dy, cos, sin, x, dx, dcos, dsin};
    struct rk_op_data data = {{0}};
    for (int i = 0; i < RK_RG_TENSORS; i++)
        data.ptr[i] = t[i] ? t[i]->data : NULL;
    return rk_op_once(&rk_op_rotary_grad, api, &prob, &rk_native_rg_policy, plan, &data);
}
