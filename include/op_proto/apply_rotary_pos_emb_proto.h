/* GE operator prototype (ropekit): ApplyRotaryPosEmb, as CANN declares it.
 *
 * query and key rotated in place by one cos and sin over their whole last dim; layout 1
 * BSND, 2 SBND, 3 BNSD; rotary_mode "half", "interleave" or "quarter". The rules and
 * results are those of aclnnApplyRotaryPosEmbV2 (include/aclnnop/). The include guard is
 * CANN's, so a program may include this header and CANN's own in any order. */
#ifndef OPS_OP_PROTO_INC_APPLY_ROTARY_POSEMB_OPS_H_
#define OPS_OP_PROTO_INC_APPLY_ROTARY_POSEMB_OPS_H_

#include "graph/operator_reg.h"

namespace ge {

REG_OP(ApplyRotaryPosEmb)
    .INPUT(query, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .INPUT(key, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .INPUT(cos, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .INPUT(sin, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .ATTR(layout, Int, 1)
    .ATTR(rotary_mode, String, "half")
    .OUTPUT(query, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .OUTPUT(key, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .OP_END_FACTORY_REG(ApplyRotaryPosEmb)

} // namespace ge

#endif /* OPS_OP_PROTO_INC_APPLY_ROTARY_POSEMB_OPS_H_ */
