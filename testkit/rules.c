/* The rule -> code mappings and CANN's mrope whitelist, expanded from the library's rule
 * tables (testkit/rules.h). */
#include "testkit/rules.h"

#include "acl/acl_base.h"
#include "aclnn/acl_meta.h"

int tk_pr_rule_code(enum tk_pr_rule rule, bool gradient) {
#define TK_PR_CODE_ROW_(rule, fwd, grad, fault)                                                    \
    [TK_PR_RULE_##rule] = {ACLNN_ERR_##fwd, ACLNN_ERR_##grad},
    static const int codes[TK_PR_RULE_COUNT][2] = {RK_ACLNN_PR_CODES(TK_PR_CODE_ROW_)};
#undef TK_PR_CODE_ROW_
    if (rule <= TK_PR_RULE_NONE || rule >= TK_PR_RULE_COUNT)
        return 0;
    return codes[rule][gradient ? 1 : 0];
}

int tk_rope_rule_code(enum tk_rope_rule rule) {
#define TK_ROPE_CODE_ROW_(rule, code, fault) [TK_ROPE_RULE_##rule] = ACLNN_ERR_##code,
    static const int codes[TK_ROPE_RULE_COUNT] = {RK_ACLNN_ROPE_CODES(TK_ROPE_CODE_ROW_)};
#undef TK_ROPE_CODE_ROW_
    if (rule <= TK_ROPE_RULE_NONE || rule >= TK_ROPE_RULE_COUNT)
        return 0;
    return codes[rule];
}

int tk_rope_rule_fault(enum tk_rope_rule rule) {
#define TK_ROPE_FAULT_ROW_(rule, code, fault) [TK_ROPE_RULE_##rule] = ACL_ERROR_##fault,
    static const int faults[TK_ROPE_RULE_COUNT] = {RK_ACLNN_ROPE_CODES(TK_ROPE_FAULT_ROW_)};
#undef TK_ROPE_FAULT_ROW_
    if (rule <= TK_ROPE_RULE_NONE || rule >= TK_ROPE_RULE_COUNT)
        return 0;
    return faults[rule];
}

const struct tk_mrope_sections tk_aclnn_mrope_sections[TK_ACLNN_MROPE_SECTION_LISTS] = {
#define TK_MROPE_SECTIONS_ROW_(count, s0, s1, s2, s3) {count, {s0, s1, s2, s3}},
    RK_ACLNN_MROPE_SECTIONS(TK_MROPE_SECTIONS_ROW_)
#undef TK_MROPE_SECTIONS_ROW_
};

bool tk_aclnn_mrope_whitelisted(const int64_t *sections, int n) {
    for (int w = 0; w < TK_ACLNN_MROPE_SECTION_LISTS; w++) {
        bool same = tk_aclnn_mrope_sections[w].count == n;
        for (int i = 0; same && i < n; i++)
            same = tk_aclnn_mrope_sections[w].s[i] == sections[i];
        if (same)
            return true;
    }
    return false;
}
