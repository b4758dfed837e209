/* The native rope's mrope coefficient layouts of cache modes 2 (ERNIE-4.5-VL) and 3
 * (openPangu-VL) read off as the position row feeding each coefficient, against the
 * sequences the models' published code gives; the same bytes on every thread count and
 * kernel set (a width past the stack scratch included); the section rules of each mode,
 * with nothing written; a plan that owns its rows through create, execute and destroy. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ropekit/ropekit.h"
#include "testkit/everywhere.h"

enum { MAX_POS = 8 };

/* A cache whose row p is cos = p, sin = 0: NeoX and GPT-J both turn an all-ones head
 * into the position feeding each coefficient (in its first element of the pair). */
static float *tag_cache(int64_t rot) {
    float *cache = calloc((size_t)(MAX_POS * rot), sizeof(float));
    assert_non_null(cache);
    for (int64_t p = 0; p < MAX_POS; p++)
        for (int64_t j = 0; j < rot / 2; j++)
            cache[p * rot + j] = (float)p;
    return cache;
}

/* The rows feeding the coefficients of one token whose position row k holds k + 1, as
 * digits "0".."2". */
static void layout_of(int64_t mode, const int64_t *sections, int32_t nsec, bool gptj, char *rows) {
    int64_t h = 0;
    for (int32_t k = 0; k < nsec; k++)
        h += sections[k];
    const int64_t rot = 2 * h, hs = rot + 2;
    float *cache = tag_cache(rot), *q = malloc((size_t)hs * sizeof(float));
    assert_non_null(q);
    for (int64_t i = 0; i < hs; i++)
        q[i] = 1.0f;
    int64_t pos[3] = {1, 2, 3};
    const int64_t ps[2] = {nsec, 1}, qs[2] = {1, hs}, cs[2] = {MAX_POS, rot};
    ropekit_tensor pt = ropekit_tensor_make(pos, ROPEKIT_I64, 2, ps, NULL);
    ropekit_tensor qt = ropekit_tensor_make(q, ROPEKIT_F32, 2, qs, NULL);
    ropekit_tensor ct = ropekit_tensor_make(cache, ROPEKIT_F32, 2, cs, NULL);
    ropekit_rope_config cfg = {.head_size = hs,
                               .style = gptj ? ROPEKIT_ROPE_GPTJ : ROPEKIT_ROPE_NEOX,
                               .sections = sections,
                               .num_sections = nsec,
                               .cache_mode = mode};
    assert_int_equal(ropekit_rope(&pt, &qt, NULL, &ct, &qt, NULL, &cfg), ROPEKIT_OK);
    for (int64_t j = 0; j < h; j++)
        rows[j] = (char)('0' + (int)q[gptj ? 2 * j : j] - 1);
    rows[h] = '\0';
    free(q);
    free(cache);
}

static void expect_layout(int64_t mode, const int64_t *sections, int32_t nsec, const char *want) {
    char got[128];
    for (int gptj = 0; gptj < 2; gptj++) {
        layout_of(mode, sections, nsec, gptj, got);
        if (strcmp(got, want) != 0)
            fail_msg("cache mode %lld %s: rows %s, want %s", (long long)mode,
                     gptj ? "gptj" : "neox", got, want);
    }
}

/* vLLM's Ernie4_5_VLRotaryEmbedding: sections (h, w, t), [h w h w ... t t t]. */
static void ernie_layout(void **state) {
    (void)state;
    expect_layout(ROPEKIT_MROPE_ERNIE_VL, (const int64_t[]){22, 22, 20}, 3,
                  "12121212121212121212121212121212121212121212"
                  "00000000000000000000");
    expect_layout(ROPEKIT_MROPE_ERNIE_VL, (const int64_t[]){3, 3, 1}, 3, "1212120");
    expect_layout(ROPEKIT_MROPE_ERNIE_VL, (const int64_t[]){1, 1, 0}, 3, "12");
}

