//===- _hkg.cpp - the Python binding of hkg's C API -----------------------===//
//
// The native module `hkg._hkg`: a pybind11 face of include/hkg-c/Hkg.h and
// nothing else, so it builds with only that header, Python's and pybind11's
// (torch ships pybind11's): on a machine without LLVM it is compiled there
// against a prebuilt libhkg.so (docs/Python.md). The hkg package's Python
// code builds everything else on it.
//
// Compiling releases the GIL (kernels of one program compile on several
// threads); launching does not (it returns as soon as the launch is queued).
//
//===----------------------------------------------------------------------===//

#include "hkg-c/Hkg.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

/// hkg._hkg.Error: any failure the C API reports.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Throws Error with the C API's message (and frees it) when there is one.
void check(char *message) {
  if (!message)
    return;
  std::string text(message);
  hkgStringFree(message);
  throw Error(text);
}

/// Bytes per element of a manifest dtype (i1 is one byte; docs/ABI.md).
size_t elementSize(const std::string &dtype) {
  if (dtype == "f64" || dtype == "i64")
    return 8;
  if (dtype == "f32" || dtype == "i32")
    return 4;
  if (dtype == "i8" || dtype == "i1")
    return 1;
  return 2;
}

class Device {
public:
  Device(const std::string &kind, int ordinal) {
    check(hkgDeviceOpen(kind.c_str(), ordinal, &device));
  }
  ~Device() { hkgDeviceClose(device); }
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  std::string kind() const { return hkgDeviceGetKind(device); }
  std::string name() const { return hkgDeviceGetName(device); }
  std::string arch() const { return hkgDeviceGetArch(device); }
  unsigned computeUnits() const { return hkgDeviceGetNumComputeUnits(device); }

  uintptr_t loadModule(py::bytes image) {
    std::string data = image;
    void *module = nullptr;
    check(hkgDeviceLoadModule(device, data.data(), data.size(), &module));
    return reinterpret_cast<uintptr_t>(module);
  }
  void unloadModule(uintptr_t module) {
    check(hkgDeviceUnloadModule(device, reinterpret_cast<void *>(module)));
  }
  uintptr_t getKernel(uintptr_t module, const std::string &entry) {
    void *kernel = nullptr;
    check(hkgDeviceGetKernel(device, reinterpret_cast<void *>(module),
                             entry.c_str(), &kernel));
    return reinterpret_cast<uintptr_t>(kernel);
  }
  void launch(uintptr_t kernel, const std::array<uint32_t, 3> &grid,
              const std::array<uint32_t, 3> &block, uint32_t dynamicShared,
              const std::vector<uint64_t> &args,
              const std::vector<int64_t> &scalars, uintptr_t stream) {
    check(hkgDeviceLaunch(device, reinterpret_cast<void *>(kernel), grid.data(),
                          block.data(), dynamicShared, args.data(), args.size(),
                          scalars.data(), scalars.size(),
                          reinterpret_cast<void *>(stream)));
  }

  HkgDevice *get() const { return device; }

private:
  HkgDevice *device = nullptr;
};

/// A launch plan's steps prepared once (kernels, launch dims, which slot of
/// a pointer table each argument is, which size each scalar is), launched
/// by one call per run: a Python program's host time per kernel is then a
/// C++ loop iteration, not a Python one.
class LaunchSequence {
public:
  struct Step {
    void *kernel;
    std::array<uint32_t, 3> grid, block;
    uint32_t dynamicShared;
    std::vector<size_t> argSlots;
    std::vector<size_t> sizeSlots;
    /// With size parameters: grid x = ceil(N * mul / div) * times, N the
    /// product of the step's sizes (no launch when N is 0).
    bool sizedGrid;
    int64_t mul, div, times;
    std::string name;
  };

  explicit LaunchSequence(std::shared_ptr<Device> device)
      : device(std::move(device)) {}

  void add(uintptr_t kernel, const std::array<uint32_t, 3> &grid,
           const std::array<uint32_t, 3> &block, uint32_t dynamicShared,
           std::vector<size_t> argSlots, std::vector<size_t> sizeSlots,
           py::object gridX, const std::string &name) {
    Step step{reinterpret_cast<void *>(kernel),
              grid,
              block,
              dynamicShared,
              std::move(argSlots),
              std::move(sizeSlots),
              !gridX.is_none(),
              1,
              1,
              1,
              name};
    if (step.sizedGrid) {
      auto rule = gridX.cast<std::array<int64_t, 3>>();
      step.mul = rule[0];
      step.div = rule[1];
      step.times = rule[2];
      if (step.mul <= 0 || step.div <= 0 || step.times <= 0)
        throw Error("grid_x of " + name +
                    ": expected positive mul, div, times");
    }
    steps.push_back(std::move(step));
  }

