/* RopeWithSinCosCache: a plan under the rules of aclnnRopeWithSinCosCache (V2 when the
 * node carries a cacheMode attribute) once per shape, the prototype's head-count and
 * stride attributes checked against the tensors, execution by ropekit_rope_execute. */
#include "cann_plan.h"
#include "ge/ge_error_codes.h"
#include "messages.h"
#include "op_kernels.h"

namespace ropekit_ge {
namespace {

enum { kPositions, kQuery, kKey, kCache };

/* numQHeads * headSize must be the row width of queryIn; qStride 0 or that width. */
bool CheckHeads(const ge::OperatorImpl &op, const RunValue &t, const char *tensor,
                const char *heads_attr, const char *stride_attr, std::string *detail) {
    std::vector<int64_t> dims = t.desc.GetShape().GetDims();
    int64_t width = dims.empty() ? 0 : dims.back();
    int64_t heads = IntAttr(op, heads_attr);
    int64_t head_size = IntAttr(op, "headSize");
    if (heads < 1 || head_size < 1 || width % head_size != 0 || width / head_size != heads) {
        *detail = Format("attribute %s = %lld with headSize = %lld: %s rows are %lld wide, so "
                         "%s * headSize must equal %lld",
                         heads_attr, static_cast<long long>(heads),
                         static_cast<long long>(head_size), tensor, static_cast<long long>(width),
                         heads_attr, static_cast<long long>(width));
        return false;
    }
    int64_t stride = IntAttr(op, stride_attr);
    if (stride != 0 && stride != width) {
        *detail = Format("attribute %s = %lld: graph tensors are dense, so it must be 0 or the row "
                         "width of %s, %lld",
                         stride_attr, static_cast<long long>(stride), tensor,
                         static_cast<long long>(width));
        return false;
    }
    return true;
}

class RopeKernel : public OpKernel {
  public:
    const char *Type() const override { return "RopeWithSinCosCache"; }
    std::vector<std::string> Inputs() const override {
        return {"positions", "queryIn", "keyIn", "cosSinCache"};
    }
    std::vector<std::string> Outputs() const override { return {"queryOut", "keyOut"}; }
    size_t OutputFrom(size_t output) const override { return output == 0 ? kQuery : kKey; }
    bool InPlace() const override { return false; }

    bool CheckAttrs(const ge::OperatorImpl &op, std::string *problem) const override {
        return AttrHasKind(op, "numQHeads", AttrKind::Int, true, problem) &&
               AttrHasKind(op, "numKHeads", AttrKind::Int, true, problem) &&
               AttrHasKind(op, "headSize", AttrKind::Int, true, problem) &&
               AttrHasKind(op, "mropeSection", AttrKind::ListInt, true, problem) &&
               AttrHasKind(op, "qStride", AttrKind::Int, true, problem) &&
               AttrHasKind(op, "kStride", AttrKind::Int, true, problem) &&
               AttrHasKind(op, "isNeoxStyle", AttrKind::Bool, true, problem) &&
               AttrHasKind(op, "cacheMode", AttrKind::Int, false, problem);
    }

    ge::Status Run(const NodeRun &run, std::string *detail) const override {
        const RunValue &pos = *run.in[kPositions];
        const RunValue &q = *run.in[kQuery];
        const RunValue &k = *run.in[kKey];
        const RunValue &cache = *run.in[kCache];
        RunValue &qo = *run.out[0];
        RunValue &ko = *run.out[1];
        std::vector<int64_t> sections = IntListAttr(run.op, "mropeSection");
        std::vector<int64_t> key = ShapeKey(run.in);
        std::shared_ptr<ropekit_plan> plan = run.plans.Find(key);
        if (!plan) {
            ropekit_tensor tp = NativeTensor(pos), tq = NativeTensor(q), tk = NativeTensor(k),
                           tc = NativeTensor(cache), tqo = NativeTensor(qo), tko = NativeTensor(ko);
            const ropekit_cann_op op = run.op.Attr("cacheMode")
                                           ? ROPEKIT_CANN_ROPE_WITH_SIN_COS_CACHE_V2
                                           : ROPEKIT_CANN_ROPE_WITH_SIN_COS_CACHE;
            /* the attribute is always set (its default is {0, 0, 0}): never "no sections" */
            static const int64_t no_values = 0;
            ropekit_plan *made = nullptr;
            int32_t code = 0;
            ropekit_status made_st = ropekit_cann_rope_plan_create(
                op, &tp, &tq, &tk, &tc, &tqo, &tko, sections.empty() ? &no_values : sections.data(),
                sections.size(), IntAttr(run.op, "headSize"), BoolAttr(run.op, "isNeoxStyle"),
                IntAttr(run.op, "cacheMode"), &made, &code);
            ge::Status st = CannVerdict(made_st, code, op, detail);
            if (st != ge::GRAPH_SUCCESS)
                return st;
            plan = OwnPlan(made);
            if (!CheckHeads(run.op, q, "queryIn", "numQHeads", "qStride", detail) ||
                !CheckHeads(run.op, k, "keyIn", "numKHeads", "kStride", detail))
                return ACL_ERROR_GE_PARAM_INVALID;
            run.plans.Insert(key, plan);
        }
        return NativeVerdict(
            ropekit_rope_execute(plan.get(), reinterpret_cast<const int64_t *>(pos.data()),
                                 q.data(), k.data(), cache.data(), qo.data(), ko.data()),
            "ropekit_rope_execute", detail);
    }
};

} // namespace

const OpKernel &RopeWithSinCosCacheKernel() {
    static const RopeKernel k;
    return k;
}

} // namespace ropekit_ge
