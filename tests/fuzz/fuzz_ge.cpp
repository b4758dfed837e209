/* Fuzz target: GE graphs (include/graph, include/ge, include/op_proto). Each input builds
 * one graph around InplacePartialRotaryMul, InplacePartialRotaryMulGrad or
 * RopeWithSinCosCache: Data nodes with fuzzed indices and optional declared descriptions,
 * Const nodes, attributes set through the generated setters or SetAttr (also of the wrong
 * kind, or missing), connections by name, by index, wrong ones and cycles, graph outputs
 * by operator, index or name; then AddGraph, RunGraph with fuzzed feeds (dtype, shape,
 * byte size) run twice and again with new values, a change to the operators after
 * AddGraph, RemoveGraph, and aclgrphDumpGraph into a temporary directory. Sometimes a
 * second operator is chained behind the first.
 *
 * Oracle: no crash or sanitizer report; a failing call returns a non-SUCCESS status with a
 * message from GEGetErrorMsgV2() naming the call, leaves the input tensors unchanged and
 * the outputs vector untouched. A graph the target built without a deliberate mistake is
 * accepted by AddGraph, and RunGraph succeeds exactly when the aclnn face's phase 1
 * accepts the same tensors (for RopeWithSinCosCache also when the head counts and strides
 * fit and every position is in range); its outputs are then the bytes of the native API
 * (ropekit.h) on the same inputs, on every run. */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache_v2.h"
#include "ge_api.h"
#include "ge_ir_build.h"
#include "graph.h"
#include "ops_proto_posembedding.h"
#include "ropekit/ropekit.h"

#include "fuzz_check.h"
#include "fuzz_input.h"

