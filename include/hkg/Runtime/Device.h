//===- Device.h - a GPU loaded at run time (CUDA driver or HIP) --*- C++
//-*-===//
//
// hkg::rt::Device is the runtime's view of one GPU: memory, code objects,
// launches and events. Two backends implement it, each loading its vendor
// library with dlopen at run time (no link-time dependency, no vendor
// headers): the CUDA driver API (libcuda.so.1) and HIP (libamdhip64.so). So
// one hkg binary runs on a machine with either, both or neither; with
// neither, Device::open returns a clean error.
//
// Every vendor call's status is checked; a failure becomes an llvm::Error
// naming the call and carrying the vendor's error string.
//
//===----------------------------------------------------------------------===//

#ifndef HKG_RUNTIME_DEVICE_H
#define HKG_RUNTIME_DEVICE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hkg::rt {

enum class DeviceKind { Auto, Cuda, Hip };

/// `auto`, `cuda`, `hip`.
llvm::StringRef getDeviceKindName(DeviceKind kind);
std::optional<DeviceKind> parseDeviceKind(llvm::StringRef name);

/// A device address (CUdeviceptr / hipDeviceptr_t).
using DevicePtr = uint64_t;
/// Opaque backend handles.
using ModuleHandle = void *;
using KernelHandle = void *;
using EventHandle = void *;
/// A CUstream / hipStream_t; nullptr is the default (legacy) stream.
using StreamHandle = void *;

using Dim3 = std::array<unsigned, 3>;

class Device {
public:
  virtual ~Device();

  /// Opens GPU `ordinal` through the backend `kind` selects. `Auto` tries
  /// CUDA, then HIP. The libraries can be overridden with the environment
  /// variables HKG_CUDA_LIBRARY and HKG_HIP_LIBRARY (a path, or a name for
  /// dlopen's search). With no loadable runtime the error reads
  /// "no GPU runtime found: libcuda.so.1 and libamdhip64.so not loadable".
  static llvm::Expected<std::unique_ptr<Device>>
  open(DeviceKind kind = DeviceKind::Auto, int ordinal = 0);

  DeviceKind getKind() const { return kind; }
  /// The product name reported by the driver.
  const std::string &getName() const { return name; }
  /// `sm_90` (CUDA) or the gfx name where the driver reports it, else "".
  const std::string &getArch() const { return arch; }
  /// Streaming multiprocessors / compute units.
  unsigned getNumComputeUnits() const { return computeUnits; }

  virtual llvm::Expected<DevicePtr> allocate(size_t bytes) = 0;
  virtual llvm::Error deallocate(DevicePtr ptr) = 0;
  virtual llvm::Error copyToDevice(DevicePtr dst, const void *src,
                                   size_t bytes) = 0;
  virtual llvm::Error copyToHost(void *dst, DevicePtr src, size_t bytes) = 0;
  /// Copies `bytes` bytes between two device buffers (default stream).
  virtual llvm::Error copyOnDevice(DevicePtr dst, DevicePtr src,
                                   size_t bytes) = 0;
  /// Sets `bytes` bytes at `dst` to `value` (asynchronous, default stream).
  virtual llvm::Error fill(DevicePtr dst, uint8_t value, size_t bytes) = 0;

  /// Loads a code object (hsaco on HIP; PTX or cubin on CUDA). PTX is
  /// JIT-compiled by the driver; its error log is part of a failure.
  virtual llvm::Expected<ModuleHandle>
  loadModule(llvm::ArrayRef<char> image) = 0;
  virtual llvm::Error unloadModule(ModuleHandle module) = 0;
  virtual llvm::Expected<KernelHandle> getKernel(ModuleHandle module,
                                                 llvm::StringRef name) = 0;
  /// Launches `kernel` on `stream` (default: the default stream) with the
  /// hkg kernel ABI's parameters: one bare device pointer per manifest arg,
  /// then one signed 64-bit integer per size parameter (`scalars`, the
  /// kernel's size values; none for a static kernel).
  virtual llvm::Error launch(KernelHandle kernel, Dim3 grid, Dim3 block,
                             unsigned dynamicSharedBytes,
                             llvm::ArrayRef<DevicePtr> args,
                             llvm::ArrayRef<int64_t> scalars = {},
                             StreamHandle stream = nullptr) = 0;
  virtual llvm::Error synchronize() = 0;

  virtual llvm::Expected<EventHandle> createEvent() = 0;
  virtual llvm::Error recordEvent(EventHandle event) = 0;
  /// Milliseconds between two recorded events (waits for `end`).
  virtual llvm::Expected<float> elapsedMs(EventHandle start,
                                          EventHandle end) = 0;
  virtual llvm::Error destroyEvent(EventHandle event) = 0;

  /// Times `launch`: `warmup` untimed launches, then `reps` launches each
  /// bracketed by events; returns the per-launch times in milliseconds.
  /// When `flushBytes` > 0, a buffer that large is overwritten before each
  /// timed launch (outside the events) so the kernel starts with a cold L2,
  /// as triton.testing.do_bench does.
  llvm::Expected<std::vector<float>>
  timeLaunches(KernelHandle kernel, Dim3 grid, Dim3 block,
               unsigned dynamicSharedBytes, llvm::ArrayRef<DevicePtr> args,
               unsigned warmup, unsigned reps, size_t flushBytes = 0,
               llvm::ArrayRef<int64_t> scalars = {});

  /// Times device-to-device copies of `bytes` from `src` to `dst` the way
  /// timeLaunches times a kernel (same warm-up, flush and events): the time
  /// it takes to move a kernel's bytes under the kernel's own timing.
  llvm::Expected<std::vector<float>> timeCopies(DevicePtr dst, DevicePtr src,
                                                size_t bytes, unsigned warmup,
                                                unsigned reps,
                                                size_t flushBytes = 0);

  /// Times `work` (a launch plan's launches, in order) the way timeLaunches
  /// times one kernel: the flush buffer overwritten before each timed call,
  /// outside the events.
  llvm::Expected<std::vector<float>>
  timeSequence(llvm::function_ref<llvm::Error()> work, unsigned warmup,
               unsigned reps, size_t flushBytes = 0) {
    return timeCalls(work, warmup, reps, flushBytes);
  }

  /// The copy ceiling of PERF.md: the median over `reps` device-to-device
  /// copies of `bytes`, counting bytes read + written, in GB/s.
  llvm::Expected<double> measureCopyBandwidth(size_t bytes, unsigned reps);

protected:
  explicit Device(DeviceKind kind) : kind(kind) {}
  /// timeLaunches and timeCopies: `warmup` untimed calls of `work`, then
  /// `reps` calls each bracketed by events, the flush buffer (when
  /// `flushBytes` > 0) overwritten before each outside the events.
  llvm::Expected<std::vector<float>>
  timeCalls(llvm::function_ref<llvm::Error()> work, unsigned warmup,
            unsigned reps, size_t flushBytes);
  DeviceKind kind;
  std::string name;
  std::string arch;
  unsigned computeUnits = 0;
};

namespace detail {
/// Backend constructors (CudaDevice.cpp, HipDevice.cpp). `libraryError` is
/// set (and nullptr returned as an error) when the library itself cannot be
/// loaded, so Device::open can tell "absent" from "present but failing".
llvm::Expected<std::unique_ptr<Device>> openCudaDevice(int ordinal,
                                                       bool &libraryMissing);
llvm::Expected<std::unique_ptr<Device>> openHipDevice(int ordinal,
                                                      bool &libraryMissing);
} // namespace detail

} // namespace hkg::rt

#endif // HKG_RUNTIME_DEVICE_H
