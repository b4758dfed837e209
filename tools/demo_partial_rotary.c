/* Demo rows for InplacePartialRotaryMul and its gradient (SPEC §3, §4): the official
 * example configurations through the aclnn face in every dtype pair the face accepts,
 * and one larger problem per rotary mode through the native face. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"
#include "testkit/pr_fill.h"
#include "testkit/reference.h"

enum pr_face { PR_ACLNN, PR_NATIVE };

struct pr_dtype_pair {
    ropekit_dtype x, cs;
};

struct pr_demo_config {
    enum pr_face face;
    int direction, mode;
    int64_t x[4], cs[4];
    int64_t start, end;
    const struct pr_dtype_pair *pairs;
    int npairs;
};

static const struct pr_dtype_pair pr_fwd_pairs[] = {{ROPEKIT_F32, ROPEKIT_F32},
                                                    {ROPEKIT_F16, ROPEKIT_F16},
                                                    {ROPEKIT_BF16, ROPEKIT_BF16},
                                                    {ROPEKIT_F16, ROPEKIT_F32},
                                                    {ROPEKIT_BF16, ROPEKIT_F32}};
static const struct pr_dtype_pair pr_all_pairs[] = {
    {ROPEKIT_F32, ROPEKIT_F32},  {ROPEKIT_F32, ROPEKIT_F16},  {ROPEKIT_F32, ROPEKIT_BF16},
    {ROPEKIT_F16, ROPEKIT_F32},  {ROPEKIT_F16, ROPEKIT_F16},  {ROPEKIT_F16, ROPEKIT_BF16},
    {ROPEKIT_BF16, ROPEKIT_F32}, {ROPEKIT_BF16, ROPEKIT_F16}, {ROPEKIT_BF16, ROPEKIT_BF16}};
static const struct pr_dtype_pair pr_bf16_pair[] = {{ROPEKIT_BF16, ROPEKIT_BF16}};

/* The official examples: forward x [96,1,1,512] with cos/sin [96,1,1,64] rotating
 * [448,512); grad dy [1,1,1,128] with cos/sin [1,1,1,128] rotating [0,128). */
static const struct pr_demo_config pr_demo_configs[] = {
    {PR_ACLNN, 0, 1, {96, 1, 1, 512}, {96, 1, 1, 64}, 448, 512, pr_fwd_pairs, 5},
    {PR_ACLNN, 1, 1, {1, 1, 1, 128}, {1, 1, 1, 128}, 0, 128, pr_all_pairs, 9},
    {PR_NATIVE, 0, 0, {4, 1024, 8, 128}, {1, 1024, 1, 128}, 0, 128, pr_bf16_pair, 1},
    {PR_NATIVE, 0, 1, {4, 1024, 8, 128}, {1, 1024, 1, 128}, 0, 128, pr_bf16_pair, 1},
    {PR_NATIVE, 0, 2, {4, 1024, 8, 128}, {1, 1024, 1, 128}, 0, 128, pr_bf16_pair, 1},
    {PR_NATIVE, 0, 3, {4, 1024, 8, 128}, {1, 1024, 1, 128}, 0, 128, pr_bf16_pair, 1},
};

static int pr_demo_make_case(const struct pr_demo_config *cfg, struct pr_dtype_pair dt,
                             uint64_t seed, struct tk_pr_case *pc) {
    memset(pc, 0, sizeof *pc);
    pc->mode = cfg->mode;
    pc->direction = cfg->direction;
    pc->start = cfg->start;
    pc->end = cfg->end;
    if (tk_tensor_alloc(&pc->x, dt.x, 4, cfg->x) != 0 ||
        tk_tensor_alloc(&pc->cos, dt.cs, 4, cfg->cs) != 0 ||
        tk_tensor_alloc(&pc->sin, dt.cs, 4, cfg->cs) != 0) {
        tk_pr_case_free(pc);
        return -1;
    }
    struct tk_rng rng = tk_rng_make(seed);
    tk_pr_fill_uniform(&pc->x, &rng, -1.0, 1.0);
    tk_pr_fill_rotary_angles(pc, 10000.0);
    return 0;
}

struct pr_timed {
    const struct tk_pr_case *pc;
    const struct tk_acl *acl;
    struct tk_pr_aclnn *bound;
    ropekit_plan *plan;
    void *xbuf;
    char *err;
    size_t errlen;
};

static int pr_time_aclnn(void *ctx) {
    struct pr_timed *t = ctx;
    return tk_pr_aclnn_call(t->bound, t->pc, t->acl, t->err, t->errlen);
}

static int pr_time_native(void *ctx) {
    struct pr_timed *t = ctx;
    return ropekit_partial_rotary_execute(t->plan, t->xbuf, t->pc->cos.buf, t->pc->sin.buf) ==
                   ROPEKIT_OK
               ? 0
               : -1;
}

