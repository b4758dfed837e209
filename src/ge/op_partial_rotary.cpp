/* InplacePartialRotaryMul and InplacePartialRotaryMulGrad: rules of
 * aclnnInplacePartialRotaryMul(Grad), execution by ropekit_partial_rotary_execute. */
#include "aclnn/acl_meta.h"
#include "aclnn_check.h"
#include "ge/ge_error_codes.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"
#include "messages.h"
#include "op_kernels.h"

namespace ropekit_ge {
namespace {

class PartialRotaryKernel : public OpKernel {
  public:
    PartialRotaryKernel(const char *type, const char *data, const char *aclnn_api,
                        ropekit_direction direction)
        : type_(type), data_(data), aclnn_api_(aclnn_api), direction_(direction) {}

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
            ge::Status st = Check(x, cos, sin, mode, slice, detail);
            if (st != ge::GRAPH_SUCCESS)
                return st;
            int64_t start = slice.size() == 2 ? slice[0] : 0;
            int64_t end = slice.size() == 2 ? slice[1] : 0;
            ropekit_tensor tx = NativeTensor(x), tc = NativeTensor(cos), ts = NativeTensor(sin);
            ropekit_plan *made = nullptr;
            st = NativeVerdict(ropekit_partial_rotary_plan_create(
                                   &tx, &tc, &ts, static_cast<ropekit_rotary_mode>(mode), start,
                                   end, direction_, &made),
                               "ropekit_partial_rotary_plan_create", detail);
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
    ge::Status Check(const RunValue &x, const RunValue &cos, const RunValue &sin, int64_t mode,
                     const std::vector<int64_t> &slice, std::string *detail) const {
        AclTensors tensors;
        aclTensor *tx = tensors.Add(x, detail);
        aclTensor *tc = tx ? tensors.Add(cos, detail) : nullptr;
        aclTensor *ts = tc ? tensors.Add(sin, detail) : nullptr;
        if (!ts)
            return ACL_ERROR_GE_PARAM_INVALID;
        AclIntArray array(slice);
        uint64_t workspace = 0;
        aclOpExecutor *executor = nullptr;
        aclnnStatus st = direction_ == ROPEKIT_FORWARD
                             ? aclnnInplacePartialRotaryMulGetWorkspaceSize(
                                   tx, tc, ts, mode, array.get(), &workspace, &executor)
                             : aclnnInplacePartialRotaryMulGradGetWorkspaceSize(
                                   tx, tc, ts, mode, array.get(), &workspace, &executor);
        return AclnnVerdict(st, executor, aclnn_api_, detail);
    }

    const char *type_;
    const char *data_;
    const char *aclnn_api_;
    ropekit_direction direction_;
};

} // namespace

const OpKernel &PartialRotaryForwardKernel() {
    static const PartialRotaryKernel k("InplacePartialRotaryMul", "x",
                                       "aclnnInplacePartialRotaryMul", ROPEKIT_FORWARD);
    return k;
}

const OpKernel &PartialRotaryGradKernel() {
    static const PartialRotaryKernel k("InplacePartialRotaryMulGrad", "dy",
                                       "aclnnInplacePartialRotaryMulGrad", ROPEKIT_BACKWARD);
    return k;
}

} // namespace ropekit_ge
