/* GE operator prototype (ropekit): RotaryPositionEmbeddingGrad, as CANN declares it.
 *
 * The backward of RotaryPositionEmbedding: dx = dy rotated backward, and with the optional
 * input x (the forward's input) dcos and dsin, the sums over the dims cos broadcasts. The
 * rules and results are those of aclnnRotaryPositionEmbeddingGrad (include/aclnnop/). The
 * include guard is CANN's, so a program may include this header and CANN's own in any
 * order. */
#ifndef OPS_OP_PROTO_INC_ROTARY_POSITION_EMBEDDING_GRAD_OPS_H_
#define OPS_OP_PROTO_INC_ROTARY_POSITION_EMBEDDING_GRAD_OPS_H_

#include "graph/operator_reg.h"

namespace ge {

REG_OP(RotaryPositionEmbeddingGrad)
    .INPUT(dy, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .INPUT(cos, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .INPUT(sin, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .OPTIONAL_INPUT(x, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .OUTPUT(dx, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .OUTPUT(dcos, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .OUTPUT(dsin, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .ATTR(mode, Int, 0)
    .OP_END_FACTORY_REG(RotaryPositionEmbeddingGrad)

} // namespace ge

#endif /* OPS_OP_PROTO_INC_ROTARY_POSITION_EMBEDDING_GRAD_OPS_H_ */
