"""ctypes mirror of `ropekit_tensor` and its construction from numpy arrays."""
from . import _abi
from ._structs import structure

MAX_DIMS = _abi.ROPEKIT_MAX_DIMS

RopekitTensor = structure(
    "ropekit_tensor", "struct ropekit_tensor: data, dtype, ndim, shape, strides (in elements).")


def element_strides(arr, what):
    """Returns arr's strides counted in elements; raises ValueError if a byte stride is
    not a multiple of the item size."""
    item = arr.itemsize
    out = []
    for k, st in enumerate(arr.strides):
        if st % item:
            raise ValueError(f"{what}: stride {st} bytes of axis {k} is not a multiple of the "
                             f"item size {item}")
        out.append(st // item)
    return out


def tensor_of(arr, dtype_id, what):
    """Describes numpy array `arr` (any strides, including zero and negative) as a
    RopekitTensor of element type `dtype_id`. The caller keeps `arr` alive."""
    if arr.ndim > MAX_DIMS:
        raise ValueError(f"{what}: rank {arr.ndim} exceeds {MAX_DIMS}")
    t = RopekitTensor()
    t.data = arr.ctypes.data
    t.dtype = dtype_id
    t.ndim = arr.ndim
    for k, (n, st) in enumerate(zip(arr.shape, element_strides(arr, what))):
        t.shape[k] = n
        t.strides[k] = st
    return t
