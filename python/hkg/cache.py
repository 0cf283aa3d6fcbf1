"""The on-disk kernel cache.

A compiled bundle lives under `$HKG_CACHE_DIR` (default
`$XDG_CACHE_HOME/hkg`, else `~/.cache/hkg`) in `bundles/<key>/`, the key a
SHA-256 of the program's MLIR text (which holds every op's signature and any
schedule it carries), the compile options (target chip, format, ...), hkg's
version, the bundle format's version, the identity of the loaded
libhkg.so and of the toolkit the compiler finds for the target (ptxas,
libdevice; ld.lld, the device bitcode). A second process asking for the same program with the same
compiler finds the bundle and compiles nothing. Entries are written to a
temporary directory and renamed into place, so concurrent processes never
see half a bundle. `HKG_CACHE_DIR=off` disables the disk cache (every
program compiles into a temporary directory)."""

import atexit
import hashlib
import json
import os
import shutil
import tempfile
import threading

from . import _native

_stats = {"hits": 0, "misses": 0}
_lock = threading.Lock()


def cache_dir():
    """The cache's root directory, or None when disabled (HKG_CACHE_DIR=off)."""
    d = os.environ.get("HKG_CACHE_DIR")
    if d == "off":
        return None
    if d:
        return os.path.abspath(d)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "hkg")


def _file_identity(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return f"{os.path.realpath(path)}:{st.st_size}:{st.st_mtime_ns}"


def toolkit_identity(chip, override=""):
    """The toolkit the compiler uses for `chip` (as it finds it:
    hkgFindToolkit), each of its files by path, size and modification time:
    a bundle compiled with another CUDA or ROCm is not reused."""
    toolkit = _native.find_toolkit(chip, override)
    if toolkit is None:
        return "none"
    files = {k: _file_identity(v) for k, v in sorted(toolkit.items())
             if k != "kind" and v}
    return json.dumps({"kind": toolkit["kind"], "files": files}, sort_keys=True)


def cache_key(source, options):
    material = json.dumps({
        "source": source,
        "options": options,
        "hkg": _native.version(),
        "bundle": _native.bundle_version(),
        "library": _native.library_identity(),
        "toolkit": toolkit_identity(options.get("chip", ""),
                                    options.get("toolkit", "")),
    }, sort_keys=True)
    return hashlib.sha256(material.encode()).hexdigest()


def stats():
    """{'hits': n, 'misses': m}: disk-cache lookups in this process (a miss
    is a compilation)."""
    with _lock:
        return dict(_stats)


def _count(kind):
    with _lock:
        _stats[kind] += 1


def compile_cached(source, options):
    """The bundle directory of `source` compiled with `options` (a dict of
    hkgCompile's options), compiling it on a miss. Raises CompileError."""
    root = cache_dir()
    options_json = json.dumps(options, sort_keys=True)
    if root is None:
        _count("misses")
        out = tempfile.mkdtemp(prefix="hkg-bundle-")
        atexit.register(shutil.rmtree, out, ignore_errors=True)
        _native.compile_to(source, options_json, out)
        return out
    key = cache_key(source, options)
    final = os.path.join(root, "bundles", key)
    if os.path.exists(os.path.join(final, "manifest.json")):
        _count("hits")
        return final
    _count("misses")
    tmp_root = os.path.join(root, "tmp")
    os.makedirs(tmp_root, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=key[:16] + "-", dir=tmp_root)
    try:
        _native.compile_to(source, options_json, tmp)
        # What was compiled, for a person reading the cache.
        with open(os.path.join(tmp, "source.mlir"), "w") as f:
            f.write(source)
        with open(os.path.join(tmp, "options.json"), "w") as f:
            f.write(options_json + "\n")
        os.makedirs(os.path.dirname(final), exist_ok=True)
        if os.path.isdir(final) and not os.path.exists(
                os.path.join(final, "manifest.json")):
            # Not written by hkg (entries appear whole, by rename): a
            # damaged entry is replaced.
            shutil.rmtree(final, ignore_errors=True)
        try:
            os.rename(tmp, final)
        except OSError:
            # Another process put the same bundle there first.
            if not os.path.exists(os.path.join(final, "manifest.json")):
                raise
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return final


def clear():
    """Removes every cached bundle."""
    root = cache_dir()
    if root:
        shutil.rmtree(os.path.join(root, "bundles"), ignore_errors=True)
