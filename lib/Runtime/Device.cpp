//===- Device.cpp - picking a GPU backend at run time ---------------------===//

#include "hkg/Runtime/Device.h"
#include "DynamicApi.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace hkg::rt;

Device::~Device() = default;

llvm::StringRef hkg::rt::getDeviceKindName(DeviceKind kind) {
  switch (kind) {
  case DeviceKind::Auto:
    return "auto";
  case DeviceKind::Cuda:
    return "cuda";
  case DeviceKind::Hip:
    return "hip";
  }
  return "auto";
}

std::optional<DeviceKind> hkg::rt::parseDeviceKind(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<DeviceKind>>(name)
      .Case("auto", DeviceKind::Auto)
      .Case("cuda", DeviceKind::Cuda)
      .Case("hip", DeviceKind::Hip)
      .Default(std::nullopt);
}

llvm::Expected<std::unique_ptr<Device>> Device::open(DeviceKind kind,
                                                     int ordinal) {
  if (kind == DeviceKind::Cuda) {
    bool missing = false;
    return detail::openCudaDevice(ordinal, missing);
  }
  if (kind == DeviceKind::Hip) {
    bool missing = false;
    return detail::openHipDevice(ordinal, missing);
  }

  bool cudaMissing = false, hipMissing = false;
  llvm::Expected<std::unique_ptr<Device>> cuda =
      detail::openCudaDevice(ordinal, cudaMissing);
  if (cuda)
    return cuda;
  std::string cudaError = llvm::toString(cuda.takeError());
  llvm::Expected<std::unique_ptr<Device>> hip =
      detail::openHipDevice(ordinal, hipMissing);
  if (hip)
    return hip;
  std::string hipError = llvm::toString(hip.takeError());
  if (cudaMissing && hipMissing)
    return llvm::createStringError(
        llvm::formatv("no GPU runtime found: {0} and {1} not loadable",
                      detail::getRuntimeLibraryName(detail::kCudaLibrary,
                                                    detail::kCudaLibraryEnv),
                      detail::getRuntimeLibraryName(detail::kHipLibrary,
                                                    detail::kHipLibraryEnv)));
  // At least one runtime is installed but could not open a device: say why.
  if (!cudaMissing && hipMissing)
    return llvm::createStringError(cudaError);
  if (cudaMissing && !hipMissing)
    return llvm::createStringError(hipError);
  return llvm::createStringError(
      llvm::formatv("no usable GPU: {0}; {1}", cudaError, hipError));
}

llvm::Expected<std::vector<float>> Device::timeLaunches(
    KernelHandle kernel, Dim3 grid, Dim3 block, unsigned dynamicSharedBytes,
    llvm::ArrayRef<DevicePtr> args, unsigned warmup, unsigned reps,
    size_t flushBytes, llvm::ArrayRef<int64_t> scalars) {
  return timeCalls(
      [&] {
        return launch(kernel, grid, block, dynamicSharedBytes, args, scalars);
      },
      warmup, reps, flushBytes);
}

llvm::Expected<std::vector<float>>
Device::timeCopies(DevicePtr dst, DevicePtr src, size_t bytes, unsigned warmup,
                   unsigned reps, size_t flushBytes) {
  return timeCalls([&] { return copyOnDevice(dst, src, bytes); }, warmup, reps,
                   flushBytes);
}

llvm::Expected<std::vector<float>>
Device::timeCalls(llvm::function_ref<llvm::Error()> work, unsigned warmup,
                  unsigned reps, size_t flushBytes) {
  for (unsigned i = 0; i < warmup; ++i)
    if (llvm::Error e = work())
      return std::move(e);
  std::vector<EventHandle> events;
  DevicePtr flush = 0;
  if (flushBytes) {
    llvm::Expected<DevicePtr> buf = allocate(flushBytes);
    if (!buf)
      return buf.takeError();
    flush = *buf;
  }
  auto cleanup = [&]() -> llvm::Error {
    llvm::Error all = llvm::Error::success();
    for (EventHandle e : events)
      all = llvm::joinErrors(std::move(all), destroyEvent(e));
    if (flush)
      all = llvm::joinErrors(std::move(all), deallocate(flush));
    return all;
  };
  std::vector<float> times;
  for (unsigned i = 0; i < 2 * reps; ++i) {
    llvm::Expected<EventHandle> e = createEvent();
    if (!e)
      return llvm::joinErrors(e.takeError(), cleanup());
    events.push_back(*e);
  }
  for (unsigned i = 0; i < reps; ++i) {
    if (flush)
      if (llvm::Error e = fill(flush, static_cast<uint8_t>(i), flushBytes))
        return llvm::joinErrors(std::move(e), cleanup());
    if (llvm::Error e = recordEvent(events[2 * i]))
      return llvm::joinErrors(std::move(e), cleanup());
    if (llvm::Error e = work())
      return llvm::joinErrors(std::move(e), cleanup());
    if (llvm::Error e = recordEvent(events[2 * i + 1]))
      return llvm::joinErrors(std::move(e), cleanup());
  }
  for (unsigned i = 0; i < reps; ++i) {
    llvm::Expected<float> ms = elapsedMs(events[2 * i], events[2 * i + 1]);
    if (!ms)
      return llvm::joinErrors(ms.takeError(), cleanup());
    times.push_back(*ms);
  }
  if (llvm::Error e = cleanup())
    return std::move(e);
  return times;
}

llvm::Expected<double> Device::measureCopyBandwidth(size_t bytes,
                                                    unsigned reps) {
  llvm::Expected<DevicePtr> src = allocate(bytes);
  if (!src)
    return src.takeError();
  llvm::Expected<DevicePtr> dst = allocate(bytes);
  if (!dst)
    return llvm::joinErrors(dst.takeError(), deallocate(*src));
  llvm::Expected<EventHandle> start = createEvent();
  llvm::Expected<EventHandle> end = createEvent();
  std::vector<float> times;
  llvm::Error error = llvm::Error::success();
  if (!start || !end) {
    error = llvm::joinErrors(start.takeError(), end.takeError());
  } else {
    error = copyOnDevice(*dst, *src, bytes); // warm-up
    for (unsigned i = 0; i < reps && !error; ++i) {
      if ((error = recordEvent(*start)))
        break;
      if ((error = copyOnDevice(*dst, *src, bytes)))
        break;
      if ((error = recordEvent(*end)))
        break;
      llvm::Expected<float> ms = elapsedMs(*start, *end);
      if (!ms) {
        error = ms.takeError();
        break;
      }
      times.push_back(*ms);
    }
  }
  if (start)
    error = llvm::joinErrors(std::move(error), destroyEvent(*start));
  if (end)
    error = llvm::joinErrors(std::move(error), destroyEvent(*end));
  error = llvm::joinErrors(std::move(error), deallocate(*src));
  error = llvm::joinErrors(std::move(error), deallocate(*dst));
  if (error)
    return std::move(error);
  if (times.empty())
    return llvm::createStringError("no copy was timed");
  std::sort(times.begin(), times.end());
  double seconds = times[times.size() / 2] * 1e-3;
  return 2.0 * bytes / seconds / 1e9;
}
