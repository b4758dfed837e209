/* The operators the graph runtime executes, behind one interface: which ports and
 * attributes each reads, how its outputs relate to its inputs, and how it runs (checked
 * by the aclnn face's phase 1, executed by the native API). */
#ifndef ROPEKIT_GE_OP_KERNELS_H_
#define ROPEKIT_GE_OP_KERNELS_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "ge/ge_api_types.h"
#include "operator_impl.h"
#include "ropekit/ropekit.h"

namespace ropekit_ge {

/* A tensor during one RunGraph. */
struct RunValue {
    ge::TensorDesc desc;
    std::shared_ptr<uint8_t> storage; /* owned, or the caller's buffer kept alive */
    size_t bytes = 0;
    bool caller_owned = false; /* a feed or a constant: never written, never given away */
    uint8_t *data() const { return storage.get(); }
};

/* Native plans of one node, by the shapes and dtypes of its inputs (a node sees few). */
class PlanCache {
  public:
    std::shared_ptr<ropekit_plan> Find(const std::vector<int64_t> &key);
    void Insert(const std::vector<int64_t> &key, const std::shared_ptr<ropekit_plan> &plan);

  private:
    static const size_t kCapacity = 8;
    std::mutex lock_;
    std::vector<std::pair<std::vector<int64_t>, std::shared_ptr<ropekit_plan>>> plans_;
};

/* Dtype and dims of every input (-1 for an absent one): the key of PlanCache. */
std::vector<int64_t> ShapeKey(const std::vector<const RunValue *> &inputs);

/* What a kernel gets to run one node. Inputs and outputs are in the kernel's port order
 * (NULL for an optional input the graph leaves unconnected); an in-place output already
 * holds a private copy of its input. */
struct NodeRun {
    const ge::OperatorImpl &op;
    PlanCache &plans;
    std::vector<const RunValue *> in;
    std::vector<RunValue *> out;
};

class OpKernel {
  public:
    virtual ~OpKernel() = default;
    virtual const char *Type() const = 0;
    virtual std::vector<std::string> Inputs() const = 0;
    virtual std::vector<std::string> Outputs() const = 0;
    /* The kernel input whose description the output (a kernel port number) takes. */
    virtual size_t OutputFrom(size_t output) const = 0;
    /* Outputs are written over (a copy of) the input they take their description from. */
    virtual bool InPlace() const = 0;
    /* The attributes it reads have the types it needs (AddGraph); *problem says which
     * does not. */
    virtual bool CheckAttrs(const ge::OperatorImpl &op, std::string *problem) const = 0;
    /* Runs the node; on failure *detail says why (without the node's name). */
    virtual ge::Status Run(const NodeRun &run, std::string *detail) const = 0;

    /* For a node with this kernel: the node input index whose description node output
     * `output` takes, or -1. */
    int OutputTakesDescOf(const ge::OperatorImpl &op, size_t output) const;
};

/* NULL for a type the runtime does not execute (Data and Const are the runtime's own). */
const OpKernel *FindKernel(const std::string &type);
/* "InplacePartialRotaryMul, InplacePartialRotaryMulGrad, RopeWithSinCosCache, ..." */
std::string KernelTypeNames();

/* Kernels share these: reading an attribute the prototype check already typed. */
int64_t IntAttr(const ge::OperatorImpl &op, const char *name);
std::vector<int64_t> IntListAttr(const ge::OperatorImpl &op, const char *name);
bool BoolAttr(const ge::OperatorImpl &op, const char *name);
std::string StringAttr(const ge::OperatorImpl &op, const char *name);
/* A NULL problem when the attribute is absent or has `kind`, else the message. */
bool AttrHasKind(const ge::OperatorImpl &op, const char *name, AttrKind kind, bool required,
                 std::string *problem);

const OpKernel &PartialRotaryForwardKernel();
const OpKernel &PartialRotaryGradKernel();
const OpKernel &RopeWithSinCosCacheKernel();
const OpKernel &RotaryPositionEmbeddingKernel();
const OpKernel &RotaryPositionEmbeddingGradKernel();
const OpKernel &InterleaveRopeKernel();
const OpKernel &ApplyRotaryPosEmbKernel();

} // namespace ropekit_ge

#endif /* ROPEKIT_GE_OP_KERNELS_H_ */
