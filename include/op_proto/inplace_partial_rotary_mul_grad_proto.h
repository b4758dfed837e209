/* GE operator prototype (ropekit): InplacePartialRotaryMulGrad, as CANN declares it.
 *
 * The gradient of InplacePartialRotaryMul: dy (the gradient of its output) is replaced in
 * place by the gradient of its input x, for the same cos, sin, rotary_mode and
 * partial_slice. Rules and results are those of aclnnInplacePartialRotaryMulGrad. The
 * include guard is CANN's. */
#ifndef OPS_OP_PROTO_INC_INPLACE_PARTIAL_ROTARY_MUL_GRAD_OPS_H_
#define OPS_OP_PROTO_INC_INPLACE_PARTIAL_ROTARY_MUL_GRAD_OPS_H_

#include "graph/operator_reg.h"

namespace ge {

REG_OP(InplacePartialRotaryMulGrad)
    .INPUT(dy, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .INPUT(cos, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .INPUT(sin, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .OUTPUT(dy, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .ATTR(rotary_mode, Int, 0)
    .ATTR(partial_slice, ListInt, {0, 0})
    .OP_END_FACTORY_REG(InplacePartialRotaryMulGrad)

} // namespace ge

#endif /* OPS_OP_PROTO_INC_INPLACE_PARTIAL_ROTARY_MUL_GRAD_OPS_H_ */
