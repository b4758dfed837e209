/* Shared driver of the two InplacePartialRotaryMul aclnn test programs: a case is a
 * description of (x, cos, sin, mode, partialSlice); the driver builds the tensors,
 * runs phase 1 (and phase 2 on success) and checks codes, messages, outputs and
 * buffers. */
#ifndef ROPEKIT_TESTS_ACLNN_PR_HARNESS_H_
#define ROPEKIT_TESTS_ACLNN_PR_HARNESS_H_

#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"
#include "common/acl_fixture.h"
#include "ropekit/ropekit_cann.h"

enum pr_op { PR_FWD = 0, PR_GRAD = 1 };

/* Which argument of phase 1 is passed as NULL. */
enum pr_null { PR_NULL_NONE, PR_NULL_X, PR_NULL_COS, PR_NULL_SIN, PR_NULL_WS, PR_NULL_EXEC };

/* Which tensor gets a NULL data pointer. */
enum pr_nodata { PR_NODATA_NONE, PR_NODATA_X, PR_NODATA_COS, PR_NODATA_SIN };

struct pr_case {
    aclDataType xdt, cdt, sdt;
    int64_t xnd, cnd, snd;
    int64_t xd[8], cd[8], sd[8];
    const int64_t *xstrides; /* NULL: contiguous */
    int64_t xoffset;
    int64_t mode;
    int64_t nslice; /* -1: partialSlice NULL */
    int64_t slice[3];
    enum pr_null null_arg;
    enum pr_nodata no_data;
};

/* x f32 [2,3,4,16], cos/sin f32 [2,3,4,8], interleave, slice [4,12]. */
static inline struct pr_case pr_default(void) {
    struct pr_case k;
    memset(&k, 0, sizeof k);
    k.xdt = k.cdt = k.sdt = ACL_FLOAT;
    k.xnd = k.cnd = k.snd = 4;
    int64_t xd[4] = {2, 3, 4, 16}, cd[4] = {2, 3, 4, 8};
    memcpy(k.xd, xd, sizeof xd);
    memcpy(k.cd, cd, sizeof cd);
    memcpy(k.sd, cd, sizeof cd);
    k.mode = 1;
    k.nslice = 2;
    k.slice[0] = 4;
    k.slice[1] = 12;
    return k;
}

/* Sets the x shape (4-D) and the cos/sin shape (4-D) in one go. */
static inline void pr_shapes(struct pr_case *k, int64_t x0, int64_t x1, int64_t x2, int64_t x3,
                             int64_t c0, int64_t c1, int64_t c2, int64_t c3) {
    k->xnd = k->cnd = k->snd = 4;
    k->xd[0] = x0, k->xd[1] = x1, k->xd[2] = x2, k->xd[3] = x3;
    k->cd[0] = k->sd[0] = c0;
    k->cd[1] = k->sd[1] = c1;
    k->cd[2] = k->sd[2] = c2;
    k->cd[3] = k->sd[3] = c3;
}

static inline void pr_set_slice(struct pr_case *k, int64_t start, int64_t end) {
    k->nslice = 2;
    k->slice[0] = start;
    k->slice[1] = end;
}

static aclrtStream pr_stream;

static inline int pr_group_setup(void **state) {
    (void)state;
    if (aclInit(NULL) != ACL_SUCCESS)
        return -1;
    if (aclrtSetDevice(0) != ACL_SUCCESS)
        return -1;
    return aclrtCreateStream(&pr_stream) == ACL_SUCCESS ? 0 : -1;
}

static inline int pr_group_teardown(void **state) {
    (void)state;
    int bad = aclrtDestroyStream(pr_stream) != ACL_SUCCESS;
    bad |= aclrtResetDevice(0) != ACL_SUCCESS;
    bad |= aclFinalize() != ACL_SUCCESS;
    return bad ? -1 : 0;
}

