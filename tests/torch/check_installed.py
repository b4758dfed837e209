"""The package `pip install .` installed: importable from anywhere with no environment
variable, its library bundled inside it, and its ops working."""
import os
import sys

import torch

import cann_ops_transformer
import ropekit
import ropekit.torch

here = os.path.dirname(os.path.abspath(__file__))
for module in (ropekit, cann_ops_transformer):
    path = os.path.abspath(module.__file__)
    assert "site-packages" in path and not path.startswith(os.path.dirname(here)), path
lib = ropekit.library_path()
assert lib == os.path.join(os.path.dirname(os.path.abspath(ropekit.__file__)), "libropekit.so"), lib
x = torch.randn(1, 2, 2, 8)
c, s = torch.ones(1, 2, 1, 8), torch.zeros(1, 2, 1, 8)
y = x.clone()
cann_ops_transformer.inplace_partial_rotary_mul(y, c, s, partial_slice=[0, 8])
assert torch.equal(x, y)  # cos 1, sin 0: the identity
print(f"installed ropekit {ropekit.version()} from {lib}")
sys.exit(0)