namespace {

using Dims = std::vector<int64_t>;
using Bytes = std::vector<uint8_t>;

enum OpKind { kForward, kGradient, kRope };

std::string g_dump_dir; /* <tmp>/d/ */
uint8_t g_empty;        /* the data of an empty tensor */

/* Bytes per element; 1 for types without a whole-byte size (a feed of them is refused). */
size_t ItemSize(ge::DataType dt) {
    int size = ge::GetSizeByDataType(dt);
    return size > 0 ? static_cast<size_t>(size) : 1;
}

/* A byte for a rare choice (a mistake): an exhausted input reads as 255, the common case. */
uint8_t Knob(fz_input *in) {
    return static_cast<uint8_t>(255 - fz_u8(in));
}

bool IsFloat(ge::DataType dt) {
    return dt == ge::DT_FLOAT || dt == ge::DT_FLOAT16 || dt == ge::DT_BF16;
}

/* Elements of a shape; 0 for an empty one whatever its other (maybe huge) dims, and
 * INT64_MAX for a product beyond int64 (a huge-dimension mistake), so that only an empty
 * shape counts 0. */
int64_t Numel(const Dims &d) {
    for (int64_t v : d)
        if (v == 0)
            return 0;
    int64_t n = 1;
    for (int64_t v : d)
        if (v < 0 || __builtin_mul_overflow(n, v, &n))
            return INT64_MAX;
    return n;
}

/* One operator input: a dense host tensor. */
struct Value {
    Dims shape;
    ge::DataType dt = ge::DT_FLOAT;
    Bytes bytes;
};

ge::TensorDesc DescOf(const Dims &shape, ge::DataType dt) {
    return ge::TensorDesc(ge::Shape(shape), ge::FORMAT_ND, dt);
}

ge::Tensor TensorOf(const Value &v) {
    return ge::Tensor(DescOf(v.shape, v.dt), v.bytes.data(), v.bytes.size());
}

void Fill(fz_input *in, Value *v) {
    size_t n = static_cast<size_t>(Numel(v->shape));
    v->bytes.assign(n * ItemSize(v->dt), 0);
    if (IsFloat(v->dt) && n > 0)
        fz_fill_float(in, v->bytes.data(), n, static_cast<ropekit_dtype>(v->dt), Knob(in) < 16);
    else
        for (auto &b : v->bytes)
            b = fz_u8(in);
}

/* Positions in [0, max) mostly; sometimes one outside. */
void FillPositions(fz_input *in, Value *v, int64_t max) {
    size_t n = static_cast<size_t>(Numel(v->shape));
    v->bytes.assign(n * ItemSize(v->dt), 0);
    bool wild = Knob(in) < 24;
    for (size_t i = 0; i < n; i++) {
        int64_t p = max > 0 ? fz_range(in, 0, max - 1) : 0;
        if (wild && Knob(in) < 64)
            p = fz_int(in, -2, max + 2);
        if (v->dt == ge::DT_INT64)
            std::memcpy(&v->bytes[i * 8], &p, 8);
        else {
            int32_t q = static_cast<int32_t>(p);
            std::memcpy(&v->bytes[i * 4], &q, 4);
        }
    }
}

/* ---------------------------------------------------------------- the problem */

struct Problem {
    OpKind kind = kForward;
    std::vector<Value> in; /* the operator's inputs, in prototype order */
    /* partial rotary attributes */
    int64_t mode = 1;
    Dims slice{0, 0};
    bool slice_set = true, mode_set = true;
    /* rope attributes */
    int64_t q_heads = 1, k_heads = 1, head_size = 32, q_stride = 0, k_stride = 0;
    Dims sections{0, 0, 0};
    bool neox = true, sections_set = false, cache_mode_set = false;
    int64_t cache_mode = 0;
    int64_t max_pos = 1;
};

ge::DataType PickFloat(fz_input *in) {
    static const int64_t kDts[] = {ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16};
    return static_cast<ge::DataType>(fz_pick(in, kDts, 3));
}

/* Mostly a float dtype; sometimes one the operator refuses. */
ge::DataType PickDtype(fz_input *in) {
    if (Knob(in) >= 12)
        return PickFloat(in);
    static const int64_t kOdd[] = {ge::DT_INT64, ge::DT_INT32, ge::DT_DOUBLE, ge::DT_INT8};
    return static_cast<ge::DataType>(fz_pick(in, kOdd, 4));
}

void MakePartialRotary(fz_input *in, Problem *p) {
    ge::DataType xdt = PickDtype(in);
    ge::DataType cdt = Knob(in) >= 96 ? xdt : PickDtype(in);
    Dims x(4);
    for (int k = 0; k < 3; k++)
        x[k] = fz_range(in, 1, 3);
    x[3] = 2 * fz_range(in, 1, 8);
    if (Knob(in) < 8)
        x[3] = fz_range(in, 0, 17); /* odd, empty */
    int64_t start = fz_range(in, 0, x[3]);
    int64_t end = start + 2 * fz_range(in, 0, (x[3] - start) / 2);
    Dims c(4);
    for (int k = 0; k < 3; k++)
        c[k] = fz_bool(in) ? 1 : x[k];
    c[3] = end - start;
    if (Knob(in) < 10)
        c[fz_range(in, 0, 3)] += 1; /* no longer broadcasts */
    if (Knob(in) < 8)
        x.pop_back(); /* rank 3 */
    p->in.resize(3);
    p->in[0].shape = x;
    p->in[0].dt = xdt;
    p->in[1].shape = p->in[2].shape = c;
    p->in[1].dt = p->in[2].dt = cdt;
    for (auto &v : p->in)
        Fill(in, &v);
    p->mode = Knob(in) >= 24 ? 1 : fz_int(in, -1, 4);
    p->mode_set = Knob(in) >= 10; /* the default, 0, fails at RunGraph */
    p->slice = {start, end};
    uint8_t s = Knob(in);
    if (s < 12)
        p->slice = {fz_int(in, -2, 20), fz_int(in, -2, 20)};
    else if (s < 18)
        p->slice.resize(static_cast<size_t>(fz_range(in, 0, 3)));
    p->slice_set = Knob(in) >= 8;
}

void MakeRope(fz_input *in, Problem *p) {
    ge::DataType dt = PickDtype(in);
    const int64_t align = dt == ge::DT_FLOAT ? 16 : 32;
    p->head_size = align * fz_range(in, 1, 2);
    int64_t rot = align * fz_range(in, 1, p->head_size / align);
    bool mrope = false;
    if (Knob(in) < 64 && rot == 64) { /* h = 32: {8, 12, 12} or {11, 11, 10} */
        mrope = true;
        p->sections = fz_bool(in) ? Dims{8, 12, 12} : Dims{11, 11, 10};
        p->sections_set = true;
    } else if (Knob(in) < 40) {
        p->sections_set = true;
        p->sections = Dims{0, 0, 0};
    }
    if (Knob(in) < 12) { /* anything */
        p->sections_set = true;
        p->sections.resize(static_cast<size_t>(fz_range(in, 0, 4)));
        for (auto &s : p->sections)
            s = fz_int(in, -1, 32);
        mrope = !p->sections.empty() && p->sections[0] > 0;
    }
    if (Knob(in) < 12)
        rot = fz_range(in, 0, 2 * p->head_size); /* misaligned, wider than a head */
    int64_t tokens = fz_range(in, 1, 4);
    if (Knob(in) < 6)
        tokens = 0;
    p->q_heads = fz_range(in, 1, 2);
    p->k_heads = fz_range(in, 1, 2);
    p->max_pos = fz_range(in, 1, 8);
    p->neox = fz_bool(in);
    p->in.resize(4);
    Value &pos = p->in[0], &q = p->in[1], &k = p->in[2], &cache = p->in[3];
    pos.dt = Knob(in) < 16 ? ge::DT_INT32 : ge::DT_INT64;
    pos.shape = mrope ? Dims{static_cast<int64_t>(p->sections.size()), tokens} : Dims{tokens};
    q.dt = k.dt = dt;
    cache.dt = Knob(in) < 16 ? PickFloat(in) : dt;
    q.shape = {tokens, p->q_heads * p->head_size};
    k.shape = {tokens, p->k_heads * p->head_size};
    cache.shape = {p->max_pos, rot};
    if (Knob(in) < 8)
        k.shape = {tokens, p->k_heads, p->head_size}; /* rank 3 */
    FillPositions(in, &pos, p->max_pos);
    Fill(in, &q);
    Fill(in, &k);
    Fill(in, &cache);
    uint8_t a = Knob(in);
    if (a < 10)
        p->q_heads += fz_bool(in) ? 1 : -1;
    else if (a < 20)
        p->head_size = fz_int(in, -1, 64);
    p->q_stride = Knob(in) < 32 ? q.shape.back() : 0;
    if (Knob(in) < 8)
        p->k_stride = fz_int(in, -1, 200);
    p->cache_mode_set = Knob(in) < 64;
    p->cache_mode = Knob(in) >= 36 ? fz_range(in, 0, 1) : fz_int(in, -1, 3);
}

Problem MakeProblem(fz_input *in, OpKind kind) {
    Problem p;
    p.kind = kind;
    if (kind == kRope)
        MakeRope(in, &p);
    else
        MakePartialRotary(in, &p);
    return p;
}

const char *const kPrInputs[] = {"x", "cos", "sin"};
const char *const kGradInputs[] = {"dy", "cos", "sin"};
const char *const kRopeInputs[] = {"positions", "queryIn", "keyIn", "cosSinCache"};

const char *InputName(OpKind kind, size_t i) {
    return kind == kRope ? kRopeInputs[i] : kind == kGradient ? kGradInputs[i] : kPrInputs[i];
}

/* ---------------------------------------------------------------- the references */

struct Outcome {
    bool ok = false;
    std::vector<Value> out; /* all outputs of the operator (Rope: queryOut, keyOut) */
    std::string why;
};

ropekit_tensor Native(const Value &v, void *data) {
    return ropekit_tensor_make(data, static_cast<ropekit_dtype>(v.dt),
                               static_cast<int32_t>(v.shape.size()), v.shape.data(), nullptr);
}

aclTensor *Acl(const Value &v, void *data) {
    return aclCreateTensor(v.shape.data(), v.shape.size(), static_cast<aclDataType>(v.dt), nullptr,
                           0, ACL_FORMAT_ND, v.shape.data(), v.shape.size(), data);
}

/* Phase 1 of the aclnn face on these inputs: 0 or its code. */
int AclnnPhase1(const Problem &p, std::vector<Value> &in, std::vector<Value> &out) {
    std::vector<aclTensor *> t;
    for (auto &v : in)
        t.push_back(Acl(v, v.bytes.empty() ? &g_empty : v.bytes.data()));
    for (auto &v : out)
        t.push_back(Acl(v, v.bytes.empty() ? &g_empty : v.bytes.data()));
    for (aclTensor *x : t)
        FZ_CHECK(x, "aclCreateTensor for a graph tensor: %s", aclGetRecentErrMsg());
    uint64_t ws = 0;
    aclOpExecutor *e = nullptr;
    int st;
    if (p.kind == kRope) {
        Dims sections = p.sections_set ? p.sections : Dims{0, 0, 0};
        aclIntArray *a = aclCreateIntArray(sections.data(), sections.size());
        st = p.cache_mode_set
                 ? aclnnRopeWithSinCosCacheV2GetWorkspaceSize(t[0], t[1], t[2], t[3], a,
                                                              p.head_size, p.neox, p.cache_mode,
                                                              t[4], t[5], &ws, &e)
                 : aclnnRopeWithSinCosCacheGetWorkspaceSize(t[0], t[1], t[2], t[3], a, p.head_size,
                                                            p.neox, t[4], t[5], &ws, &e);
        aclDestroyIntArray(a);
    } else {
        Dims slice = p.slice_set ? p.slice : Dims{0, 0};
        aclIntArray *a = aclCreateIntArray(slice.data(), slice.size());
        int64_t mode = p.mode_set ? p.mode : 0;
        st = p.kind == kForward
                 ? aclnnInplacePartialRotaryMulGetWorkspaceSize(t[0], t[1], t[2], mode, a, &ws, &e)
                 : aclnnInplacePartialRotaryMulGradGetWorkspaceSize(t[0], t[1], t[2], mode, a, &ws,
                                                                    &e);
        aclDestroyIntArray(a);
    }
    if (st == 0)
        aclDestroyAclOpExecutor(e);
    for (aclTensor *x : t)
        aclDestroyTensor(x);
    return st;
}

bool HeadsFit(const Value &v, int64_t heads, int64_t head_size, int64_t stride) {
    int64_t width = v.shape.empty() ? 0 : v.shape.back();
    if (heads < 1 || head_size < 1 || width % head_size != 0 || width / head_size != heads)
        return false;
    return stride == 0 || stride == width;
}

bool PositionsInRange(const Problem &p) {
    const Value &pos = p.in[0];
    if (pos.dt != ge::DT_INT64)
        return true; /* refused by phase 1 anyway */
    for (size_t i = 0; i + 8 <= pos.bytes.size(); i += 8) {
        int64_t v;
        std::memcpy(&v, &pos.bytes[i], 8);
        if (v < 0 || v >= p.in[3].shape[0])
            return false;
    }
    return true;
}

/* Whether the model can hold every input and output of the problem: element counts that
 * fit int64 and at most 2^28 bytes each (a shape declared with a huge dimension is left to
 * the library, whose run must then fail cleanly or not at all). */
bool Holdable(const Problem &p) {
    for (const Value &v : p.in)
        if (Numel(v.shape) > (int64_t{1} << 28) / 8)
            return false;
    return true;
}

/* What RunGraph must give for a single operator on these inputs. */
Outcome Expect(const Problem &p) {
    Outcome o;
    std::vector<Value> in = p.in;
    std::vector<Value> out;
    if (p.kind == kRope) {
        out.resize(2);
        for (int k = 0; k < 2; k++) {
            out[k].shape = in[1 + k].shape;
            out[k].dt = in[1 + k].dt;
            out[k].bytes.assign(static_cast<size_t>(Numel(out[k].shape)) * ItemSize(out[k].dt), 0);
        }
    }
    int st = AclnnPhase1(p, in, out);
    bool heads = p.kind != kRope || (HeadsFit(p.in[1], p.q_heads, p.head_size, p.q_stride) &&
                                     HeadsFit(p.in[2], p.k_heads, p.head_size, p.k_stride));
    bool range = p.kind != kRope || PositionsInRange(p);
    o.ok = st == 0 && heads && range;
    ropekit_status rs;
    if (p.kind == kRope) {
        ropekit_tensor t[6];
        for (int i = 0; i < 4; i++)
            t[i] = Native(in[i], in[i].bytes.data());
        for (int i = 0; i < 2; i++)
            t[4 + i] = Native(out[i], out[i].bytes.data());
        Dims sections = p.sections_set ? p.sections : Dims{0, 0, 0};
        ropekit_rope_config config{};
        config.head_size = p.head_size;
        config.style = p.neox ? ROPEKIT_ROPE_NEOX : ROPEKIT_ROPE_GPTJ;
        config.sections = sections.empty() ? nullptr : sections.data();
        config.num_sections = static_cast<int32_t>(sections.size());
        config.cache_mode = p.cache_mode_set ? p.cache_mode : 0;
        rs = ropekit_rope(&t[0], &t[1], &t[2], &t[3], &t[4], &t[5], &config);
        o.out = out;
    } else {
        Dims slice = p.slice_set ? p.slice : Dims{0, 0};
        int64_t start = slice.size() == 2 ? slice[0] : 0, end = slice.size() == 2 ? slice[1] : 0;
        ropekit_tensor x = Native(in[0], in[0].bytes.data());
        ropekit_tensor c = Native(in[1], in[1].bytes.data());
        ropekit_tensor s = Native(in[2], in[2].bytes.data());
        rs = ropekit_partial_rotary(
            &x, &c, &s, static_cast<ropekit_rotary_mode>(p.mode_set ? p.mode : 0), start, end,
            p.kind == kForward ? ROPEKIT_FORWARD : ROPEKIT_BACKWARD);
        o.out.push_back(in[0]);
    }
    if (o.ok)
        FZ_CHECK(rs == ROPEKIT_OK, "the aclnn face accepts what the native API refuses: %s",
                 ropekit_last_error());
    if (!o.ok)
        o.why = st ? aclGetRecentErrMsg() : !heads ? "heads or strides" : "positions";
    return o;
}

/* ---------------------------------------------------------------- the graph */

/* Which value a graph output is: output k of operator `node`, or (node < 0) source value
 * k of the problem (a Data or Const node read directly). */
struct OutputRef {
    int node;
    int k;
};

struct Built {
    ge::Graph graph;
    std::vector<ge::Operator> nodes; /* every operator made (BreakConnect at the end) */
    std::vector<ge::Operator> ops;   /* the RoPE operators, in chain order */
    std::vector<ge::Operator> sources;
    std::vector<int> data_index; /* per source: its Data index (any value; a Const: -1) */
    std::vector<char> is_data;   /* per source: a Data node (else a Const) */
    std::vector<int> declared;   /* per source: a Data node with a declared description */
    std::vector<OutputRef> outputs;
    bool add_err = false, run_err = false, unsure = false;
    std::string why;
};

void Mistake(Built *b, bool at_add, const char *what) {
    (at_add ? b->add_err : b->run_err) = true;
    if (b->why.empty())
        b->why = what;
    FZ_TRACE("  mistake: %s", what);
}

bool InTypeList(OpKind kind, size_t input, ge::DataType dt) {
    if (kind == kRope && input == 0)
        return dt == ge::DT_INT32 || dt == ge::DT_INT64;
    return IsFloat(dt);
}

ge::Operator MakeOp(OpKind kind, const std::string &name) {
    switch (kind) {
    case kForward:
        return ge::op::InplacePartialRotaryMul(name.c_str());
    case kGradient:
        return ge::op::InplacePartialRotaryMulGrad(name.c_str());
    default:
        return ge::op::RopeWithSinCosCache(name.c_str());
    }
}

/* Connects input i of op to src's output, in one of the API's ways (or a wrong one). */
void Connect(fz_input *in, Built *b, ge::Operator &op, OpKind kind, size_t i,
             const ge::Operator &src, const char *out_name) {
    const char *name = InputName(kind, i);
    uint8_t how = fz_u8(in);
    if (how < 236 || b->add_err) {
        switch (how % 4) {
        case 0:
            op.SetInput(name, src);
            break;
        case 1:
            op.SetInput(name, src, out_name);
            break;
        case 2:
            op.SetInput(std::string(name), src, 0u);
            break;
        default:
            op.SetInput(static_cast<uint32_t>(i), src, 0u);
            break;
        }
        return;
    }
    switch (how % 5) {
    case 0:
        op.SetInput("no_such_input", src);
        Mistake(b, true, "an input name the prototype lacks");
        op.SetInput(name, src);
        break;
    case 1:
        op.SetInput(name, src, 1u);
        Mistake(b, true, "a source output index the source lacks");
        break;
    case 2:
        op.SetInput(name, src, "no_such_output");
        Mistake(b, true, "a source output name the source lacks");
        break;
    case 3:
        op.SetInput(static_cast<uint32_t>(7 + i), src, 0u);
        Mistake(b, true, "an input index the prototype lacks");
        break;
    default:
        Mistake(b, true, "a required input not connected");
        break;
    }
}

void SetPartialRotaryAttrs(fz_input *in, Built *b, ge::Operator &op, const Problem &p) {
    uint8_t c = fz_u8(in);
    if (p.mode_set) {
        if (c < 240 || b->add_err) {
            if (c % 3 == 0)
                op.SetAttr("rotary_mode", static_cast<int64_t>(p.mode));
            else if (c % 3 == 1 && p.mode >= INT32_MIN && p.mode <= INT32_MAX)
                op.SetAttr("rotary_mode", static_cast<int32_t>(p.mode));
            else
                op.SetAttr("rotary_mode", static_cast<int64_t>(p.mode));
        } else {
            if (c % 4 == 0)
                op.SetAttr("rotary_mode", "1");
            else if (c % 4 == 1)
                op.SetAttr("rotary_mode", 1.0f);
            else if (c % 4 == 2)
                op.SetAttr("rotary_mode", true);
            else
                op.SetAttr("rotary_mode", std::vector<int64_t>{1});
            Mistake(b, true, "rotary_mode of another kind");
        }
    }
    c = fz_u8(in);
    if (p.slice_set) {
        if (c < 240 || b->add_err) {
            if (c % 2 == 0) {
                op.SetAttr("partial_slice", p.slice);
            } else {
                std::vector<int32_t> narrow;
                bool fits = true;
                for (int64_t v : p.slice) {
                    fits = fits && v >= INT32_MIN && v <= INT32_MAX;
                    narrow.push_back(static_cast<int32_t>(v));
                }
                if (fits)
                    op.SetAttr("partial_slice", narrow);
                else
                    op.SetAttr("partial_slice", p.slice);
            }
        } else {
            if (c % 2)
                op.SetAttr("partial_slice", static_cast<int64_t>(0));
            else
                op.SetAttr("partial_slice", std::vector<float>{0.0f, 2.0f});
            Mistake(b, true, "partial_slice of another kind");
        }
    }
}

void SetRopeAttrs(fz_input *in, Built *b, ge::Operator &op, const Problem &p) {
    const char *const required[] = {"numQHeads", "numKHeads", "headSize"};
    const int64_t values[] = {p.q_heads, p.k_heads, p.head_size};
    for (int i = 0; i < 3; i++) {
        uint8_t c = fz_u8(in);
        if (c < 246 || b->add_err)
            op.SetAttr(required[i], values[i]);
        else if (c % 2)
            Mistake(b, true, "a required attribute not set");
        else {
            op.SetAttr(required[i], "8");
            Mistake(b, true, "a required attribute of another kind");
        }
    }
    if (p.sections_set)
        op.SetAttr("mropeSection", p.sections);
    if (p.q_stride || fz_bool(in))
        op.SetAttr("qStride", p.q_stride);
    if (p.k_stride || fz_bool(in))
        op.SetAttr("kStride", p.k_stride);
    if (!p.neox || fz_bool(in))
        op.SetAttr("isNeoxStyle", p.neox);
    if (p.cache_mode_set)
        op.SetAttr("cacheMode", p.cache_mode);
    if (Knob(in) < 6 && !b->add_err) {
        op.SetAttr("isNeoxStyle", static_cast<int64_t>(1));
        Mistake(b, true, "isNeoxStyle of another kind");
    }
}

/* A Data node's declared description: the feed's, with unknown dims, or a wrong one. */
bool Declare(fz_input *in, Built *b, ge::op::Data &d, const Value &v, OpKind kind, size_t i) {
    uint8_t c = fz_u8(in);
    if (c < 150)
        return false;
    Dims shape = v.shape;
    ge::DataType dt = v.dt;
    switch (c % 8) {
    case 0:
        for (auto &x : shape)
            if (fz_bool(in))
                x = -1;
        break;
    case 1:
        shape = {-2};
        break;
    case 2:
        if (!shape.empty() && !b->add_err) {
            shape[static_cast<size_t>(fz_range(in, 0, static_cast<int64_t>(shape.size()) - 1))] +=
                1;
            Mistake(b, false, "a feed against its Data node's declared shape");
        }
        break;
    case 3:
        if (!b->add_err) {
            dt = dt == ge::DT_FLOAT16 ? ge::DT_BF16 : ge::DT_FLOAT16;
            if (!InTypeList(kind, i, dt))
                Mistake(b, true, "a declared dtype outside the prototype's list");
            else
                Mistake(b, false, "a feed against its Data node's declared dtype");
        }
        break;
    default:
        break;
    }
    if (dt == v.dt && !InTypeList(kind, i, dt))
        Mistake(b, true, "a declared dtype outside the prototype's list");
    if (fz_bool(in))
        d.update_output_desc_y(DescOf(shape, dt));
    else
        d.update_input_desc_x(DescOf(shape, dt));
    return true;
}

/* Builds the graph for problem p (and, when chain, a second partial-rotary operator that
 * reads the first one's output and the same cos/sin). */
Built Build(fz_input *in, const Problem &p, bool chain, const std::string &graph_name) {
    Built b;
    b.graph = ge::Graph(graph_name);
    const size_t n = p.in.size();
    /* sources: Data with a permutation of indices, sometimes a Const */
    std::vector<int> is_const(n, 0);
    int n_data = 0;
    for (size_t i = 0; i < n; i++) {
        is_const[i] = Knob(in) < 20;
        if (is_const[i] && !InTypeList(p.kind, i, p.in[i].dt))
            b.unsure = true; /* a Const of a dtype the operator does not take */
        n_data += !is_const[i];
    }
    std::vector<int> perm;
    for (int i = 0; i < n_data; i++)
        perm.push_back(i);
    for (int i = n_data - 1; i > 0; i--)
        std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(fz_range(in, 0, i))]);
    uint8_t bad_index = Knob(in);
    bool renumbered = false;
    if (n_data > 0 && bad_index < 12) {
        int j = static_cast<int>(fz_range(in, 0, n_data - 1));
        perm[static_cast<size_t>(j)] = bad_index % 3 == 0 ? -1
                                       : bad_index % 3 == 1
                                           ? n_data
                                           : perm[static_cast<size_t>((j + 1) % n_data)];
        /* not a mistake: the Data nodes are numbered in SetInputs' order, as CANN's GE does */
        renumbered = n_data > 1 || bad_index % 3 != 2;
    }
    int next = 0;
    for (size_t i = 0; i < n; i++) {
        std::string name = std::string("src_") + InputName(p.kind, i);
        if (is_const[i]) {
            ge::op::Const c(name.c_str());
            c.set_attr_value(TensorOf(p.in[i]));
            b.sources.push_back(c);
            b.data_index.push_back(-1);
            b.is_data.push_back(0);
            b.declared.push_back(0);
        } else {
            ge::op::Data d(name.c_str());
            int idx = perm[static_cast<size_t>(next++)];
            if (fz_bool(in))
                d.set_attr_index(idx);
            else if (idx == 0 && fz_bool(in))
                ; /* the default index, 0 */
            else
                d.SetAttr("index", static_cast<int64_t>(idx));
            b.declared.push_back(Declare(in, &b, d, p.in[i], p.kind, i));
            b.sources.push_back(d);
            b.data_index.push_back(idx);
            b.is_data.push_back(1);
        }
        b.nodes.push_back(b.sources.back());
    }
    /* the operators */
    int n_ops = chain ? 2 : 1;
    for (int k = 0; k < n_ops; k++) {
        OpKind kind = k == 0 ? p.kind : (fz_bool(in) ? kForward : kGradient);
        std::string name = k == 0 ? "rope_op" : "second_op";
        if (k == 0 && Knob(in) < 6) {
            name = p.kind == kRope ? "src_keyIn" : "src_cos"; /* the name of a source node */
            Mistake(&b, true, "two operators with one name");
        }
        ge::Operator op = MakeOp(kind, name);
        for (size_t i = 0; i < n; i++) {
            if (k == 1 && i == 0)
                Connect(in, &b, op, kind, i, b.ops[0], p.kind == kGradient ? "dy" : "x");
            else
                Connect(in, &b, op, kind, i, b.sources[i], "y");
        }
        if (kind == kRope)
            SetRopeAttrs(in, &b, op, p);
        else
            SetPartialRotaryAttrs(in, &b, op, p);
        if (Knob(in) < 8)
            op.SetAttr("not_in_the_prototype", static_cast<int64_t>(3));
        b.ops.push_back(op);
        b.nodes.push_back(op);
    }
    /* mistakes of structure */
    uint8_t s = Knob(in);
    if (s < 6 && !b.add_err) {
        b.ops.back().SetInput(InputName(p.kind, 0), b.ops.back());
        Mistake(&b, true, "a cycle");
    } else if (s < 10 && !b.add_err && n_data > 1) {
        for (size_t i = 0; i + 1 < n; i++)
            if (b.is_data[i] && b.is_data[i + 1]) {
                b.sources[i].SetInput("x", b.sources[i + 1]);
                Mistake(&b, true, "a Data node with its input connected");
                break;
            }
    }
    /* inputs and outputs of the graph */
    if (Knob(in) >= 56) {
        std::vector<ge::Operator> data;
        for (size_t i = 0; i < n; i++)
            if (b.is_data[i])
                data.push_back(b.sources[i]);
        b.graph.SetInputs(data);
        int next_input = 0;
        for (size_t i = 0; renumbered && i < n; i++)
            if (b.is_data[i])
                b.data_index[i] = next_input++;
    } else if (renumbered) {
        b.unsure = true; /* numbered in the order ropekit meets the nodes */
    }
    ge::Operator last = b.ops.back();
    const int last_node = static_cast<int>(b.ops.size()) - 1;
    const bool rope = p.kind == kRope && !chain;
    uint8_t o = fz_u8(in);
    if (o < 240 || b.add_err) {
        switch (o % 6) {
        case 0:
            b.graph.SetOutputs(std::vector<ge::Operator>{last});
            b.outputs.push_back({last_node, 0});
            if (rope)
                b.outputs.push_back({last_node, 1});
            break;
        case 1:
            if (rope) {
                b.graph.SetOutputs(std::vector<std::pair<ge::Operator, std::vector<size_t>>>{
                    {last, std::vector<size_t>{1, 0}}});
                b.outputs.push_back({last_node, 1});
                b.outputs.push_back({last_node, 0});
            } else {
                b.graph.SetOutputs(std::vector<std::pair<ge::Operator, std::vector<size_t>>>{
                    {last, std::vector<size_t>{0}}});
                b.outputs.push_back({last_node, 0});
            }
            break;
        case 2: {
            int k = rope ? static_cast<int>(fz_range(in, 0, 1)) : 0;
            const char *name = rope ? (k ? "keyOut" : "queryOut") : "x";
            if (last.GetOpType() == "InplacePartialRotaryMulGrad")
                name = "dy";
            b.graph.SetOutputs(std::vector<std::pair<ge::Operator, std::string>>{{last, name}});
            b.outputs.push_back({last_node, k});
            break;
        }
        case 3: {
            int k = rope ? static_cast<int>(fz_range(in, 0, 1)) : 0;
            const char *name = rope ? (k ? "keyOut" : "queryOut") : "x";
            if (last.GetOpType() == "InplacePartialRotaryMulGrad")
                name = "dy";
            b.graph.SetOutputs(std::vector<std::pair<ge::Operator, ge::AscendString>>{
                {last, ge::AscendString(name)}});
            b.outputs.push_back({last_node, k});
            break;
        }
        case 4: /* the first operator as well (fan-out of an in-place result), or a source */
            if (chain) {
                b.graph.SetOutputs(std::vector<ge::Operator>{b.ops[0], last});
                b.outputs.push_back({0, 0});
                b.outputs.push_back({last_node, 0});
            } else {
                size_t i = static_cast<size_t>(fz_range(in, 0, static_cast<int64_t>(n) - 1));
                b.graph.SetOutputs(std::vector<ge::Operator>{last, b.sources[i]});
                b.outputs.push_back({last_node, 0});
                if (rope)
                    b.outputs.push_back({last_node, 1});
                b.outputs.push_back({-1, static_cast<int>(i)});
            }
            break;
        default:
            b.graph.SetOutputs(std::vector<std::pair<ge::Operator, std::vector<size_t>>>{
                {last, std::vector<size_t>{0}}});
            b.outputs.push_back({last_node, 0});
            if (fz_bool(in))
                b.graph.AddOp(last);
            break;
        }
    } else {
        switch (o % 4) {
        case 0:
            b.graph.SetOutputs(std::vector<std::pair<ge::Operator, std::vector<size_t>>>{
                {last, std::vector<size_t>{rope ? 2u : 1u}}});
            Mistake(&b, true, "a graph output index the node lacks");
            break;
        case 1:
            b.graph.SetOutputs(
                std::vector<std::pair<ge::Operator, std::string>>{{last, "no_such_output"}});
            Mistake(&b, true, "a graph output name the node lacks");
            break;
        case 2:
            b.graph.SetOutputs(std::vector<ge::Operator>{});
            Mistake(&b, true, "no outputs");
            break;
        default:
            Mistake(&b, true, "no outputs");
            break;
        }
    }
    return b;
}

