"""Loads the binding of hkg's C API (`_hkg`, python/hkg/_hkg.cpp) and turns
its errors into `CompileError`."""

import functools
import os

from .errors import CompileError, HkgError

try:
    from . import _hkg
except ImportError as e:  # pragma: no cover - depends on the install
    raise ImportError(
        "hkg's native module _hkg is missing or does not load (" + str(e) +
        "). Build hkg (utils/setup.sh) and use build/python_packages, or "
        "install the portable package (docs/Python.md)") from e

NativeError = _hkg.Error


def version():
    return _hkg.version()


def bundle_version():
    return _hkg.bundle_version()


def compile_to(source, options_json, out_dir):
    try:
        _hkg.compile(source, options_json, out_dir)
    except NativeError as e:
        raise CompileError(str(e)) from None


def transform(source, pipeline=""):
    try:
        return _hkg.transform(source, pipeline)
    except NativeError as e:
        raise CompileError(str(e)) from None


@functools.lru_cache(maxsize=1)
def library_identity():
    """The loaded libhkg.so's path, size and modification time: part of every
    cache key, so a rebuilt compiler never reuses an older one's kernels."""
    path = None
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                if line.rstrip().endswith("/libhkg.so"):
                    path = line.split()[-1]
                    break
    except OSError:
        pass
    if path is None:
        path = _hkg.__file__
    st = os.stat(path)
    return f"{path}:{st.st_size}:{st.st_mtime_ns}"


def open_device(kind, ordinal):
    try:
        return _hkg.Device(kind, ordinal)
    except NativeError as e:
        raise HkgError(str(e)) from None


@functools.lru_cache(maxsize=None)
def find_toolkit(chip, override=""):
    """The toolkit the compiler uses for `chip` (lib/Target/Toolkit.cpp's
    search, through hkgFindToolkit): a dict of its paths, or None when
    there is none (then compiling what needs it is an error naming it)."""
    import json
    try:
        return json.loads(_hkg.find_toolkit(chip, override))
    except NativeError:
        return None
