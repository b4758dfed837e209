/* InplacePartialRotaryMul and InplacePartialRotaryMulGrad: a plan under the rules of
 * aclnnInplacePartialRotaryMul(Grad) once per shape, execution by
 * ropekit_partial_rotary_execute. */
#include "cann_plan.h"
#include "ge/ge_error_codes.h"
#include "messages.h"
#include "op_kernels.h"

namespace ropekit_ge {
namespace {

class PartialRotaryKernel : public OpKernel {
  public:
    PartialRotaryKernel(const char *type, const char *data, ropekit_cann_op op)
        : type_(type), data_(data), op_(op) {}

    const char *Type() const override { return type_; }
    std::vector<std::string> Inputs() const override { return {data_, "cos", "sin"}; }
    std::vector<std::string> Outputs() const override { return {data_}; }
    size_t OutputFrom(size_t) const override { return 0; }
    bool InPlace() const override { return true; }

    bool CheckAttrs(const ge::OperatorImpl &op, std::string *problem) const override {
        return AttrHasKind(op, "rotary_mode", AttrKind::Int, true, problem) &&
               AttrHasKind(op, "partial_slice", AttrKind::ListInt, true, problem);
    }

    ge::Status Run(const NodeRun &run, std::string *detail) const override {
        int64_t mode = IntAttr(run.op, "rotary_mode");
        std::vector<int64_t> slice = IntListAttr(run.op, "partial_slice");
        /* run.out[0] holds the rotated tensor: a private copy of input 0 */
        RunValue &x = *run.out[0];
        const RunValue &cos = *run.in[1];
        const RunValue &sin = *run.in[2];
        std::vector<const RunValue *> key_of = {run.in[0], &cos, &sin};
        std::vector<int64_t> key = ShapeKey(key_of);
        std::shared_ptr<ropekit_plan> plan = run.plans.Find(key);
        if (!plan) {
            ropekit_tensor tx = NativeTensor(x), tc = NativeTensor(cos), ts = NativeTensor(sin);
            ropekit_plan *made = nullptr;
            int32_t code = 0;
            ropekit_status made_st = ropekit_cann_partial_rotary_plan_create(
                op_, &tx, &tc, &ts, mode, slice.empty() ? nullptr : slice.data(), slice.size(),
                &made, &code);
            ge::Status st = CannVerdict(made_st, code, op_, detail);
            if (st != ge::GRAPH_SUCCESS)
                return st;
            plan = OwnPlan(made);
            run.plans.Insert(key, plan);
        }
        return NativeVerdict(
            ropekit_partial_rotary_execute(plan.get(), x.data(), cos.data(), sin.data()),
            "ropekit_partial_rotary_execute", detail);
    }

  private:
    const char *type_;
    const char *data_;
    ropekit_cann_op op_;
};

} // namespace

const OpKernel &PartialRotaryForwardKernel() {
    static const PartialRotaryKernel k("InplacePartialRotaryMul", "x",
                                       ROPEKIT_CANN_INPLACE_PARTIAL_ROTARY_MUL);
    return k;
}

const OpKernel &PartialRotaryGradKernel() {
    static const PartialRotaryKernel k("InplacePartialRotaryMulGrad", "dy",
                                       ROPEKIT_CANN_INPLACE_PARTIAL_ROTARY_MUL_GRAD);
    return k;
}

} // namespace ropekit_ge