static inline aclnnStatus pr_phase1(enum pr_op op, const aclTensor *x, const aclTensor *c,
                                    const aclTensor *s, int64_t mode, const aclIntArray *slice,
                                    uint64_t *ws, aclOpExecutor **exec) {
    if (op == PR_FWD)
        return aclnnInplacePartialRotaryMulGetWorkspaceSize(x, c, s, mode, slice, ws, exec);
    return aclnnInplacePartialRotaryMulGradGetWorkspaceSize((aclTensor *)(uintptr_t)x, c, s, mode,
                                                            slice, ws, exec);
}

static inline aclnnStatus pr_phase2(enum pr_op op, aclOpExecutor *exec, aclrtStream stream) {
    if (op == PR_FWD)
        return aclnnInplacePartialRotaryMul(NULL, 0, exec, stream);
    return aclnnInplacePartialRotaryMulGrad(NULL, 0, exec, stream);
}

/* Case-insensitive substring test. */
static inline bool pr_contains(const char *hay, const char *needle) {
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return n == 0;
}

/* Reports the first differing byte of two buffers; true when they are equal. */
static inline bool pr_same(const void *got, const void *want, size_t bytes, const char *what) {
    const unsigned char *a = got, *b = want;
    for (size_t i = 0; i < bytes; i++) {
        if (a[i] != b[i]) {
            print_error("%s: byte %zu differs (got 0x%02x, want 0x%02x)\n", what, i, a[i], b[i]);
            return false;
        }
    }
    return true;
}

/* Fails the test when two buffers differ. */
static inline void pr_assert_same(const void *got, const void *want, size_t bytes,
                                  const char *what) {
    if (!pr_same(got, want, bytes, what))
        fail();
}

struct pr_built {
    struct fx_tensor x, c, s;
    aclIntArray *slice;
    void *x0, *c0, *s0; /* copies of the storage before the call */
};

static inline void *pr_dup(const void *p, size_t n) {
    void *q = malloc(n ? n : 1);
    assert_non_null(q);
    memcpy(q, p, n);
    return q;
}

static inline void pr_build(const struct pr_case *k, struct pr_built *b) {
    memset(b, 0, sizeof *b);
    assert_int_equal(fx_tensor_init(&b->x, k->xdt, k->xnd, k->xd, k->xstrides, k->xoffset,
                                    k->no_data != PR_NODATA_X),
                     0);
    assert_int_equal(
        fx_tensor_init(&b->c, k->cdt, k->cnd, k->cd, NULL, 0, k->no_data != PR_NODATA_COS), 0);
    assert_int_equal(
        fx_tensor_init(&b->s, k->sdt, k->snd, k->sd, NULL, 0, k->no_data != PR_NODATA_SIN), 0);
    /* distinct sin values, so that swapping cos and sin would be visible */
    if (k->sdt == ACL_FLOAT || k->sdt == ACL_FLOAT16 || k->sdt == ACL_BF16)
        for (size_t i = 0; i < b->s.bytes / tk_acl_item(k->sdt); i++)
            fx_store(k->sdt, b->s.buf, i, fx_pattern(i, 991u));
    if (k->nslice >= 0) {
        b->slice = aclCreateIntArray(k->slice, (uint64_t)k->nslice);
        assert_non_null(b->slice);
    }
    b->x0 = pr_dup(b->x.buf, b->x.bytes);
    b->c0 = pr_dup(b->c.buf, b->c.bytes);
    b->s0 = pr_dup(b->s.buf, b->s.bytes);
}

static inline void pr_free(struct pr_built *b) {
    fx_tensor_free(&b->x);
    fx_tensor_free(&b->c);
    fx_tensor_free(&b->s);
    if (b->slice)
        aclDestroyIntArray(b->slice);
    free(b->x0);
    free(b->c0);
    free(b->s0);
}

