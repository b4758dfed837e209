/* GE operator prototypes (ropekit) at the path of CANN's nn_other.h (opp/built-in/
 * op_proto/inc/ in CANN's installation), which CANN's GE IR examples include. CANN's
 * file gathers operators that have no other home, among them RoPE operators whose
 * prototypes ropekit ships one per header, with CANN's include guards, as ops-transformer
 * does (interleave_rope_proto.h, ...). The examples include those per-operator headers
 * too, so this file declares no operator: a second REG_OP of one operator would not
 * compile. It gives what every prototype header needs, REG_OP and its types. */
#ifndef OPS_BUILT_IN_OP_PROTO_INC_NN_OTHER_H_
#define OPS_BUILT_IN_OP_PROTO_INC_NN_OTHER_H_

#include "graph/operator_reg.h"

#endif /* OPS_BUILT_IN_OP_PROTO_INC_NN_OTHER_H_ */
