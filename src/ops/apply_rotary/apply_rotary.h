/* Apply rotary (ApplyRotaryPosEmb): query and key rotated in place by one cos/sin, with
 * the rows of partial rotary over the whole head (no slice). validate -> plan -> run
 * behind the descriptor rk_op_apply_rotary; the plan is two partial-rotary plans (query's
 * and key's rows) run in one thread split. A face states what it restricts in a policy
 * (dtypes, ranks, layouts, modes, D); a failure names the rule it broke (rules.h). */
#ifndef ROPEKIT_OPS_APPLY_ROTARY_APPLY_ROTARY_H_
#define ROPEKIT_OPS_APPLY_ROTARY_APPLY_ROTARY_H_

#include <stdbool.h>
#include <stdint.h>

#include "core/tensor_view.h"
#include "ops/apply_rotary/rules.h"
#include "ops/op.h"
#include "ops/partial_rotary/partial_rotary.h"
#include "ropekit/ropekit.h"

#define RK_AR_RULE_ENUM_(rule, status, meaning) RK_AR_RULE_##rule,
enum rk_ar_rule { RK_AR_RULE_NONE = 0, RK_AR_RULES(RK_AR_RULE_ENUM_) RK_AR_RULE_COUNT };
#undef RK_AR_RULE_ENUM_

/* The tensor slots of struct rk_op_data. */
enum { RK_AR_Q, RK_AR_K, RK_AR_COS, RK_AR_SIN, RK_AR_TENSORS };

/* The numbered layouts (ApplyRotaryPosEmb's `layout`): where N sits in a 4-D tensor. */
enum rk_ar_layout { RK_AR_BSND = 1, RK_AR_SBND = 2, RK_AR_BNSD = 3, RK_AR_LAYOUT_LAST = 3 };

struct rk_ar_policy {
    const char *q_name, *k_name; /* "queryRef", "keyRef"; "query", "key" */
    const char *mode_name;       /* "rotaryMode"; "mode" */
    unsigned mode_mask;          /* bit m: ropekit_rotary_mode m allowed */
    const char *mode_rule;       /* what a refused mode's message states; NULL: the mask's */
    unsigned pair_mask;          /* RK_PR_PAIR(x, cos): (query, cos) and (key, cos) allowed */
    bool same_dtype;             /* key, cos and sin of query's dtype */
    int32_t rank;                /* 0: query, key of rank >= 1, cos 1 .. their ranks; else this */
    bool refuse_empty;           /* an empty tensor fails EMPTY (else: nothing to do) */
    unsigned layout_mask;        /* bit l: layout l allowed; 0: no layout (cos broadcasts) */
    int64_t d_value;             /* 0: any D */
};

struct rk_ar_problem {
    const char *api; /* the entry point, for messages */
    const ropekit_tensor *q, *k, *cos, *sin;
    int64_t layout;          /* enum rk_ar_layout; ignored when the policy has none */
    int64_t mode;            /* ropekit_rotary_mode; -1: mode_text named none */
    const char *mode_text;   /* the mode as the caller named it (V2's string), or NULL */
    int direction;           /* ropekit_direction */
    const char *missing_arg; /* a NULL non-tensor argument the face requires, reported after
                                the tensors */
    bool check_data;         /* the tensors' data pointers are the call's: check them and the
                                overlaps now */
};

/* Everything execution needs, decided once: a partial-rotary plan per tensor (rows over
 * the whole head), sharing one split of tasks. Plain data: copyable, owns nothing. */
struct rk_ar_plan {
    struct rk_pr_plan part[2]; /* query, key */
    int64_t tasks;             /* part[0].tasks + part[1].tasks */
    int threads;
    int64_t layout; /* 0: none */
};

RK_OP_FUNCTIONS(rk_ar);

#endif /* ROPEKIT_OPS_APPLY_ROTARY_APPLY_ROTARY_H_ */
