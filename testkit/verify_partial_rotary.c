/* verify suite for InplacePartialRotaryMul and its gradient: random mode, direction,
 * dtype pair, rank 1-5 shape, broadcast pattern, slice (odd starts included), D up to
 * 2048, strided/permuted/reversed x, expanded cos/sin, and occasional NaN, inf,
 * subnormal and extreme values. The native result is checked against float64
 * (SPEC §6) and for untouched bytes, and must not depend on the ISA or thread count.
 * Where CANN's contract accepts the problem the aclnn face must give the same bytes;
 * where it rejects it, the SPEC's status code with x untouched. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testkit/half_bits.h"
#include "testkit/layout_gen.h"
#include "testkit/pr_case.h"
#include "testkit/pr_fill.h"
#include "testkit/verify.h"

enum { PR_MAX_ELEMS = 1 << 15 };

static const ropekit_dtype pr_dtypes[3] = {ROPEKIT_F32, ROPEKIT_F16, ROPEKIT_BF16};

struct pr_shape {
    int rank, crank;
    int64_t x[ROPEKIT_MAX_DIMS], c[ROPEKIT_MAX_DIMS];
};

static int64_t pr_pick_dim(struct tk_rng *rng) {
    static const int64_t dims[] = {1, 1, 1, 2, 2, 3, 4, 5, 7, 8, 16};
    return dims[tk_rng_below(rng, sizeof dims / sizeof dims[0])];
}

/* Mode, direction, dtypes, D, slice and shapes. About 40% of the problems take the
 * aclnn face's shape (4-D, interleave, allowed pair, D <= 1024) so both faces run. */
static void pr_gen_problem(struct tk_rng *rng, struct tk_pr_case *pc, struct pr_shape *sh,
                           ropekit_dtype *xd, ropekit_dtype *cd) {
    const bool acl_like = tk_rng_chance(rng, 40);
    pc->mode = acl_like ? ROPEKIT_ROTARY_INTERLEAVE : (int)tk_rng_below(rng, 4);
    pc->direction = (int)tk_rng_below(rng, 2);
    *xd = pr_dtypes[tk_rng_below(rng, 3)];
    *cd = pr_dtypes[tk_rng_below(rng, 3)];
    if (acl_like && pc->direction == ROPEKIT_FORWARD && *cd != *xd && *cd != ROPEKIT_F32)
        *cd = ROPEKIT_F32;

    unsigned r = (unsigned)tk_rng_below(rng, 100);
    int64_t d = r < 70   ? tk_rng_range(rng, 1, 256)
                : r < 90 ? tk_rng_range(rng, 257, 1024)
                         : tk_rng_range(rng, 1025, 2048);
    if (acl_like && d > 1024)
        d = 1024;
    if (acl_like && pc->direction == ROPEKIT_FORWARD && d % 2)
        d += d < 1024 ? 1 : -1;
    const int64_t m = pc->mode == ROPEKIT_ROTARY_QUARTER ? 4 : 2, most = d / m;
    int64_t len = 0;
    if (most > 0 && !tk_rng_chance(rng, 3))
        len = m * (tk_rng_chance(rng, 15) ? most : tk_rng_range(rng, 1, most));
    pc->start = tk_rng_range(rng, 0, d - len);
    pc->end = pc->start + len;

    sh->rank = acl_like ? 4 : (int)tk_rng_range(rng, 1, 5);
    int64_t numel = d;
    for (int k = 0; k < sh->rank - 1; k++) {
        sh->x[k] = pr_pick_dim(rng);
        numel *= sh->x[k];
    }
    sh->x[sh->rank - 1] = d;
    while (numel > PR_MAX_ELEMS) { /* halve the largest leading dimension */
        int big = 0;
        for (int k = 1; k < sh->rank - 1; k++)
            if (sh->x[k] > sh->x[big])
                big = k;
        numel = numel / sh->x[big] * ((sh->x[big] + 1) / 2);
        sh->x[big] = (sh->x[big] + 1) / 2;
        if (sh->x[big] == 1 && numel > PR_MAX_ELEMS)
            break; /* D alone is within budget */
    }
    if (sh->rank > 1 && tk_rng_chance(rng, 2))
        sh->x[tk_rng_below(rng, (uint64_t)sh->rank - 1)] = 0;

    sh->crank = acl_like ? 4 : (int)tk_rng_range(rng, 1, sh->rank);
    for (int k = 0; k < sh->crank - 1; k++)
        sh->c[k] = tk_rng_chance(rng, 50) ? sh->x[k + sh->rank - sh->crank] : 1;
    sh->c[sh->crank - 1] = len;
}

