"""The torch.ops.ropekit custom ops: schemas, kernels, fake kernels and autograd.

Each op has one kernel for every device (it converts the arguments, so a tensor on another
device gets a message naming it, then calls libropekit on the tensors' own memory and
strides; the library validates the call), a fake kernel for graph capture that asks the
library to validate the same call on the tensors' layouts (the same rules, the same
messages: _native), and autograd:
- functional ops register their backward with torch.library.register_autograd; the
  backward of a rotation is the opposite rotation, itself differentiable (double
  backward);
- in-place ops (CANN's and vLLM's schemas) run in place when no gradient is needed; when
  one is, their autograd kernel computes the functional op and copies it into the input,
  which gives torch's in-place rules (version counter, the leaf error) for free.
"""
import weakref

import torch

from .. import _abi
from . import _args, _native

_LIB = torch.library.Library("ropekit", "DEF")

_PR_ARGS = 'Tensor r1, Tensor r2, *, str rotary_mode="interleave", int[2] partial_slice=[0, 0]'
# offsets is positional with a default (callers pass offsets=...): register_autograd
# refuses keyword-only tensors.
_SECTIONED = _abi.ROPEKIT_MROPE_SECTIONED
_ROPE_ARGS = ("int head_size, bool is_neox, Tensor? offsets=None, *, int[]? mrope_section=None, "
              f"int cache_mode={_SECTIONED}")
SCHEMAS = {
    "inplace_partial_rotary_mul": f"(Tensor(a!) x, {_PR_ARGS}) -> ()",
    "inplace_partial_rotary_mul_backward": f"(Tensor(a!) grad_output, {_PR_ARGS}) -> ()",
    "partial_rotary_mul": f"(Tensor x, {_PR_ARGS}) -> Tensor",
    "partial_rotary_mul_backward": f"(Tensor grad_output, {_PR_ARGS}) -> Tensor",
    "rope_with_sin_cos_cache": "(Tensor positions, Tensor query, Tensor? key, "
                               f"Tensor cos_sin_cache, {_ROPE_ARGS}) -> (Tensor, Tensor?)",
    "rope_with_sin_cos_cache_backward": "(Tensor positions, Tensor grad_query, "
                                        "Tensor? grad_key, Tensor cos_sin_cache, "
                                        f"{_ROPE_ARGS}) -> (Tensor, Tensor?)",
    "rotary_embedding": "(Tensor positions, Tensor(a!) query, Tensor(b!)? key, int head_size, "
                        "Tensor cos_sin_cache, bool is_neox) -> ()",
}
for _name, _schema in SCHEMAS.items():
    _LIB.define(_name + _schema)

ops = torch.ops.ropekit


# The Python kernel of each op, by name: the optional C++ kernels hand them what they do
# not take themselves (load_extension).
CPU_KERNELS = {}


def _impl(name):
    register = torch.library.impl(f"ropekit::{name}", "default", lib=_LIB)

    def decorate(fn):
        CPU_KERNELS[name] = fn
        return register(fn)

    return decorate


def _fake(name):
    return torch.library.register_fake(f"ropekit::{name}", lib=_LIB)


def _needs_grad(*tensors):
    return torch.is_grad_enabled() and any(t is not None and t.requires_grad for t in tensors)


def _written(*tensors):
    """The library wrote these through their pointers: bump their version counters as
    torch's own in-place ops do (inference tensors have none)."""
    for t in tensors:
        if t is not None and not t.is_inference():
            torch.autograd.graph.increment_version(t)


# ---- InplacePartialRotaryMul ----


def _rotate_(op, x, r1, r2, rotary_mode, partial_slice, backward, x_name):
    def convert():
        return _args.partial_rotary(op, x, r1, r2, rotary_mode, partial_slice, x_name,
                                    _args.CPU_DEVICES)

    key = (op, rotary_mode, tuple(partial_slice))
    _native.partial_rotary_(op, key, x, r1, r2, convert, backward)
    _written(x)


def _check_rotate(op, x, r1, r2, rotary_mode, partial_slice, backward, x_name):
    """The fake kernels: the CPU kernel's conversion, then the library's validation."""
    mode, start, end = _args.partial_rotary(op, x, r1, r2, rotary_mode, partial_slice, x_name,
                                            _args.FAKE_DEVICES)
    _native.check_partial_rotary(op, x, r1, r2, mode, start, end, backward)