/* vLLM's MRotaryEmbeddingInterleaved (get_mrope_interleaved_id_list) on these sections. */
static void pangu_layout(void **state) {
    (void)state;
    expect_layout(ROPEKIT_MROPE_PANGU_VL, (const int64_t[]){24, 20, 20}, 3,
                  "0120120120120120120120102012012012012012012010201201201201201200");
    expect_layout(ROPEKIT_MROPE_PANGU_VL, (const int64_t[]){11, 11, 10}, 3,
                  "01210210210210210210210210210210");
    expect_layout(ROPEKIT_MROPE_PANGU_VL, (const int64_t[]){4, 1, 2}, 3, "0120200");
    expect_layout(ROPEKIT_MROPE_PANGU_VL, (const int64_t[]){1, 1, 1}, 3, "120");
    expect_layout(ROPEKIT_MROPE_PANGU_VL, (const int64_t[]){2, 5}, 2, "0101111");
    expect_layout(ROPEKIT_MROPE_PANGU_VL, (const int64_t[]){5, 0}, 2, "00000");
}

static float rng_float(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (float)((double)(*s >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

struct mrope_run {
    int64_t mode;
    int64_t out_shape[2];
    ropekit_tensor pt, qt, ct;
    ropekit_rope_config cfg;
    const int64_t *pos;
    const uint16_t *q;
    const float *cache;
};

static void mrope_run_compute(void *ctx, void *out) {
    const struct mrope_run *r = ctx;
    const ropekit_tensor ot = ropekit_tensor_make(out, ROPEKIT_BF16, 2, r->out_shape, NULL);
    ropekit_plan *plan = NULL;
    assert_int_equal(
        ropekit_rope_plan_create(&r->pt, &r->qt, NULL, &r->ct, &ot, NULL, &r->cfg, &plan),
        ROPEKIT_OK);
    char text[512];
    ropekit_plan_describe(plan, text, sizeof text);
    assert_non_null(strstr(text, r->mode == 2 ? "cache_mode=2" : "cache_mode=3"));
    assert_int_equal(ropekit_rope_execute(plan, r->pos, r->q, NULL, r->cache, out, NULL),
                     ROPEKIT_OK);
    ropekit_plan_destroy(plan);
}

/* Random data over many tasks through a plan: the same bytes on 1, 2 and the default
 * threads and on every kernel set, bf16 query/key with a float32 cache. */
static void run_everywhere(int64_t mode, const int64_t *sections, int32_t nsec, int64_t tokens) {
    int64_t h = 0;
    for (int32_t k = 0; k < nsec; k++)
        h += sections[k];
    const int64_t rot = 2 * h, hs = rot + 3, heads = 3, width = heads * hs;
    uint64_t seed = 0x9E3779B97F4A7C15ULL ^ (uint64_t)(mode * 131 + h);
    const size_t n = (size_t)(tokens * width);
    uint16_t *q = malloc(n * 2);
    float *cache = malloc((size_t)(MAX_POS * rot) * sizeof(float));
    int64_t *pos = malloc((size_t)(nsec * tokens) * sizeof(int64_t));
    assert_true(q && cache && pos);
    for (size_t i = 0; i < n; i++) {
        const float v = rng_float(&seed);
        uint32_t bits;
        memcpy(&bits, &v, 4);
        q[i] = (uint16_t)(bits >> 16);
    }
    for (int64_t i = 0; i < MAX_POS * rot; i++)
        cache[i] = rng_float(&seed);
    for (int64_t i = 0; i < nsec * tokens; i++)
        pos[i] = (int64_t)((rng_float(&seed) + 1.0f) * (MAX_POS / 2 - 0.01f));
    const int64_t ps[2] = {nsec, tokens}, qs[2] = {tokens, width}, cs[2] = {MAX_POS, rot};
    const struct mrope_run run = {
        .mode = mode,
        .out_shape = {tokens, width},
        .pt = ropekit_tensor_make(pos, ROPEKIT_I64, 2, ps, NULL),
        .qt = ropekit_tensor_make(q, ROPEKIT_BF16, 2, qs, NULL),
        .ct = ropekit_tensor_make(cache, ROPEKIT_F32, 2, cs, NULL),
        .cfg = {.head_size = hs, .sections = sections, .num_sections = nsec, .cache_mode = mode},
        .pos = pos,
        .q = q,
        .cache = cache};
    static const int threads[] = {0, 1, 2};
    tk_everywhere_diff diff;
    if (!tk_same_bytes_everywhere(mrope_run_compute, (void *)&run, n * 2, threads, 3, &diff))
        fail_msg("cache mode %lld h %lld: isa %d threads %d differ", (long long)mode, (long long)h,
                 diff.isa, diff.threads);
    free(q);
    free(cache);
    free(pos);
}

static void threads_and_isas_identical(void **state) {
    (void)state;
    run_everywhere(ROPEKIT_MROPE_ERNIE_VL, (const int64_t[]){11, 11, 9}, 3, 700);
    run_everywhere(ROPEKIT_MROPE_PANGU_VL, (const int64_t[]){9, 7, 7}, 3, 700);
    run_everywhere(ROPEKIT_MROPE_PANGU_VL, (const int64_t[]){13, 8}, 2, 700);
    /* 2h float32 coefficients beyond the task's stack scratch */
    run_everywhere(ROPEKIT_MROPE_ERNIE_VL, (const int64_t[]){1100, 1100, 901}, 3, 3);
    run_everywhere(ROPEKIT_MROPE_PANGU_VL, (const int64_t[]){1001, 1100, 1000}, 3, 3);
}

/* A refused configuration leaves the query untouched and names its rule. */
static void expect_refused(int64_t mode, const int64_t *sections, int32_t nsec, const char *text) {
    int64_t h = 0;
    for (int32_t k = 0; k < nsec; k++)
        h += sections[k] > 0 ? sections[k] : 0;
    const int64_t rot = 2 * (h > 0 ? h : 1), hs = rot;
    float *cache = tag_cache(rot), q[64], before[64];
    assert_true(hs <= 64);
    for (int64_t i = 0; i < hs; i++)
        q[i] = before[i] = (float)i;
    int64_t pos[4] = {1, 2, 3, 4};
    const int64_t ps[2] = {nsec, 1}, qs[2] = {1, hs}, cs[2] = {MAX_POS, rot};
    ropekit_tensor pt = ropekit_tensor_make(pos, ROPEKIT_I64, 2, ps, NULL);
    ropekit_tensor qt = ropekit_tensor_make(q, ROPEKIT_F32, 2, qs, NULL);
    ropekit_tensor ct = ropekit_tensor_make(cache, ROPEKIT_F32, 2, cs, NULL);
    ropekit_rope_config cfg = {
        .head_size = hs, .sections = sections, .num_sections = nsec, .cache_mode = mode};
    const ropekit_status st = ropekit_rope(&pt, &qt, NULL, &ct, &qt, NULL, &cfg);
    if (st != ROPEKIT_INVALID_ARGUMENT || !strstr(ropekit_last_error(), text))
        fail_msg("cache mode %lld: status %s, message \"%s\", want \"%s\"", (long long)mode,
                 ropekit_status_name(st), ropekit_last_error(), text);
    assert_memory_equal(q, before, sizeof(float) * (size_t)hs);
    ropekit_plan *plan = NULL;
    assert_int_equal(ropekit_rope_plan_create(&pt, &qt, NULL, &ct, &qt, NULL, &cfg, &plan), st);
    assert_null(plan);
    free(cache);
}

static void section_rules(void **state) {
    (void)state;
    static const char ernie[] = "ERNIE-4.5-VL mrope needs 3 sections (h, w, t) with h == w";
    static const char pangu[] = "openPangu-VL interleaved mrope needs 2 sections (h, w) or 3";
    expect_refused(ROPEKIT_MROPE_ERNIE_VL, (const int64_t[]){4, 3, 3}, 3, ernie);
    expect_refused(ROPEKIT_MROPE_ERNIE_VL, (const int64_t[]){4, 4}, 2, ernie);
    expect_refused(ROPEKIT_MROPE_ERNIE_VL, (const int64_t[]){2, 2, 2, 2}, 4, ernie);
    expect_refused(ROPEKIT_MROPE_ERNIE_VL, (const int64_t[]){4, 3, 4}, 3,
                   "mropeSection = [4,3,4]: ERNIE");
    expect_refused(ROPEKIT_MROPE_PANGU_VL, (const int64_t[]){6}, 1, pangu);
    expect_refused(ROPEKIT_MROPE_PANGU_VL, (const int64_t[]){2, 2, 2, 2}, 4, pangu);
    expect_refused(4, (const int64_t[]){4, 4, 4}, 3, "cacheMode = 4: must be 0 (sectioned), 1");
    expect_refused(-1, (const int64_t[]){4, 4, 4}, 3, "cacheMode = -1");
    /* the sum comes first, as for the other modes */
    expect_refused(ROPEKIT_MROPE_ERNIE_VL, (const int64_t[]){4, 3, -1}, 3, "must be >= 0");
}

/* Plain rope (sections[0] == 0) takes modes 2 and 3 as it takes 1: ignored. No tokens:
 * a no-op plan that holds no rows. */
static void rope_and_empty(void **state) {
    (void)state;
    float *cache = tag_cache(8), q[8];
    for (int i = 0; i < 8; i++)
        q[i] = 1.0f;
    int64_t pos[3] = {5, 6, 7};
    const int64_t ps1[1] = {1}, ps0[2] = {3, 0}, qs[2] = {1, 8}, q0[2] = {0, 8},
                  cs[2] = {MAX_POS, 8};
    ropekit_tensor ct = ropekit_tensor_make(cache, ROPEKIT_F32, 2, cs, NULL);
    ropekit_tensor qt = ropekit_tensor_make(q, ROPEKIT_F32, 2, qs, NULL);
    ropekit_tensor pt = ropekit_tensor_make(pos, ROPEKIT_I64, 1, ps1, NULL);
    const int64_t zero[3] = {0, 2, 2};
    for (int64_t mode = 2; mode <= 3; mode++) {
        ropekit_rope_config cfg = {
            .head_size = 8, .sections = zero, .num_sections = 3, .cache_mode = mode};
        assert_int_equal(ropekit_rope(&pt, &qt, NULL, &ct, &qt, NULL, &cfg), ROPEKIT_OK);
        assert_true(q[0] == 5.0f && q[3] == 5.0f);
        for (int i = 0; i < 8; i++)
            q[i] = 1.0f;
        const int64_t sec[3] = {2, 2, 0};
        ropekit_rope_config mcfg = {
            .head_size = 8, .sections = sec, .num_sections = 3, .cache_mode = mode};
        ropekit_tensor p0 = ropekit_tensor_make(pos, ROPEKIT_I64, 2, ps0, NULL);
        ropekit_tensor e0 = ropekit_tensor_make(q, ROPEKIT_F32, 2, q0, NULL);
        ropekit_plan *plan = NULL;
        assert_int_equal(ropekit_rope_plan_create(&p0, &e0, NULL, &ct, &e0, NULL, &mcfg, &plan),
                         ROPEKIT_OK);
        char text[512];
        ropekit_plan_describe(plan, text, sizeof text);
        assert_non_null(strstr(text, "(no-op)"));
        assert_int_equal(ropekit_rope_execute(plan, pos, q, NULL, cache, q, NULL), ROPEKIT_OK);
        ropekit_plan_destroy(plan);
    }
    free(cache);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ernie_layout),
        cmocka_unit_test(pangu_layout),
        cmocka_unit_test(threads_and_isas_identical),
        cmocka_unit_test(section_rules),
        cmocka_unit_test(rope_and_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
