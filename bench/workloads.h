/* The benchmark workloads and how one configuration of them is prepared and run. */
#ifndef ROPEKIT_BENCH_WORKLOADS_H_
#define ROPEKIT_BENCH_WORKLOADS_H_

#include <stdbool.h>
#include <stdint.h>

#include "ropekit/ropekit.h"

enum rkb_kind {
    RKB_PARTIAL_ROTARY, /* InplacePartialRotaryMul forward (native plan) */
    RKB_PARTIAL_GRAD,   /* its gradient */
    RKB_ROPE,           /* RopeWithSinCosCache (native plan), in place */
    RKB_ROUNDTRIP       /* aclnn GetWorkspaceSize + execute + sync, 1 token */
};

struct rkb_workload {
    char id[16];
    char what[128];
    enum rkb_kind kind;
    bool in_cache; /* small enough to stay in cache: judged against in-cache targets */
    int64_t x[4];  /* partial rotary: x shape */
    int64_t cs[4]; /* cos/sin shape */
    int64_t start, end;
    int64_t tokens, q_heads, k_heads, head_size, rot_dim, max_pos; /* rope */
    int nsec;
    int64_t sections[4];
};

/* One measured configuration: a workload with dtypes and a style. */
struct rkb_config {
    const struct rkb_workload *w;
    ropekit_dtype x_dtype, cs_dtype;
    int style; /* rope: ropekit_rope_style; partial rotary: ropekit_rotary_mode */
};

const char *rkb_style_name(const struct rkb_config *c);

/* The built-in workloads (W1-W5, P1-P3, G2, D1). */
const struct rkb_workload *rkb_builtin(int *count);

/* A built-in id other than D1 (e.g. "W4") or a spec rkb_parse_workload takes. */
bool rkb_find_workload(const char *spec, struct rkb_workload *w);

/* The dtype choices: f32, f16, bf16 and mixed (bf16 x with fp32 cos/sin). */
struct rkb_dtype_choice {
    const char *name;
    ropekit_dtype x, cs;
};
const struct rkb_dtype_choice *rkb_dtype_choices(int *count);

/* Parses "rope:T,Hq,Hk,hs,R[,maxpos]" or "pr:B,S,N,D,start,end[,cB,cS,cN]" into w. */
bool rkb_parse_workload(const char *spec, struct rkb_workload *w);

/* Bytes the operation must read and write at its dtypes (cos/sin counted once per
 * row they are gathered for; in place, untouched pass-through bytes not counted). */
double rkb_bytes(const struct rkb_config *c);

/* The rows the op reads and writes in place: `rows` rows `stride` bytes apart, `used`
 * bytes of each (rope: one per head; partial rotary: the slice of each D-row). False
 * for the round trip. */
bool rkb_touch_geometry(const struct rkb_config *c, int64_t *rows, int64_t *stride, int64_t *used);

/* A prepared configuration: buffers and a plan made with the current thread and ISA
 * settings. */
struct rkb_case;
struct rkb_case *rkb_case_new(const struct rkb_config *c);
void rkb_case_run(struct rkb_case *k);
const char *rkb_case_describe(const struct rkb_case *k);
void rkb_case_free(struct rkb_case *k);

#endif /* ROPEKIT_BENCH_WORKLOADS_H_ */