def _define_partial_rotary(name, backward, x_name, inverse_name):
    inplace = f"inplace_{name}"

    @_impl(inplace)
    def _(x, r1, r2, *, rotary_mode="interleave", partial_slice=(0, 0)):
        _rotate_(inplace, x, r1, r2, rotary_mode, partial_slice, backward, x_name)

    @_fake(inplace)
    def _(x, r1, r2, *, rotary_mode="interleave", partial_slice=(0, 0)):
        _check_rotate(inplace, x, r1, r2, rotary_mode, partial_slice, backward, x_name)

    @_impl(name)
    def _(x, r1, r2, *, rotary_mode="interleave", partial_slice=(0, 0)):
        _args.tensor(name, x_name, x, _args.CPU_DEVICES)
        out = x.clone()  # the layout the fake kernel validates: empty_like(x)'s
        _rotate_(name, out, r1, r2, rotary_mode, partial_slice, backward, x_name)
        return out

    @_fake(name)
    def _(x, r1, r2, *, rotary_mode="interleave", partial_slice=(0, 0)):
        _args.tensor(name, x_name, x, _args.FAKE_DEVICES)
        out = torch.empty_like(x)
        _check_rotate(name, out, r1, r2, rotary_mode, partial_slice, backward, x_name)
        return out

    def setup_context(ctx, inputs, output, keyword_only_inputs=None):
        kw = keyword_only_inputs or {}
        ctx.rotary_mode = kw.get("rotary_mode", "interleave")
        ctx.partial_slice = list(kw.get("partial_slice", (0, 0)))
        ctx.save_for_backward(inputs[1], inputs[2])

    def grad(ctx, grad_output):
        r1, r2 = ctx.saved_tensors
        inverse = getattr(ops, inverse_name)
        g = inverse(grad_output, r1, r2, rotary_mode=ctx.rotary_mode,
                    partial_slice=ctx.partial_slice)
        return g, None, None

    torch.library.register_autograd(f"ropekit::{name}", grad, setup_context=setup_context,
                                    lib=_LIB)

    @torch.library.impl(f"ropekit::{inplace}", "Autograd", lib=_LIB)
    def _(x, r1, r2, *, rotary_mode="interleave", partial_slice=(0, 0)):
        if _needs_grad(x):
            x.copy_(getattr(ops, name)(x, r1, r2, rotary_mode=rotary_mode,
                                       partial_slice=partial_slice))
            return
        with torch._C._AutoDispatchBelowAutograd():
            getattr(ops, inplace)(x, r1, r2, rotary_mode=rotary_mode,
                                  partial_slice=partial_slice)


_define_partial_rotary("partial_rotary_mul", False, "x", "partial_rotary_mul_backward")
_define_partial_rotary("partial_rotary_mul_backward", True, "grad_output", "partial_rotary_mul")


# ---- RopeWithSinCosCache ----

# The backward of a rotation by (cos, sin) is the rotation by (cos, -sin); negation is
# exact, so the cache with its sin half negated gives the transpose bit for bit. The
# last one is kept (a training step differentiates many calls with one cache), for as
# long as that very tensor lives unmodified: a weak reference, not its address, says so.
_negated = {"source": None, "version": None, "value": None}


