/* `ropekit demo`: runs the official example configurations through the aclnn face and
 * larger, model-shaped problems through both faces, and prints a table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "commands.h"
#include "demo.h"
#include "testkit/timer.h"

enum { DEMO_MIN_CALLS = 5, DEMO_MAX_CALLS = 1000 };
static const uint64_t demo_budget_ns = 20000000u;

double demo_time_us(int (*fn)(void *ctx), void *ctx) {
    uint64_t samples[DEMO_MAX_CALLS], total = 0;
    size_t n = 0;
    while (n < DEMO_MAX_CALLS && (n < DEMO_MIN_CALLS || total < demo_budget_ns)) {
        uint64_t t0 = tk_now_ns();
        if (fn(ctx) != 0)
            return -1.0;
        samples[n] = tk_now_ns() - t0;
        total += samples[n++];
    }
    return (double)tk_median_u64(samples, n) / 1000.0;
}

static void demo_print_columns(void) {
    printf("%-6s %-21s %-15s %-15s %-9s %8s %7s %8s  %s\n", "face", "op", "mode", "shape", "x/cs",
           "max|err|", "err/bnd", "us/call", "result");
}

void demo_table_add(struct demo_table *table, const struct demo_row *row) {
    char ratio[16], usec[16];
    if (isfinite(row->max_ratio) && row->max_ratio < 1000.0)
        snprintf(ratio, sizeof ratio, "%.3f", row->max_ratio);
    else
        snprintf(ratio, sizeof ratio, isfinite(row->max_ratio) ? ">999" : "inf");
    if (row->usec >= 0.0)
        snprintf(usec, sizeof usec, "%.1f", row->usec);
    else
        snprintf(usec, sizeof usec, "-");
    printf("%-6s %-21s %-15s %-15s %-9s %8.2e %7s %8s  %s%s%s\n", row->face, row->op, row->mode,
           row->shape, row->dtypes, row->max_abs_err, ratio, usec, row->pass ? "PASS" : "FAIL",
           row->label ? "  " : "", row->label ? row->label : "");
    if (!row->pass && row->note[0])
        printf("       ! %s\n", row->note);
    table->rows++;
    if (!row->pass)
        table->failed++;
}

int tk_cmd_demo(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (tk_cli_is_help(argv[i])) {
            printf("usage: ropekit demo\n\n"
                   "Runs the official example configurations of aclnnInplacePartialRotaryMul\n"
                   "(every accepted dtype pair) and aclnnInplacePartialRotaryMulGrad (all 9\n"
                   "pairs) through the aclnn face, and one larger problem per rotary mode\n"
                   "through the native API. For RopeWithSinCosCache: the official example\n"
                   "(bf16, fp16, fp32), multimodal rope through the V2 API (sectioned and\n"
                   "interleaved), Llama-3-8B decode and prefill steps on a Llama-3-scaled cache\n"
                   "through both faces, a Qwen2.5-VL prefill and a GPT-J partial-rotary step\n"
                   "through the native API. Then a section per newer aclnn operator\n"
                   "(RotaryPositionEmbedding, its Grad, ApplyRotaryPosEmb and V2,\n"
                   "InterleaveRope): what it does, one small call, its first values beside a\n"
                   "scalar computed in the demo. Each row is checked against a float64 reference\n"
                   "within the bound of docs/spec.md section 6 (err/bnd <= 1), bytes that are\n"
                   "not rotated must be unchanged, and each is timed (median microseconds per\n"
                   "call). Exits 1 if any row fails.\n");
            return TK_EXIT_OK;
        }
        fprintf(stderr, "ropekit demo: unexpected argument '%s'\n", argv[i]);
        return TK_EXIT_USAGE;
    }
    tk_cli_print_banner(stdout);
    struct tk_acl acl;
    char err[256];
    if (tk_acl_open(&acl, err, sizeof err) != ACL_SUCCESS) {
        fprintf(stderr, "ropekit demo: %s\n", err);
        return TK_EXIT_FAIL;
    }
    struct demo_env env = {&acl};
    struct demo_table table = {0, 0};
    demo_print_columns();
#define TK_DEMO_SUITE_RUN_(name) demo_suite_##name(&env, &table);
    TK_DEMO_SUITES(TK_DEMO_SUITE_RUN_)
#undef TK_DEMO_SUITE_RUN_
    tk_acl_close(&acl);
    printf("%d of %d rows passed\n", table.rows - table.failed, table.rows);
    printf("\nshape: x for PartialRotaryMul; T x (query heads + key heads) x headSize for\n"
           "  RopeWithSinCosCache. max|err|: the largest |result - float64 reference|.\n"
           "  err/bnd: the largest error as a share of its element's bound (docs/spec.md\n"
           "  section 6: relative to |a*c| + |b*s| at the output dtype's precision); a row\n"
           "  passes at <= 1. A large max|err| with a small err/bnd is a row of large values\n"
           "  (the CANN example's bf16 inputs) rounded to a coarse dtype.\n");
    return table.failed ? TK_EXIT_FAIL : TK_EXIT_OK;
}
