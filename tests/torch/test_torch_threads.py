"""ropekit's thread count follows torch.get_num_threads() unless the user sets it, and
results do not depend on it."""
import torch

import ropekit
import ropekit.torch  # noqa: F401
from conftest import make

ops = torch.ops.ropekit


def _call():
    x = make((4, 64, 8, 64), torch.float32, 1)
    c = make((4, 64, 1, 64), torch.float32, 2)
    return ops.partial_rotary_mul(x, c, c, partial_slice=[0, 64])


def test_threads_follow_torch_unless_set():
    saved = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one = _call()
        assert ropekit.get_num_threads() == 1
        torch.set_num_threads(2)
        two = _call()
        assert ropekit.get_num_threads() == 2
        assert torch.equal(one, two)
        ropekit.set_num_threads(1)  # the user's choice wins
        _call()
        assert ropekit.get_num_threads() == 1
        ropekit.set_num_threads(0)  # back to following torch
        _call()
        assert ropekit.get_num_threads() == 2
    finally:
        ropekit.set_num_threads(0)
        torch.set_num_threads(saved)
