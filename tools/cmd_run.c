/* `ropekit run SPEC`: executes one problem a given number of times and nothing else, for
 * profilers (valgrind --tool=callgrind, perf): the difference between two counts cancels
 * the setup and leaves the cost of the extra runs. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "ropekit/ropekit.h"
#include "workloads.h"

static void tk_run_usage(FILE *out) {
    fprintf(out,
            "usage: ropekit run SPEC [--count N] [--dtype f32|f16|bf16|mixed|f64] [--style S]\n"
            "                        [--face native|aclnn|aclnn_oop]\n\n"
            "Runs the problem N times (default 1) through the face (default: the native API\n"
            "with a plan made once; aclnn: the whole round trip each time) with the\n"
            "settings the environment gives (ROPEKIT_NUM_THREADS, ROPEKIT_MAX_ISA), e.g.\n"
            "  ROPEKIT_MAX_ISA=avx2 valgrind --tool=callgrind ropekit run W1 --count 12\n"
            "SPEC: a bench id (W1..W5, P1..P3, G2, D1, I1, R1, RG1, RG2, A1) or\n"
            "      rope:T,Hq,Hk,hs,R[,maxpos] or pr:B,S,N,D,start,end[,cB,cS,cN] or\n"
            "      rpe:B,S,N,D[,cB,cS,cN] (RotaryPositionEmbedding; cos/sin [1,S,1,D] unless\n"
            "      given) or rpeg:... / rpegcs:... (its gradient: dx / dx, dcos and dsin) or\n"
            "      ir:B,N,S[,cS] (InterleaveRope, x [B,N,S,64]) or apply:B,S,Nq,Nk,D\n"
            "      (ApplyRotaryPosEmb, BSND).\n"
            "S: neox or gptj (rope; default neox), half, interleave, quarter or\n"
            "   interleave-half (the others; default half, InterleaveRope's\n"
            "   interleave-half). The aclnn face of RotaryPositionEmbedding[Grad] and\n"
            "   InterleaveRope is out of place, as their native face.\n");
}

static const char *const tk_rope_styles[2] = {"neox", "gptj"}; /* ropekit_rope_style values */

static bool tk_run_style(const char *name, bool rope, int *style) {
    const int n = rope ? 2 : ROPEKIT_ROTARY_INTERLEAVE_HALF + 1;
    for (int i = 0; i < n; i++)
        if (strcmp(name, rope ? tk_rope_styles[i]
                              : ropekit_rotary_mode_name((ropekit_rotary_mode)i)) == 0) {
            *style = i;
            return true;
        }
    return false;
}

int tk_cmd_run(int argc, char **argv) {
    if (argc < 2 || tk_cli_is_help(argv[1])) {
        tk_run_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? TK_EXIT_USAGE : TK_EXIT_OK;
    }
    struct rkb_workload w;
    if (!rkb_find_workload(argv[1], &w)) {
        fprintf(stderr, "ropekit run: '%s' is not a problem spec\n", argv[1]);
        return TK_EXIT_USAGE;
    }
    const bool rope = w.kind == RKB_ROPE;
    int64_t count = 1;
    int ndt;
    const struct rkb_dtype_choice *dtypes = rkb_dtype_choices(&ndt);
    int styles[4];
    rkb_workload_styles(&w, NULL, styles);
    struct rkb_config c = {&w, ROPEKIT_BF16, ROPEKIT_BF16, styles[0], RKB_NATIVE};
    for (int i = 2; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (tk_cli_option_is(argv[i], "--count")) {
            if (!tk_cli_int_option(argc, argv, &i, "--count", 0, 1000000000, &count))
                return TK_EXIT_USAGE;
        } else if (!strcmp(argv[i], "--dtype") && val) {
            int d = 0;
            while (d < ndt && strcmp(val, dtypes[d].name) != 0)
                d++;
            if (d == ndt) {
                const char *names[8];
                for (int k = 0; k < ndt && k < 8; k++)
                    names[k] = dtypes[k].name;
                fprintf(stderr, "ropekit run: unknown dtype '%s'", val);
                tk_cli_print_valid(stderr, names, ndt < 8 ? ndt : 8);
                return TK_EXIT_USAGE;
            }
            c.x_dtype = dtypes[d].x;
            c.cs_dtype = dtypes[d].cs;
            i++;
        } else if (!strcmp(argv[i], "--face") && val) {
            int f = 0;
            while (f < RKB_FACE_COUNT && strcmp(val, rkb_face_name((enum rkb_face)f)) != 0)
                f++;
            if (f == RKB_FACE_COUNT) {
                const char *names[RKB_FACE_COUNT];
                for (int k = 0; k < RKB_FACE_COUNT; k++)
                    names[k] = rkb_face_name((enum rkb_face)k);
                fprintf(stderr, "ropekit run: unknown face '%s'", val);
                tk_cli_print_valid(stderr, names, RKB_FACE_COUNT);
                return TK_EXIT_USAGE;
            }
            c.face = (enum rkb_face)f;
            i++;
        } else if (!strcmp(argv[i], "--style") && val) {
            if (!tk_run_style(val, rope, &c.style)) {
                const char *names[4];
                for (int k = 0; k < 4; k++)
                    names[k] = rope ? tk_rope_styles[k % 2]
                                    : ropekit_rotary_mode_name((ropekit_rotary_mode)k);
                fprintf(stderr, "ropekit run: style '%s' does not apply to %s", val, argv[1]);
                tk_cli_print_valid(stderr, names, rope ? 2 : 4);
                return TK_EXIT_USAGE;
            }
            i++;
        } else {
            fprintf(stderr, "ropekit run: unknown option '%s'\n", argv[i]);
            tk_run_usage(stderr);
            return TK_EXIT_USAGE;
        }
    }
    struct rkb_case *k = rkb_case_new(&c);
    if (!k)
        return TK_EXIT_FAIL;
    for (int64_t r = 0; r < count; r++)
        rkb_case_run(k);
    printf("%s x %lld: %s\n", argv[1], (long long)count, rkb_case_describe(k));
    rkb_case_free(k);
    return TK_EXIT_OK;
}
