/* Native face of the rotary-matrix operator (SPEC §15.5): y = x*cos + (x @ rotate)*sin
 * for x of any rank, strides and float dtype (float64 included), cos/sin of x's rank
 * broadcast over its leading dims, out of place or in place (out = x). */
#include "core/error.h"
#include "faces/native/plan.h"
#include "kernels/rot_kernel.h"
#include "ops/rotary_matrix/rotary_matrix.h"

static const struct rk_rm_policy rk_native_policy = {
    .dtype_mask =
        (1u << RK_KDT_F32) | (1u << RK_KDT_F16) | (1u << RK_KDT_BF16) | (1u << RK_KDT_F64),
};

static struct rk_rm_problem rk_native_problem(const char *api, const ropekit_tensor *x,
                                              const ropekit_tensor *cos, const ropekit_tensor *sin,
                                              const ropekit_tensor *rotate,
                                              const ropekit_tensor *out) {
    return (struct rk_rm_problem){
        .api = api, .x = x, .cos = cos, .sin = sin, .rotate = rotate, .out = out};
}

ropekit_status ropekit_rotary_matrix_plan_create(const ropekit_tensor *x, const ropekit_tensor *cos,
                                                 const ropekit_tensor *sin,
                                                 const ropekit_tensor *rotate,
                                                 const ropekit_tensor *out, ropekit_plan **plan) {
    static const char api[] = "ropekit_rotary_matrix_plan_create";
    ropekit_status st = rk_plan_out_ready(api, plan);
    if (st != ROPEKIT_OK)
        return st;
    const struct rk_rm_problem prob = rk_native_problem(api, x, cos, sin, rotate, out);
    int rule;
    return rk_plan_make(&rk_op_rotary_matrix, api, &prob, &rk_native_policy, plan, &rule);
}

ropekit_status ropekit_rotary_matrix_execute(const ropekit_plan *plan, const void *x,
                                             const void *cos, const void *sin, const void *rotate,
                                             void *out) {
    static const char api[] = "ropekit_rotary_matrix_execute";
    const struct rk_rm_plan *pl = rk_plan_of(plan, &rk_op_rotary_matrix);
    if (!pl)
        return rk_plan_error(plan, api, "a rotary-matrix plan");
    const struct rk_op_data data = {{(void *)x, (void *)cos, (void *)sin, (void *)rotate, out}};
    int rule;
    ropekit_status st = rk_rm_check_data(pl, api, &data, &rule);
    return st != ROPEKIT_OK ? st : rk_rm_run(pl, api, &data, &rule);
}

ropekit_status ropekit_rotary_matrix(const ropekit_tensor *x, const ropekit_tensor *cos,
                                     const ropekit_tensor *sin, const ropekit_tensor *rotate,
                                     const ropekit_tensor *out) {
    static const char api[] = "ropekit_rotary_matrix";
    const struct rk_rm_problem prob = rk_native_problem(api, x, cos, sin, rotate, out);
    _Alignas(max_align_t) unsigned char plan[RK_OP_MAX_PLAN_SIZE];
    /* a tensor may be NULL here: make refuses it before the data is used */
    const struct rk_op_data data = {{x ? x->data : NULL, cos ? cos->data : NULL,
                                     sin ? sin->data : NULL, rotate ? rotate->data : NULL,
                                     out ? out->data : NULL}};
    return rk_op_once(&rk_op_rotary_matrix, api, &prob, &rk_native_policy, plan, &data);
}
