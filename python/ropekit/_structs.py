"""ctypes Structures of the library's structs, made from the layouts the headers give
(_abi.STRUCTS: each field's name, ctypes type and offset, and the struct's size) and
checked against them, so a field ctypes would place elsewhere than the compiler does is
an ImportError, not a corrupted call."""
import ctypes
import re

from . import _abi

_SCALARS = {"c_void_p": ctypes.c_void_p, "c_int": ctypes.c_int, "c_int32": ctypes.c_int32,
            "c_int64": ctypes.c_int64, "c_double": ctypes.c_double}


def _ctype(spec, refs):
    """"c_int64", "c_int64[8]", "POINTER(c_double)" or "POINTER(<struct>)" as a ctypes
    type; <struct> is one of refs (name -> Structure)."""
    pointee = re.fullmatch(r"POINTER\((\w+)\)", spec)
    if pointee:
        name = pointee.group(1)
        return ctypes.POINTER(_SCALARS[name] if name in _SCALARS else refs[name])
    array = re.fullmatch(r"(\w+)\[(\d+)\]", spec)
    if array:
        return _SCALARS[array.group(1)] * int(array.group(2))
    return _SCALARS[spec]


def make(name, layout, doc="", refs=None):
    """A ctypes.Structure named `name` with layout (sizeof, ((field, ctypes type, offset),
    ...)). Raises ImportError if ctypes places a field or sizes the struct otherwise."""
    size, fields = layout
    refs = refs or {}
    cls = type(name, (ctypes.Structure,),
               {"__doc__": doc, "_fields_": [(f, _ctype(t, refs)) for f, t, _ in fields]})
    for field, _, offset in fields:
        if getattr(cls, field).offset != offset:
            raise ImportError(f"ropekit: ctypes puts {name}.{field} at offset "
                              f"{getattr(cls, field).offset}, the library at {offset}")
    if ctypes.sizeof(cls) != size:
        raise ImportError(f"ropekit: ctypes makes {name} {ctypes.sizeof(cls)} bytes, the "
                          f"library {size}")
    return cls


def structure(name, doc="", refs=None):
    """The Structure of library struct `name` (a key of _abi.STRUCTS)."""
    return make(name, _abi.STRUCTS[name], doc, refs)
