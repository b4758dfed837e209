/* The operators, one line each: X(name, NAME). `name` is the folder under src/ops and the
 * descriptor rk_op_<name>; RK_OP_<NAME> is its id. */
#ifndef ROPEKIT_OPS_OP_LIST_H_
#define ROPEKIT_OPS_OP_LIST_H_

#define RK_OPS(X)                                                                                  \
    X(partial_rotary, PARTIAL_ROTARY)                                                              \
    X(rope, ROPE)                                                                                  \
    X(apply_rotary, APPLY_ROTARY)                                                                  \
    X(rotary_grad, ROTARY_GRAD)                                                                    \
    X(rotary_matrix, ROTARY_MATRIX)

#endif /* ROPEKIT_OPS_OP_LIST_H_ */