/* ---------------------------------------------------------------- running */

std::string TakeError() {
    return ge::GEGetErrorMsgV2().GetString();
}

void ExpectFailure(ge::Status st, const char *api, const std::string &why) {
    std::string msg = TakeError();
    FZ_CHECK(st != ge::SUCCESS, "%s succeeded, but the graph has a mistake: %s", api, why.c_str());
    FZ_CHECK(!msg.empty(), "%s failed (%u) without a message", api, static_cast<unsigned>(st));
    FZ_CHECK(msg.find(api) != std::string::npos, "%s failed (%u), message not naming it: %s", api,
             static_cast<unsigned>(st), msg.c_str());
}

struct Feeds {
    std::vector<ge::Tensor> tensors;
    std::vector<Bytes> saved;
    std::vector<ge::TensorDesc> descs;
    bool mistake = false;
    bool unsure = false; /* a valid feed of another shape than the problem's */
};

/* The feeds, in Data index order; sometimes one too few or too many, or one whose byte size
 * does not match its description. */
Feeds MakeFeeds(fz_input *in, Problem &p, const Built &b, bool allow_mistakes) {
    Feeds f;
    std::vector<std::pair<int, size_t>> order;
    for (size_t i = 0; i < p.in.size(); i++)
        if (b.is_data[i])
            order.push_back({b.data_index[i], i});
    std::sort(order.begin(), order.end());
    for (const auto &e : order)
        f.tensors.push_back(TensorOf(p.in[e.second]));
    uint8_t c = allow_mistakes ? Knob(in) : 255;
    if (c < 24 && !f.tensors.empty()) {
        size_t j = static_cast<size_t>(fz_range(in, 0, static_cast<int64_t>(f.tensors.size()) - 1));
        const Value &v = p.in[order[j].second];
        switch (c % 4) {
        case 0:
            f.tensors.pop_back();
            break;
        case 1:
            f.tensors.push_back(f.tensors[j]);
            break;
        case 2: {
            Bytes more = v.bytes;
            more.push_back(0);
            f.tensors[j] = ge::Tensor(DescOf(v.shape, v.dt), more.data(), more.size());
            break;
        }
        default: { /* a shape whose byte size overflows, or is huge, with little data */
            static const int64_t kHuge[] = {INT64_MAX, (int64_t)1 << 62, (int64_t)1 << 40,
                                            (int64_t)1 << 32};
            Dims shape = v.shape;
            if (shape.empty())
                shape.push_back(1);
            shape[0] = fz_pick(in, kHuge, 4);
            f.tensors[j] = ge::Tensor(DescOf(shape, v.dt), v.bytes.data(), v.bytes.size());
            break;
        }
        }
        /* a huge first dimension of a tensor still empty by another dimension is 0 bytes: a
         * valid feed of another shape, which the model can follow when no description was
         * declared for it */
        f.mistake = c % 4 != 3 || Numel(f.tensors[j].GetTensorDesc().GetShape().GetDims()) != 0;
        if (!f.mistake && !b.declared[order[j].second])
            p.in[order[j].second].shape = f.tensors[j].GetTensorDesc().GetShape().GetDims();
        else if (!f.mistake)
            f.unsure = true;
        FZ_TRACE("  mistake: feed %zu (kind %d) of %lld elements", j, c % 4,
                 static_cast<long long>(Numel(v.shape)));
    }
    for (auto &t : f.tensors) {
        f.saved.push_back(Bytes(t.GetData(), t.GetData() + t.GetSize()));
        f.descs.push_back(t.GetTensorDesc());
    }
    return f;
}

