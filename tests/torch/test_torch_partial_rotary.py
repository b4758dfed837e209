"""torch.ops.ropekit partial rotary ops against the float64 definitions: every mode,
dtype pair, slice, broadcast pattern and layout; in place equals functional; the
backward op is the transpose."""
import pytest
import torch

import ropekit.torch  # noqa: F401
import refs
from conftest import DTYPE_PAIRS, make

ops = torch.ops.ropekit
MODES = ["half", "interleave", "quarter", "interleave-half"]


def _check_forward(x, c, s, mode, start, end, out):
    want, mag = refs.partial_rotary(x, c, s, mode, start, end)
    keep = torch.ones_like(x, dtype=torch.bool)
    keep[..., start:end] = False
    refs.assert_close(out, want, mag, x.dtype, passthrough=(keep, x))


@pytest.mark.parametrize("x_dt,cs_dt", DTYPE_PAIRS, ids=lambda d: str(d).split(".")[-1])
@pytest.mark.parametrize("mode", MODES)
def test_every_mode_and_dtype_pair(x_dt, cs_dt, mode):
    x = make((2, 5, 3, 48), x_dt, 1)
    start, end = 8, 40
    c, s = make((2, 5, 1, 32), cs_dt, 2), make((2, 5, 1, 32), cs_dt, 3)
    out = ops.partial_rotary_mul(x, c, s, rotary_mode=mode, partial_slice=[start, end])
    _check_forward(x, c, s, mode, start, end, out)
    y = x.clone()
    ops.inplace_partial_rotary_mul(y, c, s, rotary_mode=mode, partial_slice=[start, end])
    assert torch.equal(y, out), "in place differs from the functional op"


@pytest.mark.parametrize("pattern", ["BSN", "BS1", "B11", "111", "1S1", "1SN", "B1N", "11N"])
def test_broadcast_patterns(pattern):
    x = make((3, 4, 5, 16), torch.float32, 4)
    cs_shape = tuple(n if p != "1" else 1 for n, p in zip(x.shape[:3], pattern)) + (16,)
    c, s = make(cs_shape, torch.float32, 5), make(cs_shape, torch.float32, 6)
    out = ops.partial_rotary_mul(x, c, s, rotary_mode="interleave", partial_slice=[0, 16])
    _check_forward(x, c, s, "interleave", 0, 16, out)


def test_lower_rank_cos_sin_broadcast_right_aligned():
    x = make((2, 3, 4, 8), torch.float32, 7)
    c, s = make((4, 8), torch.float32, 8), make((4, 8), torch.float32, 9)
    out = ops.partial_rotary_mul(x, c, s, rotary_mode="half", partial_slice=[0, 8])
    _check_forward(x, c, s, "half", 0, 8, out)


def test_strided_inputs_and_expanded_coefficients():
    big = make((6, 4, 10, 40), torch.bfloat16, 10)
    x = big[::2, :, 1:9, 2:34]  # every other batch, a window of heads and of columns
    assert not x.is_contiguous()
    c = make((1, 4, 1, 16), torch.float32, 11).expand(3, 4, 8, 16)  # zero strides
    s = make((4, 16, 1), torch.float32, 12).permute(2, 0, 1).unsqueeze(2).expand(3, 4, 8, 16)
    want_x = x.clone()
    out = ops.partial_rotary_mul(x, c, s, rotary_mode="interleave", partial_slice=[4, 20])
    _check_forward(want_x, c, s, "interleave", 4, 20, out)
    before = big.clone()
    ops.inplace_partial_rotary_mul(x, c, s, rotary_mode="interleave", partial_slice=[4, 20])
    assert torch.equal(x, out)
    mask = torch.ones_like(big, dtype=torch.bool)
    mask[::2, :, 1:9, 6:22] = False
    assert torch.equal(big[mask], before[mask]), "memory outside the view was written"


@pytest.mark.parametrize("slc,shape_cs", [([3, 3], (2, 1, 1, 0)), ([0, 0], (2, 1, 1, 4))])
def test_empty_slices_are_no_ops(slc, shape_cs):
    x = make((2, 3, 4, 8), torch.float16, 13)
    c = make(shape_cs, torch.float16, 14)
    y = x.clone()
    ops.inplace_partial_rotary_mul(y, c, c, rotary_mode="interleave", partial_slice=slc)
    assert torch.equal(y, x)
    assert torch.equal(ops.partial_rotary_mul(x, c, c, partial_slice=slc), x)


def test_empty_tensors():
    x = torch.empty((0, 3, 4, 8))
    c = torch.empty((0, 3, 1, 8))
    assert ops.partial_rotary_mul(x, c, c, partial_slice=[0, 8]).shape == x.shape
    ops.inplace_partial_rotary_mul(x, c, c, partial_slice=[0, 8])


def test_default_slice_is_a_no_op():
    x = make((1, 2, 2, 8), torch.float32, 15)
    y = x.clone()
    ropekit.torch.inplace_partial_rotary_mul(y, x, x)  # partial_slice None -> [0, 0]
    assert torch.equal(x, y)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("x_dt,cs_dt", [(torch.float32, torch.float32),
                                        (torch.bfloat16, torch.float32),
                                        (torch.float16, torch.float16)],
                         ids=lambda d: str(d).split(".")[-1])
def test_backward_op_is_the_transpose(mode, x_dt, cs_dt):
    g = make((2, 6, 2, 24), x_dt, 16)
    c, s = make((2, 6, 1, 16), cs_dt, 17), make((2, 6, 1, 16), cs_dt, 18)
    got = ops.partial_rotary_mul_backward(g, c, s, rotary_mode=mode, partial_slice=[4, 20])
    want, mag = refs.partial_rotary_backward(g, c, s, mode, 4, 20)
    keep = torch.ones_like(g, dtype=torch.bool)
    keep[..., 4:20] = False
    refs.assert_close(got, want, mag, x_dt, passthrough=(keep, g))
    y = g.clone()
    ops.inplace_partial_rotary_mul_backward(y, c, s, rotary_mode=mode, partial_slice=[4, 20])
    assert torch.equal(y, got)


def test_cann_interleave_check_vector():
    # SPEC §3.3: v=[1,2,3,4], c=[.5,.5,.25,.25], s=[.1,.2,.3,.4] -> u=[0.3,1.2,-0.45,2.2]
    x = torch.tensor([1.0, 2.0, 3.0, 4.0]).reshape(1, 1, 1, 4)
    c = torch.tensor([0.5, 0.5, 0.25, 0.25]).reshape(1, 1, 1, 4)
    s = torch.tensor([0.1, 0.2, 0.3, 0.4]).reshape(1, 1, 1, 4)
    out = ops.partial_rotary_mul(x, c, s, rotary_mode="interleave", partial_slice=[0, 4])
    assert torch.allclose(out.flatten(), torch.tensor([0.3, 1.2, -0.45, 2.2]), atol=1e-6)