def _negated_sin(cache):
    source = _negated["source"]
    if source is None or source() is not cache or _negated["version"] != cache._version:
        neg = cache.clone()
        neg[:, cache.shape[1] // 2:].neg_()
        _negated.update(source=weakref.ref(cache), version=cache._version, value=neg)
    return _negated["value"]


def _rope_run(op, positions, query, key, cache, head_size, is_neox, mrope_section, cache_mode,
              q_out, k_out, names, offsets=None):
    def convert():
        return _args.rope(op, positions, query, key, cache, head_size, is_neox, mrope_section,
                          cache_mode, offsets, names, _args.CPU_DEVICES)

    # types too: True == 1, but only a bool is_neox and an int head_size pass conversion
    op_key = (op, type(head_size), head_size, type(is_neox), is_neox, type(cache_mode),
              cache_mode, tuple(mrope_section) if mrope_section is not None else None,
              positions.dtype, None if offsets is None else offsets.dtype)
    _native.rope(op, op_key, _args.int64(positions), query, key, cache, q_out, k_out, convert,
                 _args.int64(offsets))


def _check_rope(op, positions, query, key, cache, head_size, is_neox, mrope_section, cache_mode,
                q_out, k_out, names, offsets, devices):
    """The fake kernels (and the backward before it negates the cache): the CPU kernel's
    conversion, then the library's validation of the call it makes."""
    head_size, is_neox, sections, cache_mode = _args.rope(
        op, positions, query, key, cache, head_size, is_neox, mrope_section, cache_mode, offsets,
        names, devices)
    _native.check_rope(op, _args.int64(positions), query, key, cache, q_out, k_out, head_size,
                       is_neox, sections, cache_mode, _args.int64(offsets))


def _define_rope(name, backward, names):
    @_impl(name)
    def _(positions, query, key, cos_sin_cache, head_size, is_neox, offsets=None, *,
          mrope_section=None, cache_mode=_SECTIONED):
        q_out = torch.empty_like(query)
        k_out = torch.empty_like(key) if key is not None else None
        cache = cos_sin_cache
        if backward:  # validated first: a bad cache must not be cloned
            _check_rope(name, positions, query, key, cos_sin_cache, head_size, is_neox,
                        mrope_section, cache_mode, q_out, k_out, names, offsets,
                        _args.CPU_DEVICES)
            cache = _negated_sin(cos_sin_cache)
        _rope_run(name, positions, query, key, cache, head_size, is_neox, mrope_section,
                  cache_mode, q_out, k_out, names, offsets)
        return q_out, k_out

    @_fake(name)
    def _(positions, query, key, cos_sin_cache, head_size, is_neox, offsets=None, *,
          mrope_section=None, cache_mode=_SECTIONED):
        q_out = torch.empty_like(query)
        k_out = torch.empty_like(key) if key is not None else None
        _check_rope(name, positions, query, key, cos_sin_cache, head_size, is_neox,
                    mrope_section, cache_mode, q_out, k_out, names, offsets, _args.FAKE_DEVICES)
        return q_out, k_out

    inverse = "rope_with_sin_cos_cache" if backward else "rope_with_sin_cos_cache_backward"

    def setup_context(ctx, inputs, output, keyword_only_inputs=None):
        kw = keyword_only_inputs or {}
        positions, _, _, cache, head_size, is_neox = inputs[:6]
        offsets = inputs[6] if len(inputs) > 6 else None
        ctx.save_for_backward(positions, cache, offsets)
        ctx.args = (head_size, is_neox)
        ctx.kw = {"mrope_section": kw.get("mrope_section"),
                  "cache_mode": kw.get("cache_mode", _SECTIONED)}

    def grad(ctx, grad_query, grad_key):
        positions, cache, offsets = ctx.saved_tensors
        gq, gk = getattr(ops, inverse)(positions, grad_query, grad_key, cache, *ctx.args,
                                       offsets=offsets, **ctx.kw)
        return None, gq, gk, None, None, None, None

    torch.library.register_autograd(f"ropekit::{name}", grad, setup_context=setup_context,
                                    lib=_LIB)


_define_rope("rope_with_sin_cos_cache", False, ("query", "key"))
_define_rope("rope_with_sin_cos_cache_backward", True, ("grad_query", "grad_key"))


# ---- vLLM's in-place rotary_embedding ----


@_impl("rotary_embedding")
def _(positions, query, key, head_size, cos_sin_cache, is_neox):
    _rope_run("rotary_embedding", positions, query, key, cos_sin_cache, head_size, is_neox, None,
              _SECTIONED, query, key, ("query", "key"))
    _written(query, key)


@_fake("rotary_embedding")
def _(positions, query, key, head_size, cos_sin_cache, is_neox):
    _check_rope("rotary_embedding", positions, query, key, cos_sin_cache, head_size, is_neox,
                None, _SECTIONED, query, key, ("query", "key"), None, _args.FAKE_DEVICES)


@torch.library.impl("ropekit::rotary_embedding", "Autograd", lib=_LIB)
def _(positions, query, key, head_size, cos_sin_cache, is_neox):
    if _needs_grad(query, key):
        q, k = ops.rope_with_sin_cos_cache(positions, query, key, cos_sin_cache, head_size,
                                           is_neox)
        query.copy_(q)
        if key is not None:
            key.copy_(k)
        return
    with torch._C._AutoDispatchBelowAutograd():
        ops.rotary_embedding(positions, query, key, head_size, cos_sin_cache, is_neox)