/* The native view of a fixture tensor over `storage` (its buffer, a copy of it, or NULL). */
/* The data pointer of a view of a fixture tensor over `storage`. */
static inline void *pr_view_data(const struct fx_tensor *f, void *storage) {
    return storage ? (char *)storage + f->offset * (int64_t)tk_acl_item(f->dt) : NULL;
}

static inline ropekit_tensor pr_native_view(const struct fx_tensor *f, void *storage) {
    return ropekit_tensor_make(pr_view_data(f, storage), (ropekit_dtype)f->dt, (int32_t)f->ndim,
                               f->dims, f->strides);
}

/* A copy of a message (the thread's message buffer is rewritten by the next failure). */
struct pr_message {
    char text[512];
};
static inline struct pr_message pr_message_of(const char *msg) {
    struct pr_message m;
    snprintf(m.text, sizeof m.text, "%s", msg ? msg : "");
    return m;
}

/* What a CANN-rules plan (ropekit_cann.h) of a call must give, given what the aclnn face
 * gave: the same code and message when phase 1 refused it for a rule that needs no data.
 * When phase 1's verdict came from the data (`data_verdict`: a NULL data pointer checked
 * before later rules) the plan may refuse it for a later rule, or its execute must refuse
 * the data; the same holds when phase 1 refused memory two tensors share, which the plan
 * cannot see. `run` executes the plan on the call's data. True when they agree. */
static inline bool pr_cann_agrees(ropekit_status plan_st, ropekit_plan *plan, int32_t plan_code,
                                  aclnnStatus code, const struct pr_message *msg, bool data_verdict,
                                  ropekit_status (*run)(const ropekit_plan *, void *), void *ctx,
                                  const char *where) {
    bool ok = true;
    if (plan_st != ROPEKIT_OK && data_verdict)
        return !plan;
    if (plan_st != ROPEKIT_OK) {
        if (plan_code != (int32_t)code || strcmp(ropekit_last_error(), msg->text) != 0) {
            print_error("%s: CANN-rules plan: code %d \"%s\"; phase 1: code %d \"%s\"\n", where,
                        (int)plan_code, ropekit_last_error(), (int)code, msg->text);
            ok = false;
        }
        if (plan) {
            print_error("%s: a failed CANN-rules plan creation set *plan\n", where);
            ok = false;
        }
        return ok;
    }
    if (plan_code != 0) {
        print_error("%s: CANN-rules plan made with code %d\n", where, (int)plan_code);
        ok = false;
    }
    if (code != ACLNN_SUCCESS && run(plan, ctx) == ROPEKIT_OK) {
        print_error("%s: phase 1 refused (%d \"%s\") what the CANN-rules plan runs\n", where,
                    (int)code, msg->text);
        ok = false;
    }
    ropekit_plan_destroy(plan);
    return ok;
}

#define PR_WS_SENTINEL UINT64_C(0x5eed5eed5eed5eed)
static max_align_t pr_exec_sentinel_obj;
#define PR_EXEC_SENTINEL ((aclOpExecutor *)(void *)&pr_exec_sentinel_obj)

static inline ropekit_cann_op pr_cann_op(enum pr_op op) {
    return op == PR_FWD ? ROPEKIT_CANN_INPLACE_PARTIAL_ROTARY_MUL
                        : ROPEKIT_CANN_INPLACE_PARTIAL_ROTARY_MUL_GRAD;
}

/* The data of a built case, for a CANN-rules plan's execute. */
struct pr_run_data {
    void *x, *c, *s;
};
static inline ropekit_status pr_run_plan(const ropekit_plan *plan, void *ctx) {
    const struct pr_run_data *d = ctx;
    return ropekit_partial_rotary_execute(plan, d->x, d->c, d->s);
}

/* The CANN-rules plan of the case over storages x, c, s (NULL for a tensor passed as
 * NULL). */
