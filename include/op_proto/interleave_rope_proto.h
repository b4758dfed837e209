/* GE operator prototype (ropekit): InterleaveRope, as CANN declares it.
 *
 * y = x [B, N, S, 64] rotated in interleave-half mode (even elements, then odd ones,
 * rotated as halves) by cos and sin [B, 1, S or 1, 64], f16 or bf16. The rules and results
 * are those of aclnnInterleaveRope (include/aclnnop/). The include guard is CANN's, so a
 * program may include this header and CANN's own in any order. */
#ifndef OPS_OP_PROTO_INC_INTERLEAVEROPE_OPS_H_
#define OPS_OP_PROTO_INC_INTERLEAVEROPE_OPS_H_

#include "graph/operator_reg.h"

namespace ge {

REG_OP(InterleaveRope)
    .INPUT(x, TensorType({DT_FLOAT16, DT_BF16}))
    .INPUT(cos, TensorType({DT_FLOAT16, DT_BF16}))
    .INPUT(sin, TensorType({DT_FLOAT16, DT_BF16}))
    .OUTPUT(y, TensorType({DT_FLOAT16, DT_BF16}))
    .OP_END_FACTORY_REG(InterleaveRope)

} // namespace ge

#endif /* OPS_OP_PROTO_INC_INTERLEAVEROPE_OPS_H_ */