/* Fills the whole buffer with random bytes first, so padding is not all zeros and
 * any stray write shows up in the untouched-bytes check. */
static void pr_scribble(struct tk_tensor *t, struct tk_rng *rng) {
    size_t n = tk_tensor_bytes(t);
    for (size_t i = 0; i < n; i++)
        t->buf[i] = (unsigned char)tk_rng_next(rng);
}

static int pr_alloc(struct tk_tensor *t, struct tk_rng *rng, ropekit_dtype dt, int ndim,
                    const int64_t *shape, const struct tk_layout_opts *opts) {
    struct tk_layout l = tk_layout_random(rng, ndim, shape, opts);
    if (tk_tensor_alloc_view(t, dt, ndim, shape, l.strides, l.offset, l.buf_elems) != 0)
        return -1;
    pr_scribble(t, rng);
    return 0;
}

/* A few special values at random view positions. */
static void pr_inject_specials(struct tk_tensor *t, struct tk_rng *rng) {
    int64_t n = tk_tensor_numel(t), idx[ROPEKIT_MAX_DIMS];
    if (n == 0)
        return;
    for (int64_t count = tk_rng_range(rng, 1, 3); count > 0; count--) {
        for (int k = 0; k < t->ndim; k++)
            idx[k] = (int64_t)tk_rng_below(rng, (uint64_t)t->shape[k]);
        const double sub = tk_dtype_min_subnormal(t->dtype);
        const double values[] = {NAN,
                                 INFINITY,
                                 -INFINITY,
                                 -0.0,
                                 sub * (double)tk_rng_range(rng, 1, 9),
                                 -sub,
                                 tk_dtype_max(t->dtype),
                                 -tk_dtype_max(t->dtype)};
        double v = values[tk_rng_below(rng, sizeof values / sizeof values[0])];
        tk_store(tk_tensor_ptr(t, tk_tensor_elem(t, idx)), t->dtype, v);
    }
}

/* Value ranges: ordinary, large, tiny (products that land among fp32 or fp16
 * subnormals), and cos/sin from angles or unrelated values. */
static void pr_fill_values(struct tk_pr_case *pc, struct tk_rng *rng) {
    const bool x16 = pc->x.dtype == ROPEKIT_F16, c16 = pc->cos.dtype == ROPEKIT_F16;
    unsigned r = (unsigned)tk_rng_below(rng, 100);
    double xs = r < 75 ? 4.0 : r < 85 ? (x16 ? 1e3 : 1e30) : (x16 ? 1e-3 : 1e-20);
    double cs = 1.0;
    if (r >= 85 && tk_rng_chance(rng, 50))
        cs = c16 ? 1e-2 : 1e-19;
    tk_pr_fill_uniform(&pc->x, rng, -xs, xs);
    if (tk_rng_chance(rng, 70)) {
        tk_pr_fill_random_angles(pc, rng, cs);
    } else {
        tk_pr_fill_uniform(&pc->cos, rng, -2.0 * cs, 2.0 * cs);
        tk_pr_fill_uniform(&pc->sin, rng, -2.0 * cs, 2.0 * cs);
    }
    if (tk_rng_chance(rng, 10)) {
        pr_inject_specials(&pc->x, rng);
        pr_inject_specials(&pc->cos, rng);
        pr_inject_specials(&pc->sin, rng);
    }
}

