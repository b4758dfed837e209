/* GE operator prototype (ropekit): InplacePartialRotaryMul, as CANN declares it.
 *
 * Rotates the slice x[..., start:end) of a rank-4 tensor x in place with cos and sin of
 * shape [.., .., .., end - start] that broadcast to x; output x is the result. The rules
 * and results are those of aclnnInplacePartialRotaryMul (include/aclnnop/): rotary_mode
 * must be 1 (interleave), although the prototype's default is 0; partial_slice {0, 0}
 * (the default) or any empty slice leaves x unchanged. The include guard is CANN's, so a
 * program may include this header and CANN's own in any order. */
#ifndef OPS_OP_PROTO_INC_INPLACE_PARTIAL_ROTARY_MUL_OPS_H_
#define OPS_OP_PROTO_INC_INPLACE_PARTIAL_ROTARY_MUL_OPS_H_

#include "graph/operator_reg.h"

namespace ge {

REG_OP(InplacePartialRotaryMul)
    .INPUT(x, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .INPUT(cos, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .INPUT(sin, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .OUTPUT(x, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .ATTR(rotary_mode, Int, 0)
    .ATTR(partial_slice, ListInt, {0, 0})
    .OP_END_FACTORY_REG(InplacePartialRotaryMul)

} // namespace ge

#endif /* OPS_OP_PROTO_INC_INPLACE_PARTIAL_ROTARY_MUL_OPS_H_ */
