"""Building and loading ropekit.torch's optional C++ kernels (_ext.cpp) against the
installed torch, with torch's C++ extension tools (a compiler is needed; the build is
cached by torch in TORCH_EXTENSIONS_DIR). The extension is built with OpenMP and so runs
the library's tasks on torch's own OpenMP threads: its libgomp is the one torch loaded."""
import ctypes
import os

from .. import _lib
from .. import native as _np_native
from .._types import MODES

_HERE = os.path.dirname(os.path.abspath(__file__))
_loaded = None


def _include_dir():
    """ropekit.h: installed inside the package, or in the source tree."""
    for d in (os.path.join(_HERE, "..", "include"), os.path.join(_HERE, "..", "..", "..",
                                                                  "include")):
        if os.path.exists(os.path.join(d, "ropekit", "ropekit.h")):
            return os.path.abspath(d)
    raise FileNotFoundError("ropekit.h not found next to the package nor in the source tree")


def _address(name):
    return ctypes.cast(getattr(_lib.load(), name), ctypes.c_void_p).value


def load_extension(verbose=False):
    """Compiles (once) and loads the C++ kernels; from then on the ops' CPU kernels are
    C++, and the library's parallel work (in this process, every face's) runs on torch's
    intra-op pool (ropekit_set_parallel_for). Returns the module. Raises if the build
    fails (the Python kernels stay in place)."""
    global _loaded
    if _loaded is not None:
        return _loaded
    from torch.utils import cpp_extension

    from . import _ops

    module = cpp_extension.load(name="ropekit_torch_ext",
                                sources=[os.path.join(_HERE, "_ext.cpp")],
                                extra_include_paths=[_include_dir()],
                                extra_cflags=["-O2", "-fopenmp"], extra_ldflags=["-fopenmp"],
                                verbose=verbose)
    module.init(_address("ropekit_rope"), _address("ropekit_partial_rotary"),
                _address("ropekit_set_num_threads"), _address("ropekit_set_parallel_for"),
                _ops.CPU_KERNELS, dict(MODES))
    module.follow_torch(not _np_native.threads_set_by_user()
                        and not os.environ.get("ROPEKIT_NUM_THREADS"))
    _np_native.on_threads_set(lambda by_user: module.follow_torch(not by_user))
    _loaded = module
    return module


def extension_loaded():
    return _loaded is not None
