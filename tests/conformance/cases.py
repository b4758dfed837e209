"""Seeds and the aclnn-face case runner shared by the conformance test files."""
import zlib

import numpy as np

import checks
import ropekit
import ropekit.aclnn as aclnn


def rng_for(*key):
    """A numpy Generator seeded from a stable hash of `key` (fixed across runs)."""
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def aclnn_case(rng, op, x_dtype, cs_dtype, x_shape, cs_shape, start, end,
               x_layout="contiguous", cs_layout="contiguous", specials=0.0, slice_arg=None):
    """Runs one random case on both faces: the native face on one copy of x (all
    checks) and the aclnn face (op "forward" or "grad", mode 1) on another; asserts the
    aclnn call succeeds and that both faces leave identical bytes. slice_arg overrides
    the aclIntArray passed (default [start, end])."""
    backward = op == "grad"
    base, x, index_view = checks.x_buffer(rng, x_shape, x_dtype, x_layout, specials)
    expand_to = None
    if cs_layout == "expanded":
        expand_to = tuple(cs_shape)
        cs_shape = tuple(1 for _ in cs_shape[:-1]) + (cs_shape[-1],)
    cos, sin = checks.cs_arrays(rng, cs_shape, cs_dtype, cs_layout, specials, expand_to)
    x_before, base_before = x.copy(), base.copy()
    native = x.copy()
    ropekit.partial_rotary(native, cos, sin, 1, start, end, backward,
                           x_dtype=x_dtype, cs_dtype=cs_dtype)
    checks.check_all(x_before, native, x_dtype, cos, sin, cs_dtype, 1, start, end, backward)
    run = aclnn.inplace_partial_rotary_mul if op == "forward" else \
        aclnn.inplace_partial_rotary_mul_grad
    res = run(x, cos, sin, 1, [start, end] if slice_arg is None else slice_arg,
              x_dtype=x_dtype, cs_dtype=cs_dtype)
    assert res.ok, res
    checks.check_memory(base_before, base, index_view)
    a, b = checks.emulate.bits(native, x_dtype), checks.emulate.bits(x.copy(), x_dtype)
    assert np.array_equal(a, b), "aclnn face and native face differ"
