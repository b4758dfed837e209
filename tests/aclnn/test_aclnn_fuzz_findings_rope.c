/* One test per defect the fuzz target fuzz_aclnn_rope (tests/fuzz) found in
 * aclnnRopeWithSinCosCache / aclnnRopeWithSinCosCacheV2, named for the defect; its input is
 * also kept in tests/fuzz/regressions/fuzz_aclnn_rope/. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache_v2.h"

enum { T = 2, R = 128, HS = 128, M = 4 };

static int setup(void **state) {
    (void)state;
    return aclInit(NULL) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    int bad = aclrtResetDevice(0) != ACL_SUCCESS;
    bad |= aclFinalize() != ACL_SUCCESS;
    return bad ? -1 : 0;
}

/* An mrope section list whose sum fits in int64 but whose double does not, [2^62, 0, 0],
 * reached `2 * sum != rotaryDim` as a signed overflow (UBSan aborts there; the message showed
 * the wrapped product). Now it is refused with the sum in the message and nothing written. */
static void mrope_section_sum_doubled_overflows(void **state) {
    (void)state;
    static int64_t pos[3 * T];
    static float q[T * HS], k[T * HS], cache[M * R], qo[T * HS], ko[T * HS];
    memset(qo, 0x5a, sizeof qo);
    memset(ko, 0x5a, sizeof ko);
    const int64_t pd[2] = {3, T}, xd[2] = {T, HS}, cd[2] = {M, R};
    aclTensor *tp = aclCreateTensor(pd, 2, ACL_INT64, NULL, 0, ACL_FORMAT_ND, NULL, 0, pos);
    aclTensor *tq = aclCreateTensor(xd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, q);
    aclTensor *tk = aclCreateTensor(xd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, k);
    aclTensor *tc = aclCreateTensor(cd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, cache);
    aclTensor *tqo = aclCreateTensor(xd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, qo);
    aclTensor *tko = aclCreateTensor(xd, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, NULL, 0, ko);
    assert_true(tp && tq && tk && tc && tqo && tko);
    const int64_t huge[][3] = {{(int64_t)1 << 62, 0, 0},
                               {(int64_t)1 << 62, ((int64_t)1 << 62) - 64, 0}};
    for (int api = 1; api <= 2; api++) {
        for (int h = 0; h < 2; h++) {
            aclIntArray *sec = aclCreateIntArray(huge[h], 3);
            assert_non_null(sec);
            uint64_t ws = 7;
            aclOpExecutor *e = NULL;
            aclnnStatus st = api == 1 ? aclnnRopeWithSinCosCacheGetWorkspaceSize(
                                            tp, tq, tk, tc, sec, HS, true, tqo, tko, &ws, &e)
                                      : aclnnRopeWithSinCosCacheV2GetWorkspaceSize(
                                            tp, tq, tk, tc, sec, HS, true, 0, tqo, tko, &ws, &e);
            assert_int_equal(st, ACLNN_ERR_PARAM_INVALID);
            assert_true(ws == 7 && e == NULL);
            const char *msg = aclGetRecentErrMsg();
            assert_non_null(strstr(msg, "mropeSection"));
            assert_non_null(
                strstr(msg, h == 0 ? "sum = 4611686018427387904" : "sum = 9223372036854775744"));
            aclDestroyIntArray(sec);
        }
    }
    for (size_t i = 0; i < sizeof qo; i++)
        assert_true(((unsigned char *)qo)[i] == 0x5a && ((unsigned char *)ko)[i] == 0x5a);
    aclTensor *all[6] = {tp, tq, tk, tc, tqo, tko};
    for (int i = 0; i < 6; i++)
        aclDestroyTensor(all[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mrope_section_sum_doubled_overflows),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