static inline ropekit_status pr_cann_plan(enum pr_op op, const struct pr_case *k,
                                          const struct pr_built *b, void *x, void *c, void *s,
                                          ropekit_plan **plan, int32_t *code) {
    ropekit_tensor tx = pr_native_view(&b->x, x), tc = pr_native_view(&b->c, c),
                   ts = pr_native_view(&b->s, s);
    return ropekit_cann_partial_rotary_plan_create(
        pr_cann_op(op), k->null_arg == PR_NULL_X ? NULL : &tx,
        k->null_arg == PR_NULL_COS ? NULL : &tc, k->null_arg == PR_NULL_SIN ? NULL : &ts, k->mode,
        k->nslice >= 0 ? k->slice : NULL, k->nslice >= 0 ? (uint64_t)k->nslice : 0, plan, code);
}

/* A refused call through the CANN-rules plan (the NULL workspaceSize and executor of phase
 * 1 have no counterpart there). */
static inline bool pr_cann_refuses(enum pr_op op, const struct pr_case *k, const struct pr_built *b,
                                   aclnnStatus code, const struct pr_message *msg) {
    if (k->null_arg == PR_NULL_WS || k->null_arg == PR_NULL_EXEC)
        return true;
    void *x = k->no_data == PR_NODATA_X ? NULL : b->x.buf;
    void *c = k->no_data == PR_NODATA_COS ? NULL : b->c.buf;
    void *s = k->no_data == PR_NODATA_SIN ? NULL : b->s.buf;
    struct pr_run_data d = {pr_view_data(&b->x, x), pr_view_data(&b->c, c), pr_view_data(&b->s, s)};
    ropekit_plan *plan = NULL;
    int32_t plan_code = -1;
    ropekit_status st = pr_cann_plan(op, k, b, x, c, s, &plan, &plan_code);
    return pr_cann_agrees(st, plan, plan_code, code, msg, k->no_data != PR_NODATA_NONE, pr_run_plan,
                          &d, "refused call");
}

/* Phase 1 must fail with `code`, leave a message containing every needle (a
 * NULL-terminated list, case-insensitive), write neither output, and leave all three
 * buffers byte-identical; the CANN-rules plan of the same call must refuse it alike
 * (pr_cann_agrees). */
static inline void pr_expect_reject(enum pr_op op, const struct pr_case *k, aclnnStatus code, ...) {
    struct pr_built b;
    pr_build(k, &b);
    uint64_t ws = PR_WS_SENTINEL;
    aclOpExecutor *exec = PR_EXEC_SENTINEL;
    aclnnStatus st = pr_phase1(
        op, k->null_arg == PR_NULL_X ? NULL : b.x.t, k->null_arg == PR_NULL_COS ? NULL : b.c.t,
        k->null_arg == PR_NULL_SIN ? NULL : b.s.t, k->mode, b.slice,
        k->null_arg == PR_NULL_WS ? NULL : &ws, k->null_arg == PR_NULL_EXEC ? NULL : &exec);
    const char *msg = aclGetRecentErrMsg();
    const struct pr_message phase1_msg = pr_message_of(msg);
    bool ok = msg != NULL && strlen(msg) > 0;
    if (st != code) {
        print_error("code %d, want %d; message \"%s\"\n", (int)st, (int)code, msg ? msg : "");
        ok = false;
    }
    va_list ap;
    va_start(ap, code);
    for (const char *needle = va_arg(ap, const char *); needle; needle = va_arg(ap, const char *)) {
        if (msg && !pr_contains(msg, needle)) {
            print_error("message \"%s\" does not mention \"%s\"\n", msg, needle);
            ok = false;
        }
    }
    va_end(ap);
    if (ws != PR_WS_SENTINEL || exec != PR_EXEC_SENTINEL) {
        print_error("phase 1 wrote an output although it failed\n");
        ok = false;
    }
    ok &= pr_same(b.x.buf, b.x0, b.x.bytes, "x storage");
    ok &= pr_same(b.c.buf, b.c0, b.c.bytes, "cos storage");
    ok &= pr_same(b.s.buf, b.s0, b.s.bytes, "sin storage");
    if (st == ACLNN_SUCCESS && exec != PR_EXEC_SENTINEL)
        aclDestroyAclOpExecutor(exec);
    ok &= pr_cann_refuses(op, k, &b, st, &phase1_msg);
    ok &= pr_same(b.x.buf, b.x0, b.x.bytes, "x storage after the CANN-rules plan");
    pr_free(&b);
    if (!ok)
        fail();
}

