/* GE operator prototypes (ropekit) at the path of CANN's array_ops.h (CANN installs it in
 * opp/built-in/op_proto/inc/, which its GE IR examples put on the include path): the
 * graph sources CANN declares there and ropekit runs, Data and Const (ops_proto_legacy.h
 * describes them). CANN's file declares many more array operators; ropekit runs none of
 * them, so it declares none. The include guard is CANN's, so that either file included
 * after the other adds nothing. */
#ifndef OPS_BUILT_IN_OP_PROTO_INC_ARRAY_OPS_H_
#define OPS_BUILT_IN_OP_PROTO_INC_ARRAY_OPS_H_

#include "ops_proto_legacy.h"

#endif /* OPS_BUILT_IN_OP_PROTO_INC_ARRAY_OPS_H_ */
