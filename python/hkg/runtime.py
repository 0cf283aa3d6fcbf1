"""Running a compiled bundle on PyTorch tensors.

`Program` is one function of a bundle (its launch plan, docs/ABI.md "Launch
plan") made callable: it checks the tensors it is given (a CUDA/HIP device,
the plan's dtypes and shapes), allocates the outputs and one arena for the
intermediates with torch's allocator, and launches every step on the
tensors' device and torch's current stream through the C API's runtime,
which shares the device's primary context with torch."""

import json
import math
import os
import threading

from . import _native
from .dtypes import to_torch
from .errors import DeviceError, DTypeError, HkgError, ShapeError

_devices = {}
_devices_lock = threading.Lock()


class _Device:
    """The runtime's handle of one GPU and the code objects loaded on it."""

    def __init__(self, kind, ordinal):
        self.native = _native.open_device(kind, ordinal)
        self.arch = self.native.arch
        self.kernels = {}  # (binary path, entry) -> kernel handle
        self.lock = threading.Lock()

    def kernel(self, path, entry):
        key = (path, entry)
        handle = self.kernels.get(key)
        if handle is None:
            with self.lock:
                handle = self.kernels.get(key)
                if handle is None:
                    try:
                        with open(path, "rb") as f:
                            module = self.native.load_module(f.read())
                        handle = self.native.get_kernel(module, entry)
                    except _native.NativeError as e:
                        raise HkgError(f"loading {path}: {e}") from None
                    self.kernels[key] = handle
        return handle


def _torch():
    import torch
    return torch


def device_for(tensor_device):
    """The runtime device of a torch device (a GPU: CUDA or ROCm)."""
    torch = _torch()
    if tensor_device.type != "cuda":
        raise DeviceError(
            f"hkg runs on GPU tensors; got a tensor on '{tensor_device}'. "
            "Move it with .cuda() (CUDA and ROCm builds of torch both name "
            "the GPU 'cuda')")
    index = tensor_device.index
    if index is None:
        index = torch.cuda.current_device()
    kind = "hip" if getattr(torch.version, "hip", None) else "cuda"
    with _devices_lock:
        dev = _devices.get((kind, index))
        if dev is None:
            dev = _devices[(kind, index)] = _Device(kind, index)
    return dev, index


def target_of(tensor_device):
    """The hkg target chip of a torch GPU device: sm_90, gfx942, ..."""
    torch = _torch()
    if tensor_device.type != "cuda":
        raise DeviceError(f"no hkg target for a tensor on '{tensor_device}'")
    index = tensor_device.index
    if index is None:
        index = torch.cuda.current_device()
    if getattr(torch.version, "hip", None):
        arch = torch.cuda.get_device_properties(index).gcnArchName
        return arch.split(":")[0]
    major, minor = torch.cuda.get_device_capability(index)
    return f"sm_{major}{minor}"


def _stream(index):
    torch = _torch()
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return raw(index)
    return torch.cuda.current_stream(index).cuda_stream


def _resolve(shape, sizes):
    return [sizes[d["size"]] if isinstance(d, dict) else d for d in shape]


def _check_dtype(function, i, t, spec):
    """Input i is a tensor of the plan's dtype (TypeError, DTypeError)."""
    torch = _torch()
    if not isinstance(t, torch.Tensor):
        raise TypeError(f"{function}: input {i} is a {type(t).__name__}, "
                        "expected a torch.Tensor")
    want = to_torch(spec["dtype"])
    if t.dtype != want:
        raise DTypeError(f"{function}: input {i} is {t.dtype}, expected {want}")


class _Step:
    __slots__ = ("kernel", "args", "sizes", "grid", "grid_x", "block",
                 "dynamic_lds", "binary", "entry", "name")


