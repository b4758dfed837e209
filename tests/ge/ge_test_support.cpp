#include "ge_test_support.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

#include "ropekit/ropekit.h"

namespace gt {

namespace {
ropekit_dtype Native(ge::DataType dt) {
    return static_cast<ropekit_dtype>(dt);
}

int64_t Count(const std::vector<int64_t> &shape) {
    int64_t n = 1;
    for (int64_t d : shape)
        n *= d;
    return n;
}
} // namespace

ge::TensorDesc Desc(const std::vector<int64_t> &shape, ge::DataType dt) {
    return ge::TensorDesc(ge::Shape(shape), ge::FORMAT_ND, dt);
}

ge::Tensor FloatTensor(const std::vector<int64_t> &shape, ge::DataType dt,
                       const std::vector<double> &values) {
    size_t n = static_cast<size_t>(Count(shape));
    size_t elem = static_cast<size_t>(ge::GetSizeByDataType(dt));
    std::vector<uint8_t> bytes(n * elem);
    for (size_t i = 0; i < n; ++i)
        tk_store(&bytes[i * elem], Native(dt), i < values.size() ? values[i] : 0.0);
    return ge::Tensor(Desc(shape, dt), bytes);
}

ge::Tensor Int64Tensor(const std::vector<int64_t> &shape, const std::vector<int64_t> &values) {
    std::vector<uint8_t> bytes(values.size() * sizeof(int64_t));
    if (!values.empty())
        std::memcpy(bytes.data(), values.data(), bytes.size());
    return ge::Tensor(Desc(shape, ge::DT_INT64), bytes);
}

std::vector<double> Values(const ge::Tensor &t) {
    ge::DataType dt = t.GetTensorDesc().GetDataType();
    size_t elem = static_cast<size_t>(ge::GetSizeByDataType(dt));
    std::vector<double> out(t.GetSize() / elem);
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = tk_load(t.GetData() + i * elem, Native(dt));
    return out;
}

std::vector<double> Pattern(size_t count, int salt) {
    std::vector<double> v(count);
    for (size_t i = 0; i < count; ++i) {
        uint32_t h = static_cast<uint32_t>(i * 2654435761u) ^ static_cast<uint32_t>(salt * 40503u);
        h ^= h >> 13;
        h *= 0x5bd1e995u;
        v[i] = static_cast<double>(h >> 8) / 8388608.0 - 1.0;
    }
    return v;
}

ge::Tensor CosSinCache(int64_t max_pos, int64_t rot, ge::DataType dt) {
    size_t elem = static_cast<size_t>(ge::GetSizeByDataType(dt));
    std::vector<uint8_t> bytes(static_cast<size_t>(max_pos * rot) * elem);
    ropekit_status st =
        ropekit_cos_sin_cache_build(bytes.data(), Native(dt), max_pos, rot, 10000.0, nullptr);
    assert_int_equal(st, ROPEKIT_OK);
    return ge::Tensor(Desc({max_pos, rot}, dt), bytes);
}

ge::op::Data MakeData(const char *name, int64_t index, const ge::TensorDesc &desc) {
    ge::op::Data d = MakeData(name, index);
    d.update_input_desc_x(desc);
    d.update_output_desc_y(desc);
    return d;
}

ge::op::Data MakeData(const char *name, int64_t index) {
    ge::op::Data d(name);
    d.set_attr_index(index);
    return d;
}

int InitializeGe(void **) {
    std::map<ge::AscendString, ge::AscendString> options = {{"ge.exec.deviceId", "0"}};
    return ge::GEInitialize(options) == 0 ? 0 : -1;
}

int FinalizeGe(void **) {
    return ge::GEFinalize() == 0 ? 0 : -1;
}

std::string TakeError() {
    return ge::GEGetErrorMsgV2().GetString();
}

void ExpectMentions(const std::string &message, const std::vector<std::string> &fragments) {
    for (const std::string &f : fragments)
        if (message.find(f) == std::string::npos) {
            std::fprintf(stderr, "message does not mention \"%s\":\n  %s\n", f.c_str(),
                         message.c_str());
            fail();
        }
}

ge::Status RunOnce(const ge::Graph &graph, const std::vector<ge::Tensor> &inputs,
                   std::vector<ge::Tensor> &outputs) {
    std::map<ge::AscendString, ge::AscendString> options;
    ge::Session session(options);
    ge::Status st = session.AddGraph(0, graph);
    if (st != 0)
        return st;
    return session.RunGraph(0, inputs, outputs);
}

double ErrorRatio(const std::vector<double> &got, const std::vector<double> &want,
                  const std::vector<double> &mag, ge::DataType dt) {
    assert_int_equal(got.size(), want.size());
    struct tk_tol tol = tk_tol_of(Native(dt));
    struct tk_err_stats stats;
    tk_err_stats_init(&stats);
    for (size_t i = 0; i < got.size(); ++i)
        tk_err_check(&stats, &tol, got[i], want[i], mag[i], static_cast<int64_t>(i));
    if (stats.bad)
        std::fprintf(stderr, "element %lld: got %.9g want %.9g (bound %.3g)\n",
                     static_cast<long long>(stats.first_bad), stats.first_got, stats.first_ref,
                     stats.first_bound);
    return stats.max_ratio;
}

std::vector<double>
PartialRotaryReference(const std::vector<double> &x, const std::vector<int64_t> &x_shape,
                       const std::vector<double> &cos, const std::vector<double> &sin,
                       const std::vector<int64_t> &cs_shape, int64_t start, int64_t end, int mode,
                       int direction, std::vector<double> *mag) {
    std::vector<double> out = x;
    mag->assign(x.size(), 0.0);
    int64_t d = x_shape[3], len = end - start;
    if (len <= 0)
        return out;
    std::vector<double> v(static_cast<size_t>(len)), c(v), s(v), u(v), m(v);
    for (int64_t b = 0; b < x_shape[0]; ++b)
        for (int64_t t = 0; t < x_shape[1]; ++t)
            for (int64_t n = 0; n < x_shape[2]; ++n) {
                int64_t row = ((b * x_shape[1] + t) * x_shape[2] + n) * d;
                int64_t cb = cs_shape[0] == 1 ? 0 : b, ct = cs_shape[1] == 1 ? 0 : t,
                        cn = cs_shape[2] == 1 ? 0 : n;
                int64_t crow = ((cb * cs_shape[1] + ct) * cs_shape[2] + cn) * len;
                for (int64_t j = 0; j < len; ++j) {
                    v[static_cast<size_t>(j)] = x[static_cast<size_t>(row + start + j)];
                    c[static_cast<size_t>(j)] = cos[static_cast<size_t>(crow + j)];
                    s[static_cast<size_t>(j)] = sin[static_cast<size_t>(crow + j)];
                }
                tk_ref_rotate(mode, direction, len, v.data(), c.data(), s.data(), u.data(),
                              m.data(), false);
                for (int64_t j = 0; j < len; ++j) {
                    out[static_cast<size_t>(row + start + j)] = u[static_cast<size_t>(j)];
                    (*mag)[static_cast<size_t>(row + start + j)] = m[static_cast<size_t>(j)];
                }
            }
    return out;
}

std::vector<double> RopeReference(const std::vector<double> &x, int64_t tokens, int64_t heads,
                                  int64_t head_size, const std::vector<double> &cache, int64_t rot,
                                  const std::vector<int64_t> &positions,
                                  const std::vector<int64_t> &sections, int64_t cache_mode,
                                  bool neox, std::vector<double> *mag) {
    std::vector<double> out = x;
    mag->assign(x.size(), 0.0);
    struct tk_rope_select sel;
    sel.nsec = static_cast<int>(sections.size());
    sel.sections = sections.empty() ? nullptr : sections.data();
    sel.cache_mode = cache_mode;
    int64_t h = rot / 2;
    std::vector<double> c(static_cast<size_t>(h)), s(c), in(static_cast<size_t>(rot)), o(in), m(in);
    for (int64_t t = 0; t < tokens; ++t) {
        for (int64_t j = 0; j < h; ++j) {
            int r = tk_rope_src_row(&sel, j);
            int64_t p = positions[static_cast<size_t>(r * tokens + t)];
            c[static_cast<size_t>(j)] = cache[static_cast<size_t>(p * rot + j)];
            s[static_cast<size_t>(j)] = cache[static_cast<size_t>(p * rot + h + j)];
        }
        for (int64_t hd = 0; hd < heads; ++hd) {
            size_t base = static_cast<size_t>((t * heads + hd) * head_size);
            for (int64_t i = 0; i < rot; ++i)
                in[static_cast<size_t>(i)] = x[base + static_cast<size_t>(i)];
            tk_rope_ref_head(neox, rot, in.data(), c.data(), s.data(), o.data(), m.data(), false);
            for (int64_t i = 0; i < rot; ++i) {
                out[base + static_cast<size_t>(i)] = o[static_cast<size_t>(i)];
                (*mag)[base + static_cast<size_t>(i)] = m[static_cast<size_t>(i)];
            }
        }
    }
    return out;
}

} // namespace gt
