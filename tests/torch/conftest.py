"""Shared fixtures of the torch tests: inputs and the byte-level snapshot used to show a
failed call modified nothing."""
import os
import sys

import pytest
import torch

sys.path.insert(0, os.path.dirname(__file__))

DTYPES = [torch.float32, torch.float16, torch.bfloat16]
# (x dtype, cos/sin dtype) pairs of the partial rotary op: all nine.
DTYPE_PAIRS = [(x, c) for x in DTYPES for c in DTYPES]


def make(shape, dtype, seed, lo=-1.0, hi=1.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(shape, generator=g, dtype=torch.float64) * (hi - lo) + lo).to(dtype)


def snapshot(*tensors):
    """Raw bytes of every tensor (None kept)."""
    return [t.detach().clone().reshape(-1).view(torch.uint8)
            if isinstance(t, torch.Tensor) else None for t in tensors]


def assert_unchanged(before, *tensors):
    for b, t in zip(before, tensors):
        if isinstance(t, torch.Tensor):
            assert torch.equal(b, t.detach().reshape(-1).view(torch.uint8)), "tensor modified"


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)
