// ropekit.torch's optional C++ kernels (ropekit.torch.load_extension): the CPU kernels of
// the hot ops registered in C++, so a call costs the dispatcher and the library, not a
// Python frame and ctypes; and torch's own intra-op pool as the library's parallel-for,
// so ropekit's tasks run on the threads torch already has.
//
// The kernels hand the tensors' memory and strides to the library, which validates
// everything before writing. Whatever they do not take (int32 positions, an unknown mode
// string) and every failure goes to the Python kernel of the op, which converts the
// arguments, calls the library again and raises its message as the op's exception.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/csrc/Exceptions.h>
#include <torch/extension.h>
#include <torch/library.h>

#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "ropekit/ropekit.h"

namespace {

// The library's entry points, from the handle Python already loaded (ctypes), so the
// extension never loads a second copy.
struct Api {
    decltype(&ropekit_rope) rope = nullptr;
    decltype(&ropekit_partial_rotary) partial_rotary = nullptr;
    decltype(&ropekit_set_num_threads) set_num_threads = nullptr;
    decltype(&ropekit_set_parallel_for) set_parallel_for = nullptr;
};
Api api;
std::atomic<bool> follow_torch_threads{true};
std::atomic<int> synced_threads{0};
// ropekit.torch._ops.CPU_KERNELS; never destroyed (it must outlive the interpreter's exit)
py::object *python_kernels = nullptr;

bool dtype_of(at::ScalarType s, ropekit_dtype *out) {
    switch (s) {
    case at::kFloat:
        *out = ROPEKIT_F32;
        return true;
    case at::kHalf:
        *out = ROPEKIT_F16;
        return true;
    case at::kBFloat16:
        *out = ROPEKIT_BF16;
        return true;
    case at::kDouble:
        *out = ROPEKIT_F64;
        return true;
    case at::kLong:
        *out = ROPEKIT_I64;
        return true;
    default:
        return false;
    }
}

bool describe(const at::Tensor &t, ropekit_tensor *out) {
    if (t.dim() > ROPEKIT_MAX_DIMS || !t.device().is_cpu() ||
        !dtype_of(t.scalar_type(), &out->dtype))
        return false;
    out->data = t.data_ptr();
    out->ndim = static_cast<int32_t>(t.dim());
    for (int64_t i = 0; i < t.dim(); i++) {
        out->shape[i] = t.size(i);
        out->strides[i] = t.stride(i);
    }
    return true;
}

void sync_threads() {
    if (!follow_torch_threads.load(std::memory_order_relaxed))
        return;
    const int n = at::get_num_threads();
    if (synced_threads.exchange(n, std::memory_order_relaxed) != n)
        api.set_num_threads(n);
}

void written(const at::Tensor &t) {
    if (t.defined() && !t.is_inference())
        t.unsafeGetTensorImpl()->bump_version();
}

// The Python kernel of `name` with these arguments: it checks, raises or runs. Its
// exception travels back to the caller as itself (torch's python_error), not as a
// RuntimeError. Callers hold the GIL (PYTHON_FALLBACK) while they build the arguments.
#define PYTHON_FALLBACK py::gil_scoped_acquire gil_for_fallback
template <typename... Args> py::object python_kernel(const char *name, Args &&...args) {
    try {
        return (*python_kernels)[name](std::forward<Args>(args)...);
    } catch (py::error_already_set &e) {
        e.restore();
        python_error err;
        err.persist();
        throw err;
    }
}

// The rotary modes by the library's names (ropekit._types.MODES, given to init).
std::vector<std::pair<std::string, int>> *mode_names = nullptr;

int mode_of(const std::string &mode) {
    for (const auto &named : *mode_names)
        if (named.first == mode)
            return named.second;
    return -1;
}

// Partial rotary in place on x; false when the Python kernel has to take the call.
bool rotate(const at::Tensor &x, const at::Tensor &r1, const at::Tensor &r2,
            const std::string &rotary_mode, at::IntArrayRef partial_slice,
            ropekit_direction direction) {
    ropekit_tensor tx, tc, ts;
    const int mode = mode_of(rotary_mode);
    if (mode < 0 || partial_slice.size() != 2 || !describe(x, &tx) || !describe(r1, &tc) ||
        !describe(r2, &ts) || tx.dtype == ROPEKIT_I64 || tc.dtype == ROPEKIT_I64)
        return false;
    sync_threads();
    if (api.partial_rotary(&tx, &tc, &ts, static_cast<ropekit_rotary_mode>(mode), partial_slice[0],
                           partial_slice[1], direction) != ROPEKIT_OK)
        return false;
    written(x);
    return true;
}

void inplace_partial_rotary_mul(const at::Tensor &x, const at::Tensor &r1, const at::Tensor &r2,
                                c10::string_view rotary_mode, at::IntArrayRef partial_slice) {
    const std::string mode(rotary_mode);
    if (rotate(x, r1, r2, mode, partial_slice, ROPEKIT_FORWARD))
        return;
    PYTHON_FALLBACK;
    python_kernel("inplace_partial_rotary_mul", x, r1, r2, py::arg("rotary_mode") = mode,
                  py::arg("partial_slice") = partial_slice.vec());
}

void inplace_partial_rotary_mul_backward(const at::Tensor &g, const at::Tensor &r1,
                                         const at::Tensor &r2, c10::string_view rotary_mode,
                                         at::IntArrayRef partial_slice) {
    const std::string mode(rotary_mode);
    if (rotate(g, r1, r2, mode, partial_slice, ROPEKIT_BACKWARD))
        return;
    PYTHON_FALLBACK;
    python_kernel("inplace_partial_rotary_mul_backward", g, r1, r2, py::arg("rotary_mode") = mode,
                  py::arg("partial_slice") = partial_slice.vec());
}

at::Tensor functional_rotate(const char *name, const at::Tensor &x, const at::Tensor &r1,
                             const at::Tensor &r2, c10::string_view rotary_mode,
                             at::IntArrayRef partial_slice, ropekit_direction direction) {
    const std::string mode(rotary_mode);
    at::Tensor out = x.clone();
    if (rotate(out, r1, r2, mode, partial_slice, direction))
        return out;
    PYTHON_FALLBACK;
    return python_kernel(name, x, r1, r2, py::arg("rotary_mode") = mode,
                         py::arg("partial_slice") = partial_slice.vec())
        .cast<at::Tensor>();
}

at::Tensor partial_rotary_mul(const at::Tensor &x, const at::Tensor &r1, const at::Tensor &r2,
                              c10::string_view rotary_mode, at::IntArrayRef partial_slice) {
    return functional_rotate("partial_rotary_mul", x, r1, r2, rotary_mode, partial_slice,
                             ROPEKIT_FORWARD);
}

at::Tensor partial_rotary_mul_backward(const at::Tensor &g, const at::Tensor &r1,
                                       const at::Tensor &r2, c10::string_view rotary_mode,
                                       at::IntArrayRef partial_slice) {
    return functional_rotate("partial_rotary_mul_backward", g, r1, r2, rotary_mode, partial_slice,
                             ROPEKIT_BACKWARD);
}

// RopeWithSinCosCache; false when the Python kernel has to take the call.
bool rope(const at::Tensor &positions, const at::Tensor &q_in,
          const c10::optional<at::Tensor> &k_in, const at::Tensor &cache, const at::Tensor &q_out,
          const c10::optional<at::Tensor> &k_out, int64_t head_size, bool is_neox,
          const c10::optional<at::Tensor> &offsets, at::OptionalIntArrayRef sections,
          int64_t cache_mode) {
    ropekit_tensor tp, tqi, tqo, tki, tko, tc, to;
    const bool has_k = k_in.has_value() && k_in->defined();
    const bool has_off = offsets.has_value() && offsets->defined();
    if (positions.scalar_type() != at::kLong || !describe(positions, &tp) ||
        !describe(q_in, &tqi) || !describe(q_out, &tqo) || !describe(cache, &tc) ||
        tqi.dtype == ROPEKIT_I64 || tc.dtype == ROPEKIT_I64 ||
        (has_k && (!describe(*k_in, &tki) || !describe(*k_out, &tko))) ||
        (has_off && (offsets->scalar_type() != at::kLong || !describe(*offsets, &to))))
        return false;
    ropekit_rope_config cfg{};
    if (has_off)
        cfg.offsets = &to;
    cfg.head_size = head_size;
    cfg.style = is_neox ? ROPEKIT_ROPE_NEOX : ROPEKIT_ROPE_GPTJ;
    cfg.cache_mode = cache_mode;
    if (sections.has_value()) {
        cfg.sections = sections->data();
        cfg.num_sections = static_cast<int32_t>(sections->size());
    }
    sync_threads();
    if (api.rope(&tp, &tqi, has_k ? &tki : nullptr, &tc, &tqo, has_k ? &tko : nullptr, &cfg) !=
        ROPEKIT_OK)
        return false;
    return true;
}

std::tuple<at::Tensor, c10::optional<at::Tensor>>
rope_with_sin_cos_cache(const at::Tensor &positions, const at::Tensor &query,
                        const c10::optional<at::Tensor> &key, const at::Tensor &cache,
                        int64_t head_size, bool is_neox, const c10::optional<at::Tensor> &offsets,
                        at::OptionalIntArrayRef mrope_section, int64_t cache_mode) {
    at::Tensor q_out = at::empty_like(query);
    c10::optional<at::Tensor> k_out;
    if (key.has_value() && key->defined())
        k_out = at::empty_like(*key);
    if (!rope(positions, query, key, cache, q_out, k_out, head_size, is_neox, offsets,
              mrope_section, cache_mode)) {
        PYTHON_FALLBACK;
        py::object sections = py::none();
        if (mrope_section.has_value())
            sections = py::cast(mrope_section->vec());
        return python_kernel("rope_with_sin_cos_cache", positions, query, key, cache, head_size,
                             is_neox, offsets, py::arg("mrope_section") = sections,
                             py::arg("cache_mode") = cache_mode)
            .cast<std::tuple<at::Tensor, c10::optional<at::Tensor>>>();
    }
    return {q_out, k_out};
}

void rotary_embedding(const at::Tensor &positions, const at::Tensor &query,
                      const c10::optional<at::Tensor> &key, int64_t head_size,
                      const at::Tensor &cache, bool is_neox) {
    if (!rope(positions, query, key, cache, query, key, head_size, is_neox, c10::nullopt,
              c10::nullopt, 0)) {
        PYTHON_FALLBACK;
        python_kernel("rotary_embedding", positions, query, key, head_size, cache, is_neox);
        return;
    }
    written(query);
    if (key.has_value())
        written(*key);
}

// The library's parallel work on torch's intra-op pool.
void torch_parallel_for(void *, int64_t tasks, int, ropekit_task_fn task, void *ctx) {
    at::parallel_for(0, tasks, 1, [&](int64_t begin, int64_t end) {
        for (int64_t t = begin; t < end; t++)
            task(ctx, t);
    });
}

void init(uintptr_t rope_fn, uintptr_t partial_rotary_fn, uintptr_t set_num_threads_fn,
          uintptr_t set_parallel_for_fn, py::object kernels, py::dict modes) {
    mode_names = new std::vector<std::pair<std::string, int>>();
    for (const auto &item : modes)
        mode_names->emplace_back(item.first.cast<std::string>(), item.second.cast<int>());
    api.rope = reinterpret_cast<decltype(api.rope)>(rope_fn);
    api.partial_rotary = reinterpret_cast<decltype(api.partial_rotary)>(partial_rotary_fn);
    api.set_num_threads = reinterpret_cast<decltype(api.set_num_threads)>(set_num_threads_fn);
    api.set_parallel_for = reinterpret_cast<decltype(api.set_parallel_for)>(set_parallel_for_fn);
    python_kernels = new py::object(kernels);
    api.set_parallel_for(torch_parallel_for, nullptr);
}

void follow_torch(bool follow) {
    follow_torch_threads.store(follow);
    synced_threads.store(0);
}

} // namespace

TORCH_LIBRARY_IMPL(ropekit, CPU, m) {
    m.impl("inplace_partial_rotary_mul", &inplace_partial_rotary_mul);
    m.impl("inplace_partial_rotary_mul_backward", &inplace_partial_rotary_mul_backward);
    m.impl("partial_rotary_mul", &partial_rotary_mul);
    m.impl("partial_rotary_mul_backward", &partial_rotary_mul_backward);
    m.impl("rope_with_sin_cos_cache", &rope_with_sin_cos_cache);
    m.impl("rotary_embedding", &rotary_embedding);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("init", &init);
    m.def("follow_torch", &follow_torch);
}