void CheckInputsUnchanged(const Feeds &f) {
    for (size_t i = 0; i < f.tensors.size(); i++) {
        const ge::Tensor &t = f.tensors[i];
        FZ_CHECK(
            t.GetSize() == f.saved[i].size() &&
                (t.GetSize() == 0 || std::memcmp(t.GetData(), f.saved[i].data(), t.GetSize()) == 0),
            "RunGraph changed input %zu", i);
        FZ_CHECK(t.GetTensorDesc().GetShape().GetDims() == f.descs[i].GetShape().GetDims() &&
                     t.GetDataType() == f.descs[i].GetDataType(),
                 "RunGraph changed input %zu's description", i);
    }
}

/* The value graph output r must hold. */
const Value &OutputValue(const OutputRef &r, const Problem &p, const std::vector<Outcome> &per_op) {
    return r.node < 0 ? p.in[static_cast<size_t>(r.k)]
                      : per_op[static_cast<size_t>(r.node)].out[static_cast<size_t>(r.k)];
}

/* Runs the graph once and checks it; returns the status. */
ge::Status RunAndCheck(fz_input *in, ge::Session &session, uint32_t id, const Problem &p,
                       const Built &b, const Feeds &f, bool predict, bool want_ok,
                       const std::vector<Outcome> &per_op, const std::string &why) {
    std::vector<ge::Tensor> outputs;
    int sentinels = static_cast<int>(fz_range(in, 0, 2));
    for (int i = 0; i < sentinels; i++) {
        Bytes bytes(8, static_cast<uint8_t>(0xa0 + i));
        outputs.push_back(ge::Tensor(DescOf({2}, ge::DT_FLOAT), bytes.data(), bytes.size()));
    }
    std::vector<const uint8_t *> before;
    for (const auto &t : outputs)
        before.push_back(t.GetData());
    TakeError();
    ge::Status st = session.RunGraph(id, f.tensors, outputs);
    FZ_TRACE("  RunGraph -> %u (predicted %s)", static_cast<unsigned>(st),
             !predict  ? "nothing"
             : want_ok ? "success"
                       : "failure");
    if (predict && !want_ok)
        FZ_TRACE("  because: %s", why.c_str());
    CheckInputsUnchanged(f);
    if (st != ge::SUCCESS) {
        ExpectFailure(st, "RunGraph", why);
        FZ_CHECK(outputs.size() == before.size(), "a failed RunGraph resized outputs");
        for (size_t i = 0; i < outputs.size(); i++) {
            FZ_CHECK(outputs[i].GetData() == before[i] && outputs[i].GetSize() == 8 &&
                         outputs[i].GetData()[7] == static_cast<uint8_t>(0xa0 + i),
                     "a failed RunGraph changed output %zu", i);
        }
        FZ_CHECK(!predict || !want_ok, "RunGraph failed (%u), the model expected success",
                 static_cast<unsigned>(st));
        return st;
    }
    FZ_CHECK(!predict || want_ok, "RunGraph succeeded, the model expected failure: %s",
             why.c_str());
    FZ_CHECK(outputs.size() == b.outputs.size() || !predict,
             "RunGraph gave %zu outputs, expected %zu", outputs.size(), b.outputs.size());
    if (!predict)
        return st;
    for (size_t j = 0; j < outputs.size(); j++) {
        const Value &want = OutputValue(b.outputs[j], p, per_op);
        const ge::Tensor &got = outputs[j];
        FZ_CHECK(got.GetTensorDesc().GetShape().GetDims() == want.shape &&
                     got.GetDataType() == want.dt,
                 "output %zu: shape or dtype differ", j);
        FZ_CHECK(got.GetSize() == want.bytes.size(), "output %zu: %zu bytes, expected %zu", j,
                 got.GetSize(), want.bytes.size());
        if (!want.bytes.empty() &&
            std::memcmp(got.GetData(), want.bytes.data(), want.bytes.size())) {
            size_t k = 0;
            while (got.GetData()[k] == want.bytes[k])
                k++;
            FZ_CHECK(false, "output %zu byte %zu is 0x%02x, the native API gives 0x%02x", j, k,
                     got.GetData()[k], want.bytes[k]);
        }
    }
    return st;
}

