/* Each validation rule is checked once per call: phase 1 (or plan creation) checks
 * everything it can, the launch (or execute) only the data bound since, the worker only
 * what the data holds (positions). Counts come from a build with ROPEKIT_COUNT_CHECKS (the
 * suite's ASan build); elsewhere the test is skipped (exit status 77). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb_v2.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"
#include "aclnnop/aclnn_interleave_rope.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache_v2.h"
#include "ops/apply_rotary/apply_rotary.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_rotary_position_embedding_v2.h"
#include "ops/rotary_matrix/rotary_matrix.h"
#include "ops/check_count.h"
#include "ops/partial_rotary/partial_rotary.h"
#include "ops/rope/rope.h"
#include "ropekit/ropekit.h"

enum { PR = RK_OP_PARTIAL_ROTARY, ROPE = RK_OP_ROPE, AR = RK_OP_APPLY_ROTARY };

/* Expected count per rule: `rules` have `n`, every other rule 0. */
static void expect_counts(int op, int count_of_rules, const int *rules, size_t nrules,
                          int rule_count, const char *when) {
    for (int r = 1; r < rule_count; r++) {
        unsigned want = 0;
        for (size_t i = 0; i < nrules; i++)
            if (rules[i] == r)
                want = (unsigned)count_of_rules;
        unsigned got = rk_check_count_of((enum rk_op_id)op, r);
        if (got != want)
            fail_msg("%s: rule %d checked %u times, expected %u", when, r, got, want);
    }
}

#define EXPECT(op, n, rules, count, when)                                                          \
    expect_counts(op, n, rules, sizeof(rules) / sizeof((rules)[0]), count, when)

static const int pr_forward_rules[] = {
    RK_PR_RULE_OUT_DTYPE,   RK_PR_RULE_OUT_SHAPE, RK_PR_RULE_NULL,     RK_PR_RULE_LAYOUT,
    RK_PR_RULE_DATA_NULL,   RK_PR_RULE_X_DTYPE,   RK_PR_RULE_CS_DTYPE, RK_PR_RULE_DTYPE_PAIR,
    RK_PR_RULE_RANK,        RK_PR_RULE_CS_SHAPE,  RK_PR_RULE_MODE,     RK_PR_RULE_SLICE_SIZE,
    RK_PR_RULE_SLICE_RANGE, RK_PR_RULE_MAX_D,     RK_PR_RULE_D_EVEN,   RK_PR_RULE_L_MULTIPLE,
    RK_PR_RULE_CS_LEN,      RK_PR_RULE_BROADCAST, RK_PR_RULE_OVERLAP,
};
static const int pr_bind_rules[] = {RK_PR_RULE_DATA_NULL, RK_PR_RULE_OVERLAP};

/* x [1, 2, 2, 8], cos/sin [1, 2, 1, 8], interleave over the whole row. */
struct pr_call {
    float x[32], cos[16], sin[16];
    aclTensor *tx, *tc, *ts;
    aclIntArray *slice;
};

static void pr_call_make(struct pr_call *c) {
    const int64_t xd[4] = {1, 2, 2, 8}, xs[4] = {32, 16, 8, 1};
    const int64_t cd[4] = {1, 2, 1, 8}, cs[4] = {16, 8, 8, 1};
    const int64_t slice[2] = {0, 8};
    for (int i = 0; i < 32; i++)
        c->x[i] = (float)i / 8.0f;
    for (int i = 0; i < 16; i++) {
        c->cos[i] = 0.5f;
        c->sin[i] = 0.25f;
    }
    c->tx = aclCreateTensor(xd, 4, ACL_FLOAT, xs, 0, ACL_FORMAT_ND, xd, 4, c->x);
    c->tc = aclCreateTensor(cd, 4, ACL_FLOAT, cs, 0, ACL_FORMAT_ND, cd, 4, c->cos);
    c->ts = aclCreateTensor(cd, 4, ACL_FLOAT, cs, 0, ACL_FORMAT_ND, cd, 4, c->sin);
    c->slice = aclCreateIntArray(slice, 2);
    assert_non_null(c->tx);
    assert_non_null(c->tc);
    assert_non_null(c->ts);
    assert_non_null(c->slice);
}

