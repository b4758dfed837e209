"""The optional C++ kernels (ropekit.torch.load_extension; the suite runs the torch tests
a second time with ROPEKIT_TORCH_EXTENSION=1): they are the CPU kernels then, and give
the Python kernels' bytes."""
import pytest
import torch

import ropekit.torch as rt
from ropekit.torch import _ops
from conftest import make

pytestmark = pytest.mark.skipif(not rt.extension_loaded(),
                                reason="C++ kernels not loaded (ROPEKIT_TORCH_EXTENSION=1)")
ops = torch.ops.ropekit


def test_cpu_kernels_are_cpp():
    for name in ("rotary_embedding", "rope_with_sin_cos_cache", "inplace_partial_rotary_mul",
                 "partial_rotary_mul"):
        assert torch._C._dispatch_has_kernel_for_dispatch_key(f"ropekit::{name}", "CPU"), name


def test_cpp_and_python_kernels_agree():
    x, c = make((3, 5, 4, 48), torch.bfloat16, 1), make((3, 5, 1, 32), torch.float32, 2)
    for mode in ("half", "interleave", "quarter", "interleave-half"):
        kw = dict(rotary_mode=mode, partial_slice=[8, 40])
        assert torch.equal(ops.partial_rotary_mul(x, c, c, **kw),
                           _ops.CPU_KERNELS["partial_rotary_mul"](x, c, c, **kw))
    pos = torch.randint(0, 32, (3, 9))
    q, k = make((9, 4 * 64), torch.float16, 3), make((9, 64), torch.float16, 4)
    cache = make((32, 64), torch.float16, 5)
    kw = dict(mrope_section=[8, 12, 12], cache_mode=1)
    got = ops.rope_with_sin_cos_cache(pos, q, k, cache, 64, False, **kw)
    want = _ops.CPU_KERNELS["rope_with_sin_cos_cache"](pos, q, k, cache, 64, False, **kw)
    assert all(torch.equal(a, b) for a, b in zip(got, want))


def test_fallback_keeps_exception_types():
    with pytest.raises(ValueError, match="float64 goes with float64 only"):
        ops.partial_rotary_mul(torch.zeros(1, 1, 1, 8, dtype=torch.float64),
                               torch.zeros(1, 1, 1, 8), torch.zeros(1, 1, 1, 8),
                               partial_slice=[0, 8])
    with pytest.raises(IndexError, match="positions"):
        ops.rotary_embedding(torch.tensor([9]), torch.zeros(1, 64), None, 64,
                             torch.zeros(4, 64), True)