/* The outcome of every operator, in chain order (the second reads the first's output). */
std::vector<Outcome> ExpectAll(const Problem &p, const Built &b, bool *ok, std::string *why) {
    std::vector<Outcome> per_op;
    per_op.push_back(Expect(p));
    *ok = per_op[0].ok;
    *why = per_op[0].why;
    if (b.ops.size() > 1) {
        Problem second = p;
        second.kind = b.ops[1].GetOpType() == "InplacePartialRotaryMulGrad" ? kGradient : kForward;
        second.in[0] = per_op[0].out[0];
        per_op.push_back(Expect(second));
        if (*ok && !per_op[1].ok)
            *why = "second operator: " + per_op[1].why;
        *ok = *ok && per_op[1].ok;
    }
    return per_op;
}

void Dump(fz_input *in, const ge::Graph &graph, const std::string &graph_name) {
    uint8_t c = fz_u8(in);
    if (c < 200)
        return;
    std::string path = g_dump_dir;
    size_t len = path.size();
    if (c % 4 == 1)
        path += "graph.txt", len = path.size();
    else if (c % 4 == 2)
        len += 1; /* not strlen(file) */
    TakeError();
    ge::graphStatus st = ge::aclgrphDumpGraph(graph, c % 4 == 3 ? nullptr : path.c_str(), len);
    bool should_fail = c % 4 >= 2;
    FZ_TRACE("aclgrphDumpGraph(%s) -> %u", c % 4 == 3 ? "NULL" : path.c_str(),
             static_cast<unsigned>(st));
    if (should_fail) {
        FZ_CHECK(st != ge::GRAPH_SUCCESS, "aclgrphDumpGraph accepted a bad path or length");
        return;
    }
    std::string file =
        c % 4 == 1 ? path : g_dump_dir + (graph_name.empty() ? "graph" : graph_name) + ".txt";
    if (st == ge::GRAPH_SUCCESS) {
        struct stat sb;
        FZ_CHECK(stat(file.c_str(), &sb) == 0 && sb.st_size > 0, "aclgrphDumpGraph wrote no %s",
                 file.c_str());
        unlink(file.c_str());
    } else {
        FZ_CHECK(!TakeError().empty(), "aclgrphDumpGraph failed (%u) without a message",
                 static_cast<unsigned>(st));
    }
}