static void pr_call_free(struct pr_call *c) {
    aclDestroyTensor(c->tx);
    aclDestroyTensor(c->tc);
    aclDestroyTensor(c->ts);
    aclDestroyIntArray(c->slice);
}

static void test_aclnn_partial_rotary_checks_once(void **state) {
    (void)state;
    struct pr_call c;
    pr_call_make(&c);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    rk_check_count_reset();
    assert_int_equal(
        aclnnInplacePartialRotaryMulGetWorkspaceSize(c.tx, c.tc, c.ts, 1, c.slice, &ws, &e),
        ACLNN_SUCCESS);
    EXPECT(PR, 1, pr_forward_rules, RK_PR_RULE_COUNT, "phase 1");
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    EXPECT(PR, 1, pr_forward_rules, RK_PR_RULE_COUNT, "phase 1 + launch");

    /* A repeatable executor with a new address: the launch checks the data it binds. */
    rk_check_count_reset();
    assert_int_equal(
        aclnnInplacePartialRotaryMulGetWorkspaceSize(c.tx, c.tc, c.ts, 1, c.slice, &ws, &e),
        ACLNN_SUCCESS);
    assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    assert_int_equal(aclSetInputTensorAddr(e, 1, c.tc, c.cos), ACLNN_SUCCESS);
    rk_check_count_reset();
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMul(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    EXPECT(PR, 1, pr_bind_rules, RK_PR_RULE_COUNT, "two launches after one rebinding");
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    pr_call_free(&c);
}

static void test_aclnn_partial_rotary_grad_checks_once(void **state) {
    (void)state;
    static const int grad_rules[] = {
        RK_PR_RULE_OUT_DTYPE,  RK_PR_RULE_OUT_SHAPE,        RK_PR_RULE_NULL,
        RK_PR_RULE_LAYOUT,     RK_PR_RULE_DATA_NULL,        RK_PR_RULE_X_DTYPE,
        RK_PR_RULE_CS_DTYPE,   RK_PR_RULE_DTYPE_PAIR,       RK_PR_RULE_MODE,
        RK_PR_RULE_SLICE_SIZE, RK_PR_RULE_SLICE_RANGE,      RK_PR_RULE_RANK,
        RK_PR_RULE_CS_SHAPE,   RK_PR_RULE_CS_LEN_EXCEEDS_D, RK_PR_RULE_CS_LEN,
        RK_PR_RULE_MAX_D,      RK_PR_RULE_D_EVEN,           RK_PR_RULE_L_MULTIPLE,
        RK_PR_RULE_BROADCAST,  RK_PR_RULE_OVERLAP,
    };
    struct pr_call c;
    pr_call_make(&c);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    rk_check_count_reset();
    assert_int_equal(
        aclnnInplacePartialRotaryMulGradGetWorkspaceSize(c.tx, c.tc, c.ts, 1, c.slice, &ws, &e),
        ACLNN_SUCCESS);
    assert_int_equal(aclnnInplacePartialRotaryMulGrad(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    EXPECT(PR, 1, grad_rules, RK_PR_RULE_COUNT, "gradient phase 1 + launch");
    pr_call_free(&c);
}

/* mrope [16,24,24]: positions [3, 2], query/key [2, 128], cache [8, 128]. */
struct rope_call {
    int64_t pos[6];
    float q[256], k[256], cache[8 * 128], qo[256], ko[256];
};

static void rope_call_fill(struct rope_call *c) {
    for (int i = 0; i < 6; i++)
        c->pos[i] = i % 8;
    for (int i = 0; i < 256; i++) {
        c->q[i] = (float)(i % 17) / 16.0f;
        c->k[i] = (float)(i % 13) / 12.0f;
    }
    for (int i = 0; i < 8 * 128; i++)
        c->cache[i] = (float)(i % 11) / 10.0f;
}

static const int rope_aclnn_rules[] = {
    RK_ROPE_RULE_CACHE_MODE, RK_ROPE_RULE_NULL,          RK_ROPE_RULE_LAYOUT,
    RK_ROPE_RULE_DATA_NULL,  RK_ROPE_RULE_POS_DTYPE,     RK_ROPE_RULE_DTYPE,
    RK_ROPE_RULE_RANK,       RK_ROPE_RULE_EMPTY,         RK_ROPE_RULE_TOKENS,
    RK_ROPE_RULE_OUT_SHAPE,  RK_ROPE_RULE_SECTIONS,      RK_ROPE_RULE_SECTION_VALUES,
    RK_ROPE_RULE_HEAD_SIZE,  RK_ROPE_RULE_MODE_SECTIONS, RK_ROPE_RULE_HEADS,
    RK_ROPE_RULE_ALIGN,      RK_ROPE_RULE_ROT_DIM,       RK_ROPE_RULE_POS_SHAPE,
    RK_ROPE_RULE_OVERLAP,
};
static const int rope_launch_rules[] = {
    RK_ROPE_RULE_CACHE_MODE, RK_ROPE_RULE_NULL,          RK_ROPE_RULE_LAYOUT,
    RK_ROPE_RULE_DATA_NULL,  RK_ROPE_RULE_POS_DTYPE,     RK_ROPE_RULE_DTYPE,
    RK_ROPE_RULE_RANK,       RK_ROPE_RULE_EMPTY,         RK_ROPE_RULE_TOKENS,
    RK_ROPE_RULE_OUT_SHAPE,  RK_ROPE_RULE_SECTIONS,      RK_ROPE_RULE_SECTION_VALUES,
    RK_ROPE_RULE_HEAD_SIZE,  RK_ROPE_RULE_MODE_SECTIONS, RK_ROPE_RULE_HEADS,
    RK_ROPE_RULE_ALIGN,      RK_ROPE_RULE_ROT_DIM,       RK_ROPE_RULE_POS_SHAPE,
    RK_ROPE_RULE_OVERLAP,    RK_ROPE_RULE_POS_RANGE,
};

static void test_aclnn_rope_checks_once(void **state) {
    (void)state;
    static struct rope_call c;
    rope_call_fill(&c);
    const int64_t pd[2] = {3, 2}, xd[2] = {2, 128}, cd[2] = {8, 128}, sec[3] = {16, 24, 24};
    aclTensor *pos = aclCreateTensor(pd, 2, ACL_INT64, NULL, 0, ACL_FORMAT_ND, pd, 2, c.pos);
    aclTensor *q = aclCreateTensor(xd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, xd, 2, c.q);
    aclTensor *k = aclCreateTensor(xd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, xd, 2, c.k);
    aclTensor *cache = aclCreateTensor(cd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, cd, 2, c.cache);
    aclTensor *qo = aclCreateTensor(xd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, xd, 2, c.qo);
    aclTensor *ko = aclCreateTensor(xd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, xd, 2, c.ko);
    aclIntArray *sections = aclCreateIntArray(sec, 3);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    rk_check_count_reset();
    assert_int_equal(aclnnRopeWithSinCosCacheV2GetWorkspaceSize(pos, q, k, cache, sections, 128,
                                                                true, 0, qo, ko, &ws, &e),
                     ACLNN_SUCCESS);
    EXPECT(ROPE, 1, rope_aclnn_rules, RK_ROPE_RULE_COUNT, "phase 1");
    assert_int_equal(aclnnRopeWithSinCosCacheV2(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    /* the launch adds only the positions' values, which the worker reads */
    EXPECT(ROPE, 1, rope_launch_rules, RK_ROPE_RULE_COUNT, "phase 1 + launch");
    aclDestroyTensor(pos);
    aclDestroyTensor(q);
    aclDestroyTensor(k);
    aclDestroyTensor(cache);
    aclDestroyTensor(qo);
    aclDestroyTensor(ko);
    aclDestroyIntArray(sections);
}

static void test_native_rope_checks_once(void **state) {
    (void)state;
    static const int create_rules[] = {
        RK_ROPE_RULE_CACHE_MODE,     RK_ROPE_RULE_NULL,      RK_ROPE_RULE_LAYOUT,
        RK_ROPE_RULE_POS_DTYPE,      RK_ROPE_RULE_DTYPE,     RK_ROPE_RULE_RANK,
        RK_ROPE_RULE_TOKENS,         RK_ROPE_RULE_OUT_SHAPE, RK_ROPE_RULE_SECTIONS,
        RK_ROPE_RULE_SECTION_VALUES, RK_ROPE_RULE_HEAD_SIZE, RK_ROPE_RULE_MODE_SECTIONS,
        RK_ROPE_RULE_HEADS,          RK_ROPE_RULE_ROT_DIM,   RK_ROPE_RULE_POS_SHAPE,
        RK_ROPE_RULE_OVERLAP,
    };
    static const int execute_rules[] = {RK_ROPE_RULE_DATA_NULL, RK_ROPE_RULE_OVERLAP,
                                        RK_ROPE_RULE_POS_RANGE};
    static struct rope_call c;
    rope_call_fill(&c);
    const int64_t sec[3] = {16, 24, 24};
    ropekit_tensor pos = {.dtype = ROPEKIT_I64, .ndim = 2, .shape = {3, 2}, .strides = {2, 1}};
    ropekit_tensor x = {.dtype = ROPEKIT_F32, .ndim = 2, .shape = {2, 128}, .strides = {128, 1}};
    ropekit_tensor cache = {
        .dtype = ROPEKIT_F32, .ndim = 2, .shape = {8, 128}, .strides = {128, 1}};
    const ropekit_rope_config cfg = {
        .head_size = 128, .style = ROPEKIT_ROPE_NEOX, .sections = sec, .num_sections = 3};
    ropekit_plan *plan = NULL;
    rk_check_count_reset();
    assert_int_equal(ropekit_rope_plan_create(&pos, &x, &x, &cache, &x, &x, &cfg, &plan),
                     ROPEKIT_OK);
    EXPECT(ROPE, 1, create_rules, RK_ROPE_RULE_COUNT, "plan create");
    rk_check_count_reset();
    for (int run = 1; run <= 2; run++) {
        assert_int_equal(ropekit_rope_execute(plan, c.pos, c.q, c.k, c.cache, c.qo, c.ko),
                         ROPEKIT_OK);
        EXPECT(ROPE, run, execute_rules, RK_ROPE_RULE_COUNT, "execute");
    }
    ropekit_plan_destroy(plan);
}

static void test_native_partial_rotary_checks_once(void **state) {
    (void)state;
    static const int create_rules[] = {
        RK_PR_RULE_OUT_DTYPE, RK_PR_RULE_OUT_SHAPE, RK_PR_RULE_NULL,       RK_PR_RULE_LAYOUT,
        RK_PR_RULE_X_DTYPE,   RK_PR_RULE_CS_DTYPE,  RK_PR_RULE_DTYPE_PAIR, RK_PR_RULE_RANK,
        RK_PR_RULE_CS_SHAPE,  RK_PR_RULE_MODE,      RK_PR_RULE_SLICE_SIZE, RK_PR_RULE_SLICE_RANGE,
        RK_PR_RULE_MAX_D,     RK_PR_RULE_D_EVEN,    RK_PR_RULE_L_MULTIPLE, RK_PR_RULE_CS_LEN,
        RK_PR_RULE_BROADCAST, RK_PR_RULE_OVERLAP,
    };
    float xs[32], cs[16], sn[16];
    for (int i = 0; i < 32; i++)
        xs[i] = (float)i;
    for (int i = 0; i < 16; i++)
        cs[i] = sn[i] = 0.5f;
    ropekit_tensor x = {
        .dtype = ROPEKIT_F32, .ndim = 4, .shape = {1, 2, 2, 8}, .strides = {32, 16, 8, 1}};
    ropekit_tensor c = {
        .dtype = ROPEKIT_F32, .ndim = 4, .shape = {1, 2, 1, 8}, .strides = {16, 8, 8, 1}};
    ropekit_plan *plan = NULL;
    rk_check_count_reset();
    assert_int_equal(ropekit_partial_rotary_plan_create(&x, &c, &c, ROPEKIT_ROTARY_HALF, 0, 8,
                                                        ROPEKIT_FORWARD, &plan),
                     ROPEKIT_OK);
    EXPECT(PR, 1, create_rules, RK_PR_RULE_COUNT, "plan create");
    rk_check_count_reset();
    assert_int_equal(ropekit_partial_rotary_execute(plan, xs, cs, sn), ROPEKIT_OK);
    EXPECT(PR, 1, pr_bind_rules, RK_PR_RULE_COUNT, "execute");
    ropekit_plan_destroy(plan);
    /* out of place: the same rules, once each */
    float os[32];
    ropekit_tensor o = x;
    rk_check_count_reset();
    assert_int_equal(ropekit_partial_rotary_out_plan_create(&x, &c, &c, &o, ROPEKIT_ROTARY_HALF, 0,
                                                            8, ROPEKIT_FORWARD, &plan),
                     ROPEKIT_OK);
    EXPECT(PR, 1, create_rules, RK_PR_RULE_COUNT, "out-of-place plan create");
    rk_check_count_reset();
    assert_int_equal(ropekit_partial_rotary_out_execute(plan, xs, cs, sn, os), ROPEKIT_OK);
    EXPECT(PR, 1, pr_bind_rules, RK_PR_RULE_COUNT, "out-of-place execute");
    ropekit_plan_destroy(plan);
}

/* aclnnRotaryPositionEmbedding: its order has no CS_LEN_EXCEEDS_D and no slice rules
 * beyond the range (the slice is the whole row). */
static void test_aclnn_rotary_position_embedding_checks_once(void **state) {
    (void)state;
    static const int rpe_rules[] = {
        RK_PR_RULE_NULL,        RK_PR_RULE_LAYOUT,     RK_PR_RULE_DATA_NULL, RK_PR_RULE_X_DTYPE,
        RK_PR_RULE_CS_DTYPE,    RK_PR_RULE_DTYPE_PAIR, RK_PR_RULE_OUT_DTYPE, RK_PR_RULE_SLICE_SIZE,
        RK_PR_RULE_SLICE_RANGE, RK_PR_RULE_MODE,       RK_PR_RULE_RANK,      RK_PR_RULE_CS_SHAPE,
        RK_PR_RULE_OUT_SHAPE,   RK_PR_RULE_MAX_D,      RK_PR_RULE_D_EVEN,    RK_PR_RULE_CS_LEN,
        RK_PR_RULE_L_MULTIPLE,  RK_PR_RULE_BROADCAST,  RK_PR_RULE_OVERLAP,
    };
    struct pr_call c;
    pr_call_make(&c);
    float out[32];
    const int64_t xd[4] = {1, 2, 2, 8}, xs[4] = {32, 16, 8, 1};
    aclTensor *to = aclCreateTensor(xd, 4, ACL_FLOAT, xs, 0, ACL_FORMAT_ND, xd, 4, out);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    rk_check_count_reset();
    assert_int_equal(aclnnRotaryPositionEmbeddingGetWorkspaceSize(c.tx, c.tc, c.ts, 2, to, &ws, &e),
                     ACLNN_SUCCESS);
    assert_int_equal(aclnnRotaryPositionEmbedding(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    EXPECT(PR, 1, rpe_rules, RK_PR_RULE_COUNT, "phase 1 + launch");
    /* a rebound output is checked at the launch, once */
    assert_int_equal(aclnnRotaryPositionEmbeddingGetWorkspaceSize(c.tx, c.tc, c.ts, 2, to, &ws, &e),
                     ACLNN_SUCCESS);
    assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    assert_int_equal(aclSetOutputTensorAddr(e, 0, to, out), ACLNN_SUCCESS);
    rk_check_count_reset();
    assert_int_equal(aclnnRotaryPositionEmbedding(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclnnRotaryPositionEmbedding(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    EXPECT(PR, 1, pr_bind_rules, RK_PR_RULE_COUNT, "two launches after one rebinding");
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    aclDestroyTensor(to);
    pr_call_free(&c);
}

/* aclnnRotaryPositionEmbeddingV2 with a rotate matrix: every rule of the rotary-matrix
 * operator once in phase 1, nothing at the launch. */
static void test_aclnn_rotary_matrix_checks_once(void **state) {
    (void)state;
    static const int rm_rules[] = {
        RK_RM_RULE_NULL,   RK_RM_RULE_LAYOUT,    RK_RM_RULE_DATA_NULL, RK_RM_RULE_X_DTYPE,
        RK_RM_RULE_DTYPE,  RK_RM_RULE_MODE,      RK_RM_RULE_RANK,      RK_RM_RULE_OUT_SHAPE,
        RK_RM_RULE_MAX_D,  RK_RM_RULE_D_EVEN,    RK_RM_RULE_CS_SHAPE,  RK_RM_RULE_ROTATE_SHAPE,
        RK_RM_RULE_CS_LEN, RK_RM_RULE_BROADCAST, RK_RM_RULE_OVERLAP,
    };
    struct pr_call c;
    pr_call_make(&c);
    float out[32], rot[64] = {0};
    const int64_t xd[4] = {1, 2, 2, 8}, xs[4] = {32, 16, 8, 1}, rd[2] = {8, 8}, rs[2] = {8, 1};
    aclTensor *to = aclCreateTensor(xd, 4, ACL_FLOAT, xs, 0, ACL_FORMAT_ND, xd, 4, out);
    aclTensor *tr = aclCreateTensor(rd, 2, ACL_FLOAT, rs, 0, ACL_FORMAT_ND, rd, 2, rot);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    rk_check_count_reset();
    assert_int_equal(
        aclnnRotaryPositionEmbeddingV2GetWorkspaceSize(c.tx, c.tc, c.ts, 0, tr, to, &ws, &e),
        ACLNN_SUCCESS);
    assert_int_equal(aclnnRotaryPositionEmbeddingV2(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    EXPECT(RK_OP_ROTARY_MATRIX, 1, rm_rules, RK_RM_RULE_COUNT, "phase 1 + launch");
    aclDestroyTensor(tr);
    aclDestroyTensor(to);
    pr_call_free(&c);
}

/* aclnnInterleaveRope: x [1, 2, 2, 64], cos/sin [1, 1, 2, 64] f16; its order checks the
 * empty x and D = 64, not the mode, D's bound or parity. */
static void test_aclnn_interleave_rope_checks_once(void **state) {
    (void)state;
    static const int ir_rules[] = {
        RK_PR_RULE_NULL,        RK_PR_RULE_LAYOUT,     RK_PR_RULE_DATA_NULL, RK_PR_RULE_X_DTYPE,
        RK_PR_RULE_CS_DTYPE,    RK_PR_RULE_DTYPE_PAIR, RK_PR_RULE_OUT_DTYPE, RK_PR_RULE_SLICE_SIZE,
        RK_PR_RULE_SLICE_RANGE, RK_PR_RULE_RANK,       RK_PR_RULE_CS_SHAPE,  RK_PR_RULE_OUT_SHAPE,
        RK_PR_RULE_EMPTY_X,     RK_PR_RULE_D_VALUE,    RK_PR_RULE_BROADCAST, RK_PR_RULE_CS_LEN,
        RK_PR_RULE_OVERLAP,
    };
    static uint16_t x[256], cs[128], sn[128], out[256];
    for (int i = 0; i < 256; i++)
        x[i] = (uint16_t)(0x3c00 + i % 16);
    for (int i = 0; i < 128; i++)
        cs[i] = 0x3800, sn[i] = 0x3400;
    const int64_t xd[4] = {1, 2, 2, 64}, cd[4] = {1, 1, 2, 64};
    aclTensor *tx = aclCreateTensor(xd, 4, ACL_FLOAT16, NULL, 0, ACL_FORMAT_ND, xd, 4, x);
    aclTensor *tc = aclCreateTensor(cd, 4, ACL_FLOAT16, NULL, 0, ACL_FORMAT_ND, cd, 4, cs);
    aclTensor *ts = aclCreateTensor(cd, 4, ACL_FLOAT16, NULL, 0, ACL_FORMAT_ND, cd, 4, sn);
    aclTensor *to = aclCreateTensor(xd, 4, ACL_FLOAT16, NULL, 0, ACL_FORMAT_ND, xd, 4, out);
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    rk_check_count_reset();
    assert_int_equal(aclnnInterleaveRopeGetWorkspaceSize(tx, tc, ts, to, &ws, &e), ACLNN_SUCCESS);
    assert_int_equal(aclnnInterleaveRope(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    EXPECT(PR, 1, ir_rules, RK_PR_RULE_COUNT, "phase 1 + launch");
    /* a rebound output is checked at the launch, once */
    assert_int_equal(aclnnInterleaveRopeGetWorkspaceSize(tx, tc, ts, to, &ws, &e), ACLNN_SUCCESS);
    assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    assert_int_equal(aclSetOutputTensorAddr(e, 0, to, out), ACLNN_SUCCESS);
    rk_check_count_reset();
    assert_int_equal(aclnnInterleaveRope(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclnnInterleaveRope(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    EXPECT(PR, 1, pr_bind_rules, RK_PR_RULE_COUNT, "two launches after one rebinding");
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    aclDestroyTensor(tx);
    aclDestroyTensor(tc);
    aclDestroyTensor(ts);
    aclDestroyTensor(to);
}

/* ApplyRotaryPosEmbV2: q [1, 2, 2, 128], k [1, 2, 1, 128], cos/sin [1, 2, 1, 128] f32,
 * BSND, "half". Its plan is made of partial-rotary row plans, which check no rule of
 * their own. */
static void test_aclnn_apply_rotary_checks_once(void **state) {
    (void)state;
    static const int phase1_rules[] = {
        RK_AR_RULE_NULL,         RK_AR_RULE_LAYOUT,     RK_AR_RULE_DATA_NULL, RK_AR_RULE_Q_DTYPE,
        RK_AR_RULE_DTYPE,        RK_AR_RULE_RANK,       RK_AR_RULE_CS_SHAPE,  RK_AR_RULE_EMPTY,
        RK_AR_RULE_LAYOUT_VALUE, RK_AR_RULE_MODE,       RK_AR_RULE_QK_SHAPE,  RK_AR_RULE_CS_DIMS,
        RK_AR_RULE_D_VALUE,      RK_AR_RULE_D_MULTIPLE, RK_AR_RULE_CS_N,      RK_AR_RULE_BROADCAST,
        RK_AR_RULE_OVERLAP,
    };
    static const int bind_rules[] = {RK_AR_RULE_DATA_NULL, RK_AR_RULE_OVERLAP};
    static const int none[] = {0};
    static float q[512], k[256], cs[256], sn[256];
    for (int i = 0; i < 512; i++)
        q[i] = (float)(i % 9) / 8.0f;
    for (int i = 0; i < 256; i++)
        k[i] = (float)(i % 7) / 6.0f, cs[i] = 0.5f, sn[i] = 0.25f;
    const int64_t qd[4] = {1, 2, 2, 128}, kd[4] = {1, 2, 1, 128};
    aclTensor *tq = aclCreateTensor(qd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, qd, 4, q);
    aclTensor *tk = aclCreateTensor(kd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, kd, 4, k);
    aclTensor *tc = aclCreateTensor(kd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, kd, 4, cs);
    aclTensor *ts = aclCreateTensor(kd, 4, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, kd, 4, sn);
    char mode[] = "half";
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    rk_check_count_reset();
    assert_int_equal(aclnnApplyRotaryPosEmbV2GetWorkspaceSize(tq, tk, tc, ts, 1, mode, &ws, &e),
                     ACLNN_SUCCESS);
    EXPECT(AR, 1, phase1_rules, RK_AR_RULE_COUNT, "phase 1");
    assert_int_equal(aclnnApplyRotaryPosEmbV2(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    EXPECT(AR, 1, phase1_rules, RK_AR_RULE_COUNT, "phase 1 + launch");
    expect_counts(PR, 1, none, 0, RK_PR_RULE_COUNT, "partial-rotary rules of phase 1");

    /* A repeatable executor with a new cos address: the launch checks what it binds. */
    assert_int_equal(aclnnApplyRotaryPosEmbV2GetWorkspaceSize(tq, tk, tc, ts, 1, mode, &ws, &e),
                     ACLNN_SUCCESS);
    assert_int_equal(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
    assert_int_equal(aclSetInputTensorAddr(e, 2, tc, cs), ACLNN_SUCCESS);
    rk_check_count_reset();
    assert_int_equal(aclnnApplyRotaryPosEmbV2(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclnnApplyRotaryPosEmbV2(NULL, 0, e, NULL), ACLNN_SUCCESS);
    assert_int_equal(aclrtSynchronizeStream(NULL), ACL_SUCCESS);
    EXPECT(AR, 1, bind_rules, RK_AR_RULE_COUNT, "two launches after one rebinding");
    assert_int_equal(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
    aclDestroyTensor(tq);
    aclDestroyTensor(tk);
    aclDestroyTensor(tc);
    aclDestroyTensor(ts);
}

static void test_native_apply_rotary_checks_once(void **state) {
    (void)state;
    static const int create_rules[] = {
        RK_AR_RULE_NULL,       RK_AR_RULE_LAYOUT,    RK_AR_RULE_Q_DTYPE, RK_AR_RULE_DTYPE,
        RK_AR_RULE_RANK,       RK_AR_RULE_CS_SHAPE,  RK_AR_RULE_MODE,    RK_AR_RULE_CS_DIMS,
        RK_AR_RULE_D_MULTIPLE, RK_AR_RULE_BROADCAST, RK_AR_RULE_OVERLAP,
    };
    static const int bind_rules[] = {RK_AR_RULE_DATA_NULL, RK_AR_RULE_OVERLAP};
    float q[32], k[16], cs[16], sn[16];
    for (int i = 0; i < 32; i++)
        q[i] = (float)i;
    for (int i = 0; i < 16; i++)
        k[i] = (float)i, cs[i] = sn[i] = 0.5f;
    ropekit_tensor tq = {
        .dtype = ROPEKIT_F32, .ndim = 4, .shape = {1, 2, 2, 8}, .strides = {32, 16, 8, 1}};
    ropekit_tensor tk = {
        .dtype = ROPEKIT_F32, .ndim = 4, .shape = {1, 2, 1, 8}, .strides = {16, 8, 8, 1}};
    ropekit_plan *plan = NULL;
    rk_check_count_reset();
    assert_int_equal(ropekit_apply_rotary_plan_create(&tq, &tk, &tk, &tk, ROPEKIT_ROTARY_HALF,
                                                      ROPEKIT_FORWARD, &plan),
                     ROPEKIT_OK);
    EXPECT(AR, 1, create_rules, RK_AR_RULE_COUNT, "plan create");
    rk_check_count_reset();
    assert_int_equal(ropekit_apply_rotary_execute(plan, q, k, cs, sn), ROPEKIT_OK);
    EXPECT(AR, 1, bind_rules, RK_AR_RULE_COUNT, "execute");
    ropekit_plan_destroy(plan);
}

static int setup(void **state) {
    (void)state;
    return aclInit(NULL) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    return aclrtResetDevice(0) == ACL_SUCCESS && aclFinalize() == ACL_SUCCESS ? 0 : -1;
}

int main(void) {
    if (!rk_check_counting())
        return 77; /* skipped: this build does not count checks */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aclnn_partial_rotary_checks_once),
        cmocka_unit_test(test_aclnn_partial_rotary_grad_checks_once),
        cmocka_unit_test(test_aclnn_rope_checks_once),
        cmocka_unit_test(test_native_rope_checks_once),
        cmocka_unit_test(test_native_partial_rotary_checks_once),
        cmocka_unit_test(test_aclnn_apply_rotary_checks_once),
        cmocka_unit_test(test_native_apply_rotary_checks_once),
        cmocka_unit_test(test_aclnn_rotary_position_embedding_checks_once),
        cmocka_unit_test(test_aclnn_rotary_matrix_checks_once),
        cmocka_unit_test(test_aclnn_interleave_rope_checks_once),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