class Program:
    """One function of a compiled bundle, callable on torch tensors.

    `program(*inputs)` returns the function's result (a tensor, or a tuple
    for several). Inputs must be GPU tensors of the plan's dtypes and
    shapes; non-contiguous ones are made contiguous first (a copy)."""

    def __init__(self, bundle_dir, function=None):
        self.bundle_dir = bundle_dir
        with open(os.path.join(bundle_dir, "manifest.json")) as f:
            manifest = json.load(f)
        if manifest.get("hkg_version") != _native.bundle_version():
            raise HkgError(
                f"{bundle_dir}: bundle format {manifest.get('hkg_version')!r}, "
                f"this hkg reads {_native.bundle_version()!r}")
        self.target = manifest["target"]
        self.manifest = manifest
        kernels = {k["name"]: k for k in manifest["kernels"]}
        plans = manifest.get("plans", [])
        if function is None:
            if len(plans) != 1:
                raise HkgError(
                    f"{bundle_dir}: {len(plans)} functions; name the one to run "
                    f"({', '.join(p['function'] for p in plans)})")
            plan = plans[0]
        else:
            matches = [p for p in plans if p["function"] == function]
            if not matches:
                raise HkgError(f"{bundle_dir}: no launch plan for '{function}'")
            plan = matches[0]
        if "no_plan" in plan:
            raise HkgError(f"function '{plan['function']}' cannot run from "
                           f"Python: {plan['no_plan']}")
        self.function = plan["function"]
        self.plan = plan
        self.inputs = plan["inputs"]
        self.outputs = plan["outputs"]
        self.sizes = plan.get("sizes", [])
        self.buffers = plan.get("buffers", [])
        self.views = {v["name"]: v for v in plan.get("views", [])}
        self.arena_bytes = plan.get("arena_bytes", 0)
        self.steps = []
        for s in plan["steps"]:
            k = kernels[s["kernel"]]
            st = _Step()
            st.name = k["name"]
            st.kernel = None
            st.args = s["args"]
            st.sizes = s.get("sizes", [])
            st.grid = list(k["grid"])
            gx = k.get("grid_x")
            st.grid_x = (gx["mul"], gx["div"], gx["times"]) if gx else None
            st.block = list(k["block"])
            st.dynamic_lds = k.get("dynamic_lds_bytes", 0)
            st.binary = os.path.join(bundle_dir, k["binary"])
            st.entry = k["entry"]
            self.steps.append(st)
        self.kernel_names = [st.name for st in self.steps]
        self._states = {}
        self._fast_devices = {}
        self._static = not self.sizes
        self._expect = [(to_torch(spec["dtype"]),
                         tuple(spec["shape"]) if all(isinstance(d, int) for d in spec["shape"])
                         else None) for spec in self.inputs]
        # What a call allocates: per buffer, an arena offset or None.
        self._buffer_plan = [
            (b["name"], None if (b["kind"] == "output" or "offset" not in b)
             else b["offset"], b["shape"], to_torch(b["dtype"]))
            for b in self.buffers]

    def __repr__(self):
        return (f"<hkg.Program {self.function} for {self.target}: "
                f"{len(self.steps)} kernel(s)>")

    # -- checking the caller's tensors ------------------------------------
    def _check_inputs(self, args):
        torch = _torch()
        if len(args) != len(self.inputs):
            raise ShapeError(f"{self.function} takes {len(self.inputs)} "
                             f"tensor(s), got {len(args)}")
        device = None
        out = []
        for i, (t, spec) in enumerate(zip(args, self.inputs)):
            if not isinstance(t, torch.Tensor):
                _check_dtype(self.function, i, t, spec)
            if t.device.type != "cuda":
                raise DeviceError(
                    f"{self.function}: input {i} is on '{t.device}'; hkg "
                    "kernels run on GPU tensors (move it with .cuda())")
            if device is None:
                device = t.device
            elif t.device != device:
                raise DeviceError(f"{self.function}: inputs on {device} and "
                                  f"{t.device}; all must be on one GPU")
            _check_dtype(self.function, i, t, spec)
            out.append(t if t.is_contiguous() else t.contiguous())
        return out, self._bind_sizes(args), device

    def bind(self, *args):
        """The program bound to these inputs, to outputs allocated once and
        to the stream current now: `bound.launch()` replays every step on
        that stream through the native launch sequence with nothing checked
        or allocated, `bound.outputs` are the results it writes. Inputs
        must be contiguous (they are read in place: updating their values
        between launches is seen) and stay alive. For replays in a loop,
        and for timing the launch path alone."""
        for i, t in enumerate(args):
            if hasattr(t, "is_contiguous") and not t.is_contiguous():
                raise ShapeError(f"{self.function}.bind: input {i} is not "
                                 "contiguous (a bound program reads it in place)")
        inputs, sizes, device, dev, index = self._prepare(args)
        seq = self._load(dev)
        table, tensors, arena = self._allocate(inputs, sizes, device)
        stream = _stream(index)
        outputs = self._outputs(tensors, sizes)

        class Bound:
            """A program bound to its buffers (Program.bind)."""

            def launch(self_):
                try:
                    seq.run(table, sizes, stream)
                except _native.NativeError as e:
                    raise HkgError(str(e)) from None

        bound = Bound()
        bound.outputs = outputs[0] if len(outputs) == 1 else tuple(outputs)
        bound.stream = stream
        bound._keep = (list(inputs), tensors, arena)
        return bound

    # -- the host reference -------------------------------------------------
    def reference(self, *args):
        """What the program computes, on CPU tensors and without a GPU: each
        step's float64 reference (the one hkg-run checks kernels against) in
        plan order, fed the results of the steps before it. Float results
        come back as float64 tensors, integer ones in their dtype."""
        torch = _torch()
        if len(args) != len(self.inputs):
            raise ShapeError(f"{self.function} takes {len(self.inputs)} "
                             f"tensor(s), got {len(args)}")
        values = {}
        sizes = self._bind_sizes(args)
        for i, (t, spec) in enumerate(zip(args, self.inputs)):
            _check_dtype(self.function, i, t, spec)
            values[spec.get("name", f"arg{i}")] = t.detach().cpu().contiguous()
        kernels = {k["name"]: k for k in self.manifest["kernels"]}
        for st in self.steps:
            k = kernels[st.name]
            n_in = sum(1 for a in k["args"] if a["role"] == "input")
            ins = []
            for name in st.args[:n_in]:
                v = self._host_value(name, values, sizes)
                ins.append((self._dtype_name(v), list(v.shape),
                            v.numpy().tobytes() if v.dtype != torch.bfloat16
                            else v.view(torch.int16).numpy().tobytes()))
            try:
                outs = _native._hkg.reference_evaluate(k["source"], ins)
            except _native.NativeError as e:
                raise HkgError(f"reference of {st.name}: {e}") from None
            for name, (dtype, shape, data) in zip(st.args[n_in:], outs):
                t = torch.frombuffer(bytearray(data), dtype=to_torch(dtype))
                storage = self.views[name]["of"] if name in self.views else name
                spec = next((b for b in self.buffers if b["name"] == storage), None)
                values[storage] = t.reshape(_resolve(spec["shape"], sizes)
                                            if spec else shape)
        results = []
        for o in self.outputs:
            t = values[o["storage"]].reshape(_resolve(o["shape"], sizes))
            want = to_torch(o["dtype"])
            if not want.is_floating_point:
                # The references give some integer results (indices) as
                # f64 values; they are exact integers.
                t = t.to(want)
            results.append(t)
        return results[0] if len(results) == 1 else tuple(results)

    def _bind_sizes(self, args):
        """The plan's size values from `args`, checking every input's rank
        and static extents, and that inputs agree on each size."""
        sizes = [None] * len(self.sizes)
        for i, (t, spec) in enumerate(zip(args, self.inputs)):
            shape = spec["shape"]
            got = list(getattr(t, "shape", ()))
            if len(got) != len(shape):
                raise ShapeError(f"{self.function}: input {i} has shape "
                                 f"{got}, expected rank {len(shape)}")
            for d, (want_d, g) in enumerate(zip(shape, got)):
                if isinstance(want_d, dict):
                    j = want_d["size"]
                    if sizes[j] is None:
                        sizes[j] = g
                    elif sizes[j] != g:
                        raise ShapeError(
                            f"{self.function}: input {i} dim {d} is {g}, "
                            f"but another input gave that size {sizes[j]}")
                elif want_d != g:
                    raise ShapeError(
                        f"{self.function}: input {i} has shape {got}, "
                        f"expected {[s if not isinstance(s, dict) else '?' for s in shape]}")
        return sizes

    def _host_value(self, name, values, sizes):
        """A plan value on the host, in the dtype the plan gives it: the
        reference's f64 results are rounded to their buffer's dtype, as the
        kernel would have stored them."""
        torch = _torch()
        if name in self.views:
            v = self.views[name]
            t = values[v["of"]]
            want = to_torch(v["dtype"])
            return t.to(want).reshape(_resolve(v["shape"], sizes))
        t = values[name]
        spec = next((b for b in self.buffers if b["name"] == name), None)
        if spec is not None:
            t = t.to(to_torch(spec["dtype"]))
        return t.contiguous()

    @staticmethod
    def _dtype_name(t):
        from .dtypes import from_torch
        return from_torch(t.dtype)

    # -- running -----------------------------------------------------------
    def _load(self, dev):
        """The program's state on `dev`, made on first use: its kernels
        loaded and its steps prepared as one native launch sequence over a
        pointer table (the inputs in order, then the plan's buffers in
        order; a view is its storage's slot). Kept per device, so calls on
        several GPUs (or threads on them) never share one."""
        state = self._states.get(dev)
        if state is not None:
            return state
        slots = {}
        for i, spec in enumerate(self.inputs):
            slots[spec.get("name", f"arg{i}")] = i
        for j, b in enumerate(self.buffers):
            slots[b["name"]] = len(self.inputs) + j
        for name, v in self.views.items():
            slots[name] = slots[v["of"]]
        seq = _native._hkg.LaunchSequence(dev.native)
        for st in self.steps:
            kernel = dev.kernel(st.binary, st.entry)
            seq.add(kernel, st.grid if st.grid_x is None else [1, st.grid[1], st.grid[2]],
                    st.block, st.dynamic_lds, [slots[a] for a in st.args],
                    list(st.sizes), st.grid_x, st.name)
        state = self._states.setdefault(dev, seq)
        return state

    def _fast_inputs(self, args):
        """The common case checked cheaply: every input a contiguous GPU
        tensor of the plan's dtype and static shape, all on one device.
        That device's index, or None when anything differs (the full check
        then says what)."""
        if len(args) != len(self._expect):
            return None
        index = None
        for t, (dtype, shape) in zip(args, self._expect):
            try:
                if (t.dtype is not dtype or shape is None or t.shape != shape
                        or not t.is_cuda or not t.is_contiguous()):
                    return None
                d = t.device.index
            except AttributeError:
                return None
            if index is None:
                index = d
            elif d != index:
                return None
        return index

    def _prepare(self, args):
        """(inputs, sizes, device, runtime device, index) for a call."""
        index = self._fast_inputs(args) if self._static else None
        if index is not None:
            dev = self._fast_devices.get(index)
            if dev is not None:
                return args, [], args[0].device, dev, index
        inputs, sizes, device = self._check_inputs(args)
        dev, index = device_for(device)
        if dev.arch and self.target.startswith("sm_") and dev.arch != self.target:
            raise DeviceError(f"{self.function} was compiled for {self.target}, "
                              f"the tensors are on a {dev.arch} GPU")
        self._fast_devices[index] = dev
        return inputs, sizes, device, dev, index

    def _allocate(self, inputs, sizes, device):
        """The pointer table, the tensors by plan name, and what keeps the
        arena alive."""
        torch = _torch()
        table = [t.data_ptr() for t in inputs]
        tensors = {}
        arena = None
        if self.arena_bytes:
            arena = torch.empty(self.arena_bytes, dtype=torch.uint8,
                                device=device)
        for name, offset, shape, dtype in self._buffer_plan:
            if offset is None:
                t = torch.empty(_resolve(shape, sizes), dtype=dtype, device=device)
                tensors[name] = t
                table.append(t.data_ptr())
            else:
                table.append(arena.data_ptr() + offset)
        for i, spec in enumerate(self.inputs):
            tensors[spec.get("name", f"arg{i}")] = inputs[i]
        return table, tensors, arena

    def _outputs(self, tensors, sizes):
        """The plan's outputs among its allocated tensors: a view where an
        output is a reshape of its storage."""
        outputs = []
        for o in self.outputs:
            t = tensors[o["storage"]]
            if o["value"] != o["storage"]:
                t = t.view(_resolve(o["shape"], sizes))
            outputs.append(t)
        return outputs

    def __call__(self, *args):
        inputs, sizes, device, dev, index = self._prepare(args)
        seq = self._load(dev)
        table, tensors, _arena = self._allocate(inputs, sizes, device)
        try:
            seq.run(table, sizes, _stream(index))
        except _native.NativeError as e:
            raise HkgError(str(e)) from None
        results = self._outputs(tensors, sizes)
        return results[0] if len(results) == 1 else tuple(results)
