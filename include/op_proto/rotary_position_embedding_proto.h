/* GE operator prototype (ropekit): RotaryPositionEmbedding, as CANN declares it.
 *
 * y = x rotated over its whole last dim by cos and sin (out of place), mode 0 half,
 * 1 interleave, 2 quarter, 3 interleave-half. The rules and results are those of
 * aclnnRotaryPositionEmbedding (include/aclnnop/). The include guard is CANN's, so a
 * program may include this header and CANN's own in any order. */
#ifndef OPS_OP_PROTO_INC_ROTARY_POSITION_EMBEDDING_OPS_H_
#define OPS_OP_PROTO_INC_ROTARY_POSITION_EMBEDDING_OPS_H_

#include "graph/operator_reg.h"

namespace ge {

REG_OP(RotaryPositionEmbedding)
    .INPUT(x, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .INPUT(cos, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .INPUT(sin, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .OUTPUT(y, TensorType({DT_FLOAT16, DT_FLOAT, DT_BF16}))
    .ATTR(mode, Int, 0)
    .OP_END_FACTORY_REG(RotaryPositionEmbedding)

} // namespace ge

#endif /* OPS_OP_PROTO_INC_ROTARY_POSITION_EMBEDDING_OPS_H_ */
