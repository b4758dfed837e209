"""Locating and loading libropekit, and the exception raised on library failures."""
import ctypes
import ctypes.util
import os

_LIB = None


class RopekitError(RuntimeError):
    """A ropekit call failed.

    ``status`` is the ropekit_status (native face) or aclnnStatus/aclError (aclnn face)
    code and ``status_name`` its name where there is one; ``message`` is the library's
    last-error text for the calling thread ("<api>: <param> = <value>: <rule>"). The
    exception reads "<api>: <param> = <value>: <rule> (<status name>, status <n>)", with
    the API named once.
    """

    def __init__(self, status, message, api="", status_name=""):
        self.status = int(status)
        self.status_name = status_name
        self.message = message
        self.api = api
        text = message if not api or message.startswith(f"{api}:") else f"{api}: {message}"
        code = f"{status_name}, status {self.status}" if status_name else f"status {self.status}"
        super().__init__(f"{text} ({code})")


def library_path():
    """Returns the path or name used to load libropekit: $ROPEKIT_LIBRARY if set, else
    the library installed with this package (`pip install .`), else what
    ctypes.util.find_library("ropekit") finds, else "libropekit.so"."""
    env = os.environ.get("ROPEKIT_LIBRARY")
    if env:
        return env
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libropekit.so")
    if os.path.exists(bundled):
        return bundled
    found = ctypes.util.find_library("ropekit")
    return found if found else "libropekit.so"


def load():
    """Loads libropekit once and returns the ctypes.CDLL handle."""
    global _LIB
    if _LIB is None:
        path = library_path()
        try:
            _LIB = ctypes.CDLL(path)
        except OSError as exc:
            raise OSError(
                f"cannot load libropekit from {path!r} ({exc}); set ROPEKIT_LIBRARY to the "
                "full path of libropekit.so") from exc
    return _LIB


def bind(name, restype, argtypes):
    """Returns library function `name` with its ctypes prototype set. Each call makes
    its own function object, so prototypes set elsewhere never interfere."""
    fn = load()[name]
    fn.restype = restype
    fn.argtypes = argtypes
    return fn
