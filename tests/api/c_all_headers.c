/* Every public header in one C11 program, calling into each. */
#include "acl/acl.h"
#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"
#include "aclnnop/level2/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/level2/aclnn_inplace_partial_rotary_mul_grad.h"
#include "ropekit/ropekit.h"

#include <string.h>

int main(void) {
    int failures = 0;
    uint64_t ws = 0;
    aclOpExecutor *executor = NULL;
    failures += aclnnInplacePartialRotaryMulGetWorkspaceSize(NULL, NULL, NULL, 1, NULL, &ws,
                                                             &executor) != ACLNN_ERR_PARAM_NULLPTR;
    failures += aclnnInplacePartialRotaryMulGradGetWorkspaceSize(
                    NULL, NULL, NULL, 1, NULL, &ws, &executor) != ACLNN_ERR_PARAM_NULLPTR;
    failures += strlen(aclGetRecentErrMsg()) == 0;
    failures += ropekit_version_number() != ROPEKIT_VERSION_NUMBER;
    failures += strcmp(ropekit_status_name(ROPEKIT_OK), "ROPEKIT_OK") != 0;
    failures +=
        strcmp(ropekit_rotary_mode_name(ROPEKIT_ROTARY_INTERLEAVE_HALF), "interleave-half") != 0;
    failures += strcmp(ropekit_rotary_mode_name((ropekit_rotary_mode)7), "?") != 0;
    /* the enums carry CANN's numbers */
    failures += ACL_FLOAT != 0 || ACL_FLOAT16 != 1 || ACL_BF16 != 27 || ACL_INT64 != 9;
    failures += ACL_FORMAT_ND != 2 || ACL_FRACTAL_Z_3D != 33 || ACL_FORMAT_NCL != 47;
    failures += ACL_MEMCPY_DEVICE_TO_HOST != 2 || ACL_MEM_TYPE_HIGH_BAND_WIDTH != 0x1000;
    failures += (int)ROPEKIT_BF16 != (int)ACL_BF16;
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