/* Runs once into `out` (checked by the caller), then times repeated calls. */
static int pr_demo_run_aclnn(const struct tk_pr_case *pc, const struct tk_acl *acl,
                             unsigned char *out, double *usec, char *err, size_t len) {
    struct tk_pr_aclnn b;
    if (tk_pr_aclnn_bind(&b, pc, pc->x.buf, err, len) != 0)
        return -1;
    int rc = tk_pr_aclnn_call(&b, pc, acl, err, len);
    if (rc == 0)
        rc = tk_acl_tensor_download(&pc->x, &b.x, out, err, len);
    if (rc == 0) {
        struct pr_timed t = {pc, acl, &b, NULL, NULL, err, len};
        *usec = demo_time_us(pr_time_aclnn, &t);
        rc = *usec < 0.0 ? -1 : 0;
    }
    tk_pr_aclnn_unbind(&b);
    return rc;
}

static int pr_demo_run_native(const struct tk_pr_case *pc, unsigned char *out, double *usec,
                              char *err, size_t len) {
    ropekit_tensor x = tk_tensor_native(&pc->x, out);
    ropekit_tensor c = tk_tensor_native(&pc->cos, pc->cos.buf);
    ropekit_tensor s = tk_tensor_native(&pc->sin, pc->sin.buf);
    ropekit_plan *plan = NULL;
    memcpy(out, pc->x.buf, tk_tensor_bytes(&pc->x));
    ropekit_status st =
        ropekit_partial_rotary_plan_create(&x, &c, &s, (ropekit_rotary_mode)pc->mode, pc->start,
                                           pc->end, (ropekit_direction)pc->direction, &plan);
    if (st == ROPEKIT_OK)
        st = ropekit_partial_rotary_execute(plan, out, c.data, s.data);
    if (st != ROPEKIT_OK) {
        snprintf(err, len, "%s: %s", ropekit_status_name(st), ropekit_last_error());
        ropekit_plan_destroy(plan);
        return -1;
    }
    /* Time on a scratch copy so `out` keeps the single-call result. */
    void *scratch = malloc(tk_tensor_bytes(&pc->x));
    int rc = -1;
    if (scratch) {
        memcpy(scratch, pc->x.buf, tk_tensor_bytes(&pc->x));
        struct pr_timed t = {pc, NULL, NULL, plan, scratch, err, len};
        *usec = demo_time_us(pr_time_native, &t);
        rc = *usec < 0.0 ? -1 : 0;
        if (rc)
            snprintf(err, len, "timing run failed: %s", ropekit_last_error());
        free(scratch);
    } else {
        snprintf(err, len, "out of memory");
    }
    ropekit_plan_destroy(plan);
    return rc;
}

static void pr_demo_row(const struct demo_env *env, const struct pr_demo_config *cfg,
                        struct pr_dtype_pair dt, uint64_t seed, struct demo_table *table) {
    struct demo_row row;
    memset(&row, 0, sizeof row);
    row.face = cfg->face == PR_ACLNN ? "aclnn" : "native";
    row.op = cfg->direction ? "PartialRotaryMulGrad" : "PartialRotaryMul";
    row.mode = ropekit_rotary_mode_name((ropekit_rotary_mode)cfg->mode);
    tk_shape_str(4, cfg->x, row.shape, sizeof row.shape);
    snprintf(row.dtypes, sizeof row.dtypes, "%s/%s", ropekit_dtype_name(dt.x),
             ropekit_dtype_name(dt.cs));
    row.usec = -1.0;

    struct tk_pr_case pc;
    if (pr_demo_make_case(cfg, dt, seed, &pc) != 0) {
        snprintf(row.note, sizeof row.note, "out of memory");
        demo_table_add(table, &row);
        return;
    }
    unsigned char *out = malloc(tk_tensor_bytes(&pc.x));
    if (!out) {
        snprintf(row.note, sizeof row.note, "out of memory");
        demo_table_add(table, &row);
        tk_pr_case_free(&pc);
        return;
    }
    int rc = cfg->face == PR_ACLNN
                 ? pr_demo_run_aclnn(&pc, env->acl, out, &row.usec, row.note, sizeof row.note)
                 : pr_demo_run_native(&pc, out, &row.usec, row.note, sizeof row.note);
    struct tk_pr_check chk;
    if (rc == 0 && tk_pr_check_output(&pc, out, &chk) == 0) {
        row.max_abs_err = chk.err.max_abs_err;
        row.max_ratio = chk.err.max_ratio;
        row.pass = tk_pr_check_passed(&chk);
        if (!row.pass)
            tk_pr_check_describe(&pc, &chk, row.note, sizeof row.note);
    }
    demo_table_add(table, &row);
    free(out);
    tk_pr_case_free(&pc);
}

void demo_suite_partial_rotary(const struct demo_env *env, struct demo_table *table) {
    uint64_t seed = 1;
    for (size_t i = 0; i < sizeof pr_demo_configs / sizeof pr_demo_configs[0]; i++) {
        const struct pr_demo_config *cfg = &pr_demo_configs[i];
        for (int p = 0; p < cfg->npairs; p++)
            pr_demo_row(env, cfg, cfg->pairs[p], seed++, table);
    }
}
