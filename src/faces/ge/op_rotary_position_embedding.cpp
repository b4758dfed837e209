/* RotaryPositionEmbedding and InterleaveRope: y = x rotated over its whole last dim, out of
 * place; a plan under the rules of aclnnRotaryPositionEmbedding or aclnnInterleaveRope once
 * per shape, execution by ropekit_partial_rotary_out_execute. */
#include "cann_plan.h"
#include "ge/ge_error_codes.h"
#include "messages.h"
#include "op_kernels.h"

namespace ropekit_ge {
namespace {

class RotaryOutKernel : public OpKernel {
  public:
    RotaryOutKernel(const char *type, ropekit_cann_op op) : type_(type), op_(op) {}

    const char *Type() const override { return type_; }
    std::vector<std::string> Inputs() const override { return {"x", "cos", "sin"}; }
    std::vector<std::string> Outputs() const override { return {"y"}; }
    size_t OutputFrom(size_t) const override { return 0; }
    bool InPlace() const override { return false; }

    bool CheckAttrs(const ge::OperatorImpl &op, std::string *problem) const override {
        return op_ != ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING ||
               AttrHasKind(op, "mode", AttrKind::Int, true, problem);
    }

    ge::Status Run(const NodeRun &run, std::string *detail) const override {
        const RunValue &x = *run.in[0];
        const RunValue &cos = *run.in[1];
        const RunValue &sin = *run.in[2];
        RunValue &y = *run.out[0];
        std::vector<int64_t> key = ShapeKey(run.in);
        std::shared_ptr<ropekit_plan> plan = run.plans.Find(key);
        if (!plan) {
            ropekit_tensor tx = NativeTensor(x), tc = NativeTensor(cos), ts = NativeTensor(sin),
                           ty = NativeTensor(y);
            ropekit_plan *made = nullptr;
            int32_t code = 0;
            ropekit_status made_st =
                op_ == ROPEKIT_CANN_INTERLEAVE_ROPE
                    ? ropekit_cann_interleave_rope_plan_create(&tx, &tc, &ts, &ty, &made, &code)
                    : ropekit_cann_rotary_position_embedding_plan_create(
                          &tx, &tc, &ts, IntAttr(run.op, "mode"), &ty, &made, &code);
            ge::Status st = CannVerdict(made_st, code, op_, detail);
            if (st != ge::GRAPH_SUCCESS)
                return st;
            plan = OwnPlan(made);
            run.plans.Insert(key, plan);
        }
        return NativeVerdict(ropekit_partial_rotary_out_execute(plan.get(), x.data(), cos.data(),
                                                                sin.data(), y.data()),
                             "ropekit_partial_rotary_out_execute", detail);
    }

  private:
    const char *type_;
    ropekit_cann_op op_;
};

} // namespace

const OpKernel &RotaryPositionEmbeddingKernel() {
    static const RotaryOutKernel k("RotaryPositionEmbedding",
                                   ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING);
    return k;
}

const OpKernel &InterleaveRopeKernel() {
    static const RotaryOutKernel k("InterleaveRope", ROPEKIT_CANN_INTERLEAVE_ROPE);
    return k;
}

} // namespace ropekit_ge