  void run(const std::vector<uint64_t> &table,
           const std::vector<int64_t> &sizes, uintptr_t stream) {
    std::vector<uint64_t> args;
    std::vector<int64_t> scalars;
    for (const Step &step : steps) {
      args.clear();
      scalars.clear();
      for (size_t slot : step.argSlots) {
        if (slot >= table.size())
          throw Error(step.name + ": pointer slot out of range");
        args.push_back(table[slot]);
      }
      for (size_t slot : step.sizeSlots) {
        if (slot >= sizes.size())
          throw Error(step.name + ": size slot out of range");
        scalars.push_back(sizes[slot]);
      }
      std::array<uint32_t, 3> grid = step.grid;
      if (step.sizedGrid) {
        __int128 n = 1;
        for (int64_t v : scalars)
          n *= v;
        if (n == 0)
          continue;
        __int128 x = (n * step.mul + step.div - 1) / step.div * step.times;
        if (x > 2147483647)
          throw Error(step.name + ": grid x exceeds 2^31 - 1 at these sizes");
        grid[0] = static_cast<uint32_t>(x);
      }
      char *error = hkgDeviceLaunch(
          device->get(), step.kernel, grid.data(), step.block.data(),
          step.dynamicShared, args.data(), args.size(), scalars.data(),
          scalars.size(), reinterpret_cast<void *>(stream));
      if (error) {
        std::string text = "launching " + step.name + ": " + error;
        hkgStringFree(error);
        throw Error(text);
      }
    }
  }

private:
  std::shared_ptr<Device> device;
  std::vector<Step> steps;
};

} // namespace