/* Phase 1 and 2 must succeed (workspace 0) on `stream`, and after synchronising x
 * must hold exactly the reference rotation of its slice (nothing else changed; a
 * no-op when the slice is empty or a tensor has no elements); cos/sin untouched. */
static inline void pr_expect_rotation_on(enum pr_op op, const struct pr_case *k,
                                         aclrtStream stream) {
    struct pr_built b;
    pr_build(k, &b);
    int64_t start = 0, len = 0;
    if (k->nslice == 2) {
        start = k->slice[0];
        len = k->slice[1] - k->slice[0];
    }
    bool empty = fx_numel(k->xd, k->xnd) == 0 || fx_numel(k->cd, k->cnd) == 0 ||
                 fx_numel(k->sd, k->snd) == 0;
    void *want = pr_dup(b.x.buf, b.x.bytes);
    if (len > 0 && !empty) {
        assert_true(len <= 64);
        fx_expect_rotation(&b.x, &b.c, &b.s, start, len, op == PR_GRAD, want);
        assert_true(memcmp(want, b.x0, b.x.bytes) != 0); /* the case must change x */
    }
    uint64_t ws = PR_WS_SENTINEL;
    aclOpExecutor *exec = NULL;
    aclnnStatus st = pr_phase1(op, b.x.t, b.c.t, b.s.t, k->mode, b.slice, &ws, &exec);
    if (st != ACLNN_SUCCESS)
        print_error("phase 1: %d \"%s\"\n", (int)st, aclGetRecentErrMsg());
    assert_int_equal(st, ACLNN_SUCCESS);
    assert_true(ws == 0);
    assert_non_null(exec);
    st = pr_phase2(op, exec, stream);
    if (st != ACLNN_SUCCESS)
        print_error("phase 2: %d \"%s\"\n", (int)st, aclGetRecentErrMsg());
    assert_int_equal(st, ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    pr_assert_same(b.x.buf, want, b.x.bytes, "x after rotation");
    pr_assert_same(b.c.buf, b.c0, b.c.bytes, "cos storage");
    pr_assert_same(b.s.buf, b.s0, b.s.bytes, "sin storage");
    /* The CANN-rules plan of the call, run on copies of the storages, writes the same. */
    void *x = pr_dup(b.x0, b.x.bytes);
    ropekit_plan *plan = NULL;
    int32_t code = -1;
    assert_int_equal(pr_cann_plan(op, k, &b, x, b.c0, b.s0, &plan, &code), ROPEKIT_OK);
    assert_int_equal(code, 0);
    assert_int_equal(ropekit_partial_rotary_execute(plan, pr_view_data(&b.x, x),
                                                    pr_view_data(&b.c, b.c0),
                                                    pr_view_data(&b.s, b.s0)),
                     ROPEKIT_OK);
    pr_assert_same(x, want, b.x.bytes, "x after the CANN-rules plan");
    ropekit_plan_destroy(plan);
    free(x);
    free(want);
    pr_free(&b);
}

static inline void pr_expect_rotation(enum pr_op op, const struct pr_case *k) {
    pr_expect_rotation_on(op, k, pr_stream);
}

static inline const char *pr_dtype_name(aclDataType dt) {
    switch (dt) {
    case ACL_FLOAT:
        return "f32";
    case ACL_FLOAT16:
        return "f16";
    case ACL_BF16:
        return "bf16";
    default:
        return "other";
    }
}

#endif /* ROPEKIT_TESTS_ACLNN_PR_HARNESS_H_ */
