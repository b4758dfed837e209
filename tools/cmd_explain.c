/* `ropekit explain SPEC...`: the plan ropekit makes for a problem (kernel set, threads,
 * tasks) and what the CPU offers, without running anything heavy. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "ropekit/ropekit.h"
#include "workloads.h"

static void tk_explain_usage(FILE *out) {
    fprintf(out,
            "usage: ropekit explain SPEC [SPEC...]\n\n"
            "Prints the plan for each problem, under every ISA cap the CPU supports.\n"
            "SPEC: rope:T,Hq,Hk,hs,R[,maxpos] (bf16 NeoX, in place),\n"
            "      pr:B,S,N,D,start,end[,cB,cS,cN] (bf16 interleave),\n"
            "      rpe:B,S,N,D[,cB,cS,cN] (RotaryPositionEmbedding, bf16 half, cos/sin\n"
            "      [1,S,1,D] unless given), rpeg:... and rpegcs:... (its gradient: dx; dx, dcos\n"
            "      and dsin), ir:B,N,S[,cS] (InterleaveRope, x [B,N,S,64], bf16),\n"
            "      apply:B,S,Nq,Nk,D (ApplyRotaryPosEmb, BSND, bf16 half),\n"
            "      or a bench id (W1..W5, P1..P3, G2, D1, I1, R1, RG1, RG2, A1).\n");
}

int tk_cmd_explain(int argc, char **argv) {
    if (argc < 2 || tk_cli_is_help(argv[1])) {
        tk_explain_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? TK_EXIT_USAGE : TK_EXIT_OK;
    }
    printf("ropekit %s: CPU supports up to %s; threads per call %d\n", ropekit_version_string(),
           ropekit_isa_name(ropekit_isa_detected()), ropekit_get_num_threads());
    int status = TK_EXIT_OK;
    for (int i = 1; i < argc; i++) {
        struct rkb_workload w;
        if (!rkb_find_workload(argv[i], &w)) {
            fprintf(stderr, "ropekit explain: '%s' is not a problem spec\n", argv[i]);
            status = TK_EXIT_USAGE;
            continue;
        }
        int styles[4];
        rkb_workload_styles(&w, NULL, styles);
        const bool pr = w.kind == RKB_PARTIAL_ROTARY || w.kind == RKB_PARTIAL_GRAD;
        struct rkb_config c = {&w, ROPEKIT_BF16, ROPEKIT_BF16,
                               pr ? ROPEKIT_ROTARY_INTERLEAVE : styles[0], RKB_NATIVE};
        printf("%s: %s\n", argv[i], w.what);
        for (int isa = (int)ropekit_isa_detected(); isa >= 0; isa--) {
            ropekit_set_max_isa((ropekit_isa)isa);
            struct rkb_case *k = rkb_case_new(&c);
            if (!k) {
                status = TK_EXIT_FAIL;
                break;
            }
            printf("  cap %-6s -> %s\n", ropekit_isa_name((ropekit_isa)isa), rkb_case_describe(k));
            rkb_case_free(k);
        }
        ropekit_set_max_isa(ROPEKIT_ISA_AVX512);
    }
    return status;
}