PYBIND11_MODULE(_hkg, m) {
  m.doc() = "hkg's C API (include/hkg-c/Hkg.h); use the hkg package instead";
  py::register_exception<Error>(m, "Error", PyExc_RuntimeError);

  m.def("version", [] { return std::string(hkgGetVersion()); });
  m.def("bundle_version", [] { return std::string(hkgGetBundleVersion()); });
  m.def("capi_version", [] { return hkgGetCAPIVersion(); });

  m.def(
      "compile",
      [](const std::string &source, const std::string &options,
         const std::string &outDir) {
        char *error;
        {
          py::gil_scoped_release release;
          error = hkgCompile(source.data(), source.size(), options.c_str(),
                             outDir.c_str());
        }
        check(error);
      },
      py::arg("source"), py::arg("options"), py::arg("out_dir"),
      "Compiles MLIR text into the bundle directory out_dir (options: JSON).");
  m.def(
      "find_toolkit",
      [](const std::string &chip, const std::string &override) {
        char *json = nullptr;
        check(hkgFindToolkit(chip.c_str(), override.c_str(), &json));
        std::string text(json);
        hkgStringFree(json);
        return text;
      },
      py::arg("chip"), py::arg("override") = "",
      "The toolkit hkgCompile uses for chip, as JSON.");
  m.def(
      "transform",
      [](const std::string &source, const std::string &pipeline) {
        char *result = nullptr;
        char *error;
        {
          py::gil_scoped_release release;
          error = hkgTransform(source.data(), source.size(), pipeline.c_str(),
                               &result);
        }
        check(error);
        std::string text(result);
        hkgStringFree(result);
        return text;
      },
      py::arg("source"), py::arg("pipeline") = "",
      "Parses, verifies and runs a pass pipeline; returns the module's text.");

  m.def(
      "reference_evaluate",
      [](const std::string &source, const py::list &inputs) {
        // Each input: (dtype, shape, bytes); each result likewise.
        std::vector<std::string> dtypes, datas;
        std::vector<std::vector<int64_t>> shapes;
        for (const py::handle &item : inputs) {
          auto t = item.cast<py::tuple>();
          dtypes.push_back(t[0].cast<std::string>());
          shapes.push_back(t[1].cast<std::vector<int64_t>>());
          datas.push_back(t[2].cast<std::string>());
          // The C API reads shape x element size bytes: check them here.
          const std::string &d = dtypes.back();
          size_t elem = elementSize(d);
          size_t n = 1;
          for (int64_t e : shapes.back()) {
            if (e < 0)
              throw Error("input " + std::to_string(dtypes.size() - 1) +
                          ": negative extent");
            n *= static_cast<size_t>(e);
          }
          if (datas.back().size() != n * elem)
            throw Error("input " + std::to_string(dtypes.size() - 1) + ": " +
                        std::to_string(datas.back().size()) +
                        " bytes of data for " + std::to_string(n) +
                        " elements of " + d);
        }
        std::vector<HkgTensorRef> refs;
        for (size_t i = 0; i < dtypes.size(); ++i)
          refs.push_back({dtypes[i].c_str(), shapes[i].size(), shapes[i].data(),
                          datas[i].data()});
        struct Result {
          std::string dtype;
          std::vector<int64_t> shape;
          std::string data;
        };
        std::vector<Result> results;
        auto collect = [](void *user, size_t, const HkgTensorRef *r) {
          auto *out = static_cast<std::vector<Result> *>(user);
          size_t n = 1;
          for (size_t d = 0; d < r->rank; ++d)
            n *= static_cast<size_t>(r->shape[d]);
          std::string dtype(r->dtype);
          size_t elem = elementSize(dtype);
          out->push_back(
              {dtype, std::vector<int64_t>(r->shape, r->shape + r->rank),
               std::string(static_cast<const char *>(r->data), n * elem)});
        };
        char *error;
        {
          py::gil_scoped_release release;
          error =
              hkgReferenceEvaluate(source.data(), source.size(), refs.data(),
                                   refs.size(), collect, &results);
        }
        check(error);
        py::list out;
        for (Result &r : results)
          out.append(py::make_tuple(r.dtype, r.shape, py::bytes(r.data)));
        return out;
      },
      py::arg("source"), py::arg("inputs"),
      "The float64 reference of one kernel source on host tensors.");

  m.def(
      "tune",
      [](const std::string &source, const std::string &options,
         py::object measure, py::object onEvent) {
        struct Hooks {
          py::object measure, onEvent;
          /// The first exception a callback raised (kept to be raised
          /// again, as it was, once hkgTune returns).
          py::object type, value, trace;
          bool failed = false;

          void keep(py::error_already_set &e) {
            if (failed)
              return;
            failed = true;
            type = e.type();
            value = e.value();
            trace = e.trace();
          }
        } hooks{measure, onEvent};
        // The callbacks run on the compiler's thread and take the GIL. After
        // a callback raises (KeyboardInterrupt included), no Python runs
        // again: every later measurement is a fault at once, events are
        // dropped, and the exception is raised when the search has ended.
        auto measureFn = [](void *user, const char *request) -> char * {
          auto *h = static_cast<Hooks *>(user);
          std::string answer = "{\"status\": \"fault\", \"message\": "
                               "\"the measure callback raised\"}";
          if (!h->failed) {
            py::gil_scoped_acquire gil;
            try {
              answer = h->measure(std::string(request)).cast<std::string>();
            } catch (py::error_already_set &e) {
              h->keep(e);
            }
          }
          char *copy = static_cast<char *>(std::malloc(answer.size() + 1));
          std::memcpy(copy, answer.c_str(), answer.size() + 1);
          return copy;
        };
        auto eventFn = [](void *user, const char *event) {
          auto *h = static_cast<Hooks *>(user);
          if (h->failed)
            return;
          py::gil_scoped_acquire gil;
          try {
            h->onEvent(std::string(event));
          } catch (py::error_already_set &e) {
            h->keep(e);
          }
        };
        char *result = nullptr;
        char *error;
        {
          py::gil_scoped_release release;
          error =
              hkgTune(source.data(), source.size(), options.c_str(),
                      measure.is_none() ? nullptr : +measureFn,
                      onEvent.is_none() ? nullptr : +eventFn, &hooks, &result);
        }
        if (hooks.failed) {
          if (error)
            hkgStringFree(error);
          if (result)
            hkgStringFree(result);
          PyErr_Restore(hooks.type.release().ptr(), hooks.value.release().ptr(),
                        hooks.trace.release().ptr());
          throw py::error_already_set();
        }
        check(error);
        std::string text(result);
        hkgStringFree(result);
        return text;
      },
      py::arg("source"), py::arg("options"), py::arg("measure") = py::none(),
      py::arg("on_event") = py::none(),
      "Runs hkg-autotune; returns {module, remarks} as JSON text.");

  py::class_<Device, std::shared_ptr<Device>>(m, "Device")
      .def(py::init<const std::string &, int>(), py::arg("kind") = "auto",
           py::arg("ordinal") = 0)
      .def_property_readonly("kind", &Device::kind)
      .def_property_readonly("name", &Device::name)
      .def_property_readonly("arch", &Device::arch)
      .def_property_readonly("compute_units", &Device::computeUnits)
      .def("load_module", &Device::loadModule)
      .def("unload_module", &Device::unloadModule)
      .def("get_kernel", &Device::getKernel)
      .def("launch", &Device::launch, py::arg("kernel"), py::arg("grid"),
           py::arg("block"), py::arg("dynamic_shared_bytes"), py::arg("args"),
           py::arg("scalars"), py::arg("stream"));

  py::class_<LaunchSequence>(m, "LaunchSequence")
      .def(py::init<std::shared_ptr<Device>>(), py::arg("device"))
      .def("add", &LaunchSequence::add, py::arg("kernel"), py::arg("grid"),
           py::arg("block"), py::arg("dynamic_shared_bytes"),
           py::arg("arg_slots"), py::arg("size_slots"), py::arg("grid_x"),
           py::arg("name"))
      .def("run", &LaunchSequence::run, py::arg("pointers"), py::arg("sizes"),
           py::arg("stream"),
           "Launches every step in order on `stream`: step arguments are "
           "pointers[slot], size scalars sizes[slot].");
}
