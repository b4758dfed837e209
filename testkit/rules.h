/* The library's validation rules as the test kit sees them: the rule enums, made from the
 * operators' X-macro tables (src/ops/partial_rotary/rules.h, src/ops/rope/rules.h), the
 * aclnn face's codes of each rule (src/faces/aclnn/partial_rotary_cann.h, rope_cann.h) and
 * CANN's mrope sections (RK_ACLNN_MROPE_SECTIONS). The kit's
 * model of CANN's checks decides on its own which rule a call breaks (tk_pr_aclnn_expected,
 * tk_rc_acl_expected); only the rule -> code mapping and the whitelist come from here, so
 * every code and every whitelisted list exists once. Needs src/ on the include path
 * (ropekit_testkit's users get it). */
#ifndef ROPEKIT_TESTKIT_RULES_H_
#define ROPEKIT_TESTKIT_RULES_H_

#include <stdbool.h>
#include <stdint.h>

#include "faces/aclnn/partial_rotary_cann.h"
#include "faces/aclnn/rope_cann.h"
#include "ops/partial_rotary/rules.h"
#include "ops/rope/rules.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TK_PR_RULE_<rule> in the order of enum rk_pr_rule (NONE = 0: no rule broken). */
enum tk_pr_rule {
    TK_PR_RULE_NONE = 0,
#define TK_PR_RULE_ENUM_(rule, status, meaning) TK_PR_RULE_##rule,
    RK_PR_RULES(TK_PR_RULE_ENUM_)
#undef TK_PR_RULE_ENUM_
        TK_PR_RULE_COUNT
};

/* TK_ROPE_RULE_<rule> in the order of enum rk_rope_rule (NONE = 0). */
enum tk_rope_rule {
    TK_ROPE_RULE_NONE = 0,
#define TK_ROPE_RULE_ENUM_(rule, status, meaning) TK_ROPE_RULE_##rule,
    RK_ROPE_RULES(TK_ROPE_RULE_ENUM_)
#undef TK_ROPE_RULE_ENUM_
        TK_ROPE_RULE_COUNT
};

/* The aclnn phase-1 code of a partial-rotary rule: ACLNN_ERR_<forward_code> or, for the
 * gradient, ACLNN_ERR_<gradient_code>; 0 for TK_PR_RULE_NONE. */
int tk_pr_rule_code(enum tk_pr_rule rule, bool gradient);

/* The aclnn phase-1 code of a rope rule (ACLNN_ERR_<code>); 0 for TK_ROPE_RULE_NONE. */
int tk_rope_rule_code(enum tk_rope_rule rule);
/* The stream fault of a rope rule found as the work runs (ACL_ERROR_<fault>). */
int tk_rope_rule_fault(enum tk_rope_rule rule);

/* CANN's mrope section lists (SPEC §5.5 row 9, one list for V1 and V2). */
struct tk_mrope_sections {
    int count;
    int64_t s[4];
};
#define TK_MROPE_SECTIONS_ROW_(count, s0, s1, s2, s3) +1
enum { TK_ACLNN_MROPE_SECTION_LISTS = 0 RK_ACLNN_MROPE_SECTIONS(TK_MROPE_SECTIONS_ROW_) };
#undef TK_MROPE_SECTIONS_ROW_
extern const struct tk_mrope_sections tk_aclnn_mrope_sections[TK_ACLNN_MROPE_SECTION_LISTS];

/* True when sections[0..n) is one of CANN's lists. */
bool tk_aclnn_mrope_whitelisted(const int64_t *sections, int n);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_RULES_H_ */