static int pr_gen_case(struct tk_rng *rng, struct tk_pr_case *pc) {
    struct pr_shape sh;
    ropekit_dtype xd, cd;
    memset(pc, 0, sizeof *pc);
    pr_gen_problem(rng, pc, &sh, &xd, &cd);
    struct tk_layout_opts xo = {false, false, false, false}, co = xo;
    if (tk_rng_chance(rng, 35)) {
        xo.pad = true;
        xo.permute = tk_rng_chance(rng, 50);
        xo.negative = tk_rng_chance(rng, 20);
    }
    if (tk_rng_chance(rng, 30)) {
        co.zero = true;
        co.pad = tk_rng_chance(rng, 50);
        co.negative = xo.negative;
    }
    if (pr_alloc(&pc->x, rng, xd, sh.rank, sh.x, &xo) != 0 ||
        pr_alloc(&pc->cos, rng, cd, sh.crank, sh.c, &co) != 0 ||
        pr_alloc(&pc->sin, rng, cd, sh.crank, sh.c, &co) != 0)
        return -1;
    pr_fill_values(pc, rng);
    return 0;
}

/* Runs the native face on a copy of x; `out` receives the result. */
static bool pr_run_native_into(const struct tk_pr_case *pc, unsigned char *out, bool via_plan,
                               struct tk_verify_result *res, const char *label) {
    memcpy(out, pc->x.buf, tk_tensor_bytes(&pc->x));
    ropekit_status st = tk_pr_native_run(pc, out, via_plan);
    if (st == ROPEKIT_OK)
        return true;
    res->failed = true;
    snprintf(res->why, sizeof res->why, "native%s: %s: %s", label, ropekit_status_name(st),
             ropekit_last_error());
    return false;
}

static bool pr_same_bytes(const struct tk_pr_case *pc, const unsigned char *a,
                          const unsigned char *b, struct tk_verify_result *res, const char *what) {
    const size_t item = tk_tensor_itemsize(&pc->x);
    for (int64_t e = 0; e < pc->x.buf_elems; e++) {
        size_t at = (size_t)e * item;
        if (memcmp(a + at, b + at, item) == 0)
            continue;
        res->failed = true;
        snprintf(res->why, sizeof res->why,
                 "%s differs from the native result at buffer element %lld: %.9g vs %.9g", what,
                 (long long)e, tk_load(b + at, pc->x.dtype), tk_load(a + at, pc->x.dtype));
        return false;
    }
    return true;
}

/* Result with the ISA capped to scalar, or on one thread, must be bit-identical. */
static void pr_cross_checks(const struct tk_verify_env *env, const struct tk_pr_case *pc,
                            const unsigned char *native, unsigned char *scratch,
                            struct tk_verify_result *res) {
    if (env->cross_isa && !res->failed) {
        ropekit_isa prev = ropekit_get_active_isa();
        ropekit_set_max_isa(ROPEKIT_ISA_SCALAR);
        bool ok = pr_run_native_into(pc, scratch, false, res, " (scalar ISA)");
        ropekit_set_max_isa(prev);
        if (ok)
            pr_same_bytes(pc, scratch, native, res, "the scalar-ISA result");
    }
    if (env->cross_threads && !res->failed) {
        ropekit_set_num_threads(1);
        bool ok = pr_run_native_into(pc, scratch, false, res, " (1 thread)");
        ropekit_set_num_threads(0);
        if (ok)
            pr_same_bytes(pc, scratch, native, res, "the single-thread result");
    }
}

/* tk_acl_error writes "<call> = <code>: <aclGetRecentErrMsg()>"; phase 1 must have
 * failed (not a later call) and left a message. */
static bool pr_has_message(const char *err) {
    const char *msg = strstr(err, "GetWorkspaceSize = ");
    msg = msg ? strstr(msg, ": ") : NULL;
    return msg && msg[2] != '\0';
}

/* Accepted problems must give the native bytes; rejected ones the SPEC's status code,
 * with x left untouched (failure atomicity, SPEC §1). */