const char *const kGraphNames[] = {"g", "rope graph", "", "a/b", "graph-with-a-long-name"};

void Refill(fz_input *in, Problem *p) {
    for (size_t i = 0; i < p->in.size(); i++) {
        if (p->kind == kRope && i == 0)
            FillPositions(in, &p->in[0], p->in[3].shape[0]);
        else
            Fill(in, &p->in[i]);
    }
}

void FuzzOne(fz_input *in) {
    OpKind kind = static_cast<OpKind>(fz_range(in, 0, 2));
    Problem p = MakeProblem(in, kind);
    bool chain = kind != kRope && Knob(in) < 48;
    std::string graph_name = kGraphNames[fz_range(in, 0, 4)];
    if (graph_name == "graph-with-a-long-name" && fz_bool(in))
        graph_name.assign(300, 'n'); /* longer than a file name may be */
    FZ_TRACE("graph \"%s\": kind %d%s, %zu inputs", graph_name.c_str(), (int)kind,
             chain ? " chained" : "", p.in.size());
    Built b = Build(in, p, chain, graph_name);
    std::map<ge::AscendString, ge::AscendString> options;
    if (Knob(in) < 16)
        options[ge::AscendString("ge.unused.option")] = ge::AscendString("1");
    ge::Session session(options);
    ge::GEGetWarningMsgV2();
    Dump(in, b.graph, graph_name);

    uint32_t id = static_cast<uint32_t>(fz_bits(in, fz_bool(in) ? 1 : 4));
    TakeError();
    bool copy = Knob(in) < 32;
    ge::Status st = copy ? session.AddGraphWithCopy(id, b.graph) : session.AddGraph(id, b.graph);
    FZ_TRACE("  AddGraph(%u) -> %u%s%s", id, static_cast<unsigned>(st),
             b.add_err ? ", predicted failure: " : "", b.why.c_str());
    if (b.add_err) {
        ExpectFailure(st, "AddGraph", b.why);
    } else if (st != ge::SUCCESS) {
        std::string msg = TakeError();
        FZ_CHECK(b.unsure, "AddGraph failed (%u) on a graph without mistakes: %s",
                 static_cast<unsigned>(st), msg.c_str());
        FZ_CHECK(!msg.empty(), "AddGraph failed (%u) without a message", static_cast<unsigned>(st));
    }
    if (st == ge::SUCCESS) {
        if (Knob(in) < 24) {
            TakeError();
            ExpectFailure(session.AddGraph(id, b.graph), "AddGraph", "a graph id in use");
        }
        Feeds f = MakeFeeds(in, p, b, true);
        bool predict = !b.unsure && !f.mistake && !f.unsure && Holdable(p);
        bool want_ok = false;
        std::string why = b.why;
        std::vector<Outcome> per_op;
        if ((b.run_err && !f.unsure) || f.mistake) {
            predict = true;
            if (why.empty())
                why = "a feed mistake";
        } else if (predict) {
            bool ok;
            per_op = ExpectAll(p, b, &ok, &why); /* Holdable: the model's buffers fit */
            want_ok = ok;
        }
        RunAndCheck(in, session, id, p, b, f, predict, want_ok, per_op, why);
        /* again, the same */
        if (fz_bool(in))
            RunAndCheck(in, session, id, p, b, f, predict, want_ok, per_op, why);
        /* later changes to the operators do not reach the stored graph */
        if (Knob(in) < 64) {
            ge::Operator &op = b.ops[0];
            if (p.kind == kRope)
                op.SetAttr("headSize", static_cast<int64_t>(7));
            else
                op.SetAttr("rotary_mode", static_cast<int64_t>(0))
                    .SetAttr("partial_slice", Dims{0, 2});
            RunAndCheck(in, session, id, p, b, f, predict, want_ok, per_op, why);
        }
        /* new values of the same shapes */
        if (Knob(in) < 96 && !b.run_err && Holdable(p)) {
            const Problem before = p;
            Refill(in, &p);
            for (size_t i = 0; i < p.in.size(); i++)
                if (!b.is_data[i])
                    p.in[i] = before.in[i]; /* a Const's value is in the graph */
            Feeds g = MakeFeeds(in, p, b, false);
            bool ok2 = false;
            std::string why2;
            std::vector<Outcome> per_op2;
            bool predict2 = !b.unsure;
            if (predict2)
                per_op2 = ExpectAll(p, b, &ok2, &why2);
            RunAndCheck(in, session, id, p, b, g, predict2, ok2, per_op2, why2);
        }
        if (fz_bool(in)) {
            TakeError();
            FZ_CHECK(session.RemoveGraph(id) == ge::SUCCESS, "RemoveGraph: %s",
                     TakeError().c_str());
            std::vector<ge::Tensor> outputs;
            TakeError();
            ge::Status rs = session.RunGraph(id, f.tensors, outputs);
            ExpectFailure(rs, "RunGraph", "a removed graph");
            FZ_CHECK(rs == ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, "RunGraph of a removed graph: %u",
                     static_cast<unsigned>(rs));
            TakeError();
            ExpectFailure(session.RemoveGraph(id), "RemoveGraph", "a removed graph");
        }
    }
    Dump(in, b.graph, graph_name);
    for (auto &node : b.nodes)
        node.BreakConnect();
    TakeError();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    std::map<ge::AscendString, ge::AscendString> options;
    options[ge::AscendString("ge.exec.deviceId")] = ge::AscendString("0");
    if (ge::GEInitialize(options) != ge::SUCCESS)
        abort();
    char tmpl[] = "/tmp/fuzz_ge.XXXXXX";
    if (!mkdtemp(tmpl))
        abort();
    g_dump_dir = std::string(tmpl) + "/d/";
    if (mkdir(g_dump_dir.c_str(), 0700) != 0)
        abort();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_input in = {data, size};
    FuzzOne(&in);
    return 0;
}