static void pr_verify_aclnn(const struct tk_verify_env *env, const struct tk_pr_case *pc,
                            const unsigned char *native, unsigned char *scratch,
                            struct tk_verify_result *res) {
    const int expected = tk_pr_aclnn_expected(pc);
    if (expected < 0)
        return;
    char err[400] = "";
    memcpy(scratch, pc->x.buf, tk_tensor_bytes(&pc->x));
    int rc = tk_pr_aclnn_run(pc, env->acl, scratch, err, sizeof err);
    if (expected == 0) {
        res->ran_aclnn = true;
        if (rc != 0) {
            res->failed = true;
            snprintf(res->why, sizeof res->why, "aclnn: %s", err);
        } else {
            pr_same_bytes(pc, scratch, native, res, tk_pr_aclnn_name(pc));
        }
        return;
    }
    res->rejected_aclnn = true;
    if (rc != expected) {
        res->failed = true;
        snprintf(res->why, sizeof res->why, "aclnn: expected status %d as CANN, got %d (%s)",
                 expected, rc, rc ? err : "accepted");
    } else if (memcmp(scratch, pc->x.buf, tk_tensor_bytes(&pc->x)) != 0) {
        res->failed = true;
        snprintf(res->why, sizeof res->why, "aclnn: status %d but x was modified", rc);
    } else if (!pr_has_message(err)) {
        res->failed = true;
        snprintf(res->why, sizeof res->why, "aclnn: status %d without a message: %s", rc, err);
    }
}

static void pr_verify(const struct tk_verify_env *env, const struct tk_pr_case *pc,
                      struct tk_rng *rng, unsigned char *native, unsigned char *scratch,
                      struct tk_verify_result *res) {
    const bool via_plan = tk_rng_chance(rng, 50);
    unsigned char *cs_before = malloc(tk_tensor_bytes(&pc->cos) + tk_tensor_bytes(&pc->sin));
    if (!cs_before) {
        res->failed = true;
        snprintf(res->why, sizeof res->why, "out of memory");
        return;
    }
    memcpy(cs_before, pc->cos.buf, tk_tensor_bytes(&pc->cos));
    memcpy(cs_before + tk_tensor_bytes(&pc->cos), pc->sin.buf, tk_tensor_bytes(&pc->sin));
    if (pr_run_native_into(pc, native, via_plan, res, via_plan ? " (plan)" : "")) {
        struct tk_pr_check chk;
        if (tk_pr_check_output(pc, native, &chk) != 0) {
            res->failed = true;
            snprintf(res->why, sizeof res->why, "out of memory");
        } else if (!tk_pr_check_passed(&chk)) {
            res->failed = true;
            int n = snprintf(res->why, sizeof res->why, "native: ");
            tk_pr_check_describe(pc, &chk, res->why + n, sizeof res->why - (size_t)n);
        } else if (memcmp(cs_before, pc->cos.buf, tk_tensor_bytes(&pc->cos)) != 0 ||
                   memcmp(cs_before + tk_tensor_bytes(&pc->cos), pc->sin.buf,
                          tk_tensor_bytes(&pc->sin)) != 0) {
            res->failed = true;
            snprintf(res->why, sizeof res->why, "native: cos or sin memory was modified");
        }
    }
    free(cs_before);
    pr_cross_checks(env, pc, native, scratch, res);
    if (!res->failed && env->acl)
        pr_verify_aclnn(env, pc, native, scratch, res);
}

void tk_verify_case_partial_rotary(const struct tk_verify_env *env, struct tk_rng *rng,
                                   struct tk_verify_result *res) {
    struct tk_pr_case pc;
    if (pr_gen_case(rng, &pc) != 0) {
        tk_pr_case_free(&pc);
        res->failed = true;
        snprintf(res->why, sizeof res->why, "out of memory");
        return;
    }
    tk_pr_case_describe(&pc, res->what, sizeof res->what);
    unsigned char *native = malloc(tk_tensor_bytes(&pc.x));
    unsigned char *scratch = malloc(tk_tensor_bytes(&pc.x));
    if (native && scratch) {
        pr_verify(env, &pc, rng, native, scratch, res);
    } else {
        res->failed = true;
        snprintf(res->why, sizeof res->why, "out of memory");
    }
    free(native);
    free(scratch);
    tk_pr_case_free(&pc);
}

int tk_verify_gen_partial_rotary(struct tk_rng *rng, struct tk_pr_case *pc) {
    return pr_gen_case(rng, pc);
}
