//===- HipDevice.cpp - the HIP backend, loaded with dlopen
//-----------------===//
//
// Declares the few HIP types and entry points hkg uses (no hip_runtime.h at
// build time) and resolves them from libamdhip64.so at run time.
//
//===----------------------------------------------------------------------===//

#include "DynamicApi.h"
#include "hkg/Runtime/Device.h"

#include "llvm/Support/FormatVariadic.h"

using namespace hkg::rt;
using namespace hkg::rt::detail;

namespace {

using hipError_t = int;
using hipModule_t = void *;
using hipFunction_t = void *;
using hipEvent_t = void *;
using hipStream_t = void *;

constexpr hipError_t kHipSuccess = 0;
constexpr int kHipMemcpyHostToDevice = 1;
constexpr int kHipMemcpyDeviceToHost = 2;
constexpr int kHipMemcpyDeviceToDevice = 3;

struct HipApi {
  hipError_t (*hipInit)(unsigned);
  hipError_t (*hipGetDeviceCount)(int *);
  hipError_t (*hipSetDevice)(int);
  hipError_t (*hipDeviceGetName)(char *, int, int);
  hipError_t (*hipModuleLoadData)(hipModule_t *, const void *);
  hipError_t (*hipModuleUnload)(hipModule_t);
  hipError_t (*hipModuleGetFunction)(hipFunction_t *, hipModule_t,
                                     const char *);
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, unsigned,
                                      unsigned, hipStream_t, void **, void **);
  hipError_t (*hipMalloc)(void **, size_t);
  hipError_t (*hipFree)(void *);
  hipError_t (*hipMemcpy)(void *, const void *, size_t, int);
  hipError_t (*hipMemsetAsync)(void *, int, size_t, hipStream_t);
  hipError_t (*hipDeviceSynchronize)();
  hipError_t (*hipEventCreate)(hipEvent_t *);
  hipError_t (*hipEventRecord)(hipEvent_t, hipStream_t);
  hipError_t (*hipEventSynchronize)(hipEvent_t);
  hipError_t (*hipEventElapsedTime)(float *, hipEvent_t, hipEvent_t);
  hipError_t (*hipEventDestroy)(hipEvent_t);
  const char *(*hipGetErrorString)(hipError_t);
  const char *(*hipGetErrorName)(hipError_t);

  llvm::Error load(DynamicApi &lib) {
#define RESOLVE(fn)                                                            \
  if (llvm::Error e = lib.resolve(fn, {#fn}))                                  \
    return e;
    RESOLVE(hipInit);
    RESOLVE(hipGetDeviceCount);
    RESOLVE(hipSetDevice);
    RESOLVE(hipDeviceGetName);
    RESOLVE(hipModuleLoadData);
    RESOLVE(hipModuleUnload);
    RESOLVE(hipModuleGetFunction);
    RESOLVE(hipModuleLaunchKernel);
    RESOLVE(hipMalloc);
    RESOLVE(hipFree);
    RESOLVE(hipMemcpy);
    RESOLVE(hipMemsetAsync);
    RESOLVE(hipDeviceSynchronize);
    RESOLVE(hipEventCreate);
    RESOLVE(hipEventRecord);
    RESOLVE(hipEventSynchronize);
    RESOLVE(hipEventElapsedTime);
    RESOLVE(hipEventDestroy);
    RESOLVE(hipGetErrorString);
    RESOLVE(hipGetErrorName);
#undef RESOLVE
    return llvm::Error::success();
  }
};

class HipDevice final : public Device {
public:
  HipDevice() : Device(DeviceKind::Hip) {}

  llvm::Error init(int ordinal, bool &libraryMissing) {
    if (llvm::Error e = lib.open(kHipLibrary, kHipLibraryEnv)) {
      libraryMissing = true;
      return e;
    }
    if (llvm::Error e = api.load(lib))
      return e;
    if (llvm::Error e = check(api.hipInit(0), "hipInit"))
      return e;
    int count = 0;
    if (llvm::Error e =
            check(api.hipGetDeviceCount(&count), "hipGetDeviceCount"))
      return e;
    if (ordinal < 0 || ordinal >= count)
      return llvm::createStringError(llvm::formatv(
          "HIP device {0} requested, {1} device(s) present", ordinal, count));
    if (llvm::Error e = check(api.hipSetDevice(ordinal), "hipSetDevice"))
      return e;
    char buf[256] = {0};
    if (llvm::Error e =
            check(api.hipDeviceGetName(buf, sizeof(buf) - 1, ordinal),
                  "hipDeviceGetName"))
      return e;
    name = buf;
    return llvm::Error::success();
  }

  llvm::Expected<DevicePtr> allocate(size_t bytes) override {
    void *ptr = nullptr;
    if (llvm::Error e = check(api.hipMalloc(&ptr, bytes), "hipMalloc"))
      return std::move(e);
    return reinterpret_cast<DevicePtr>(ptr);
  }
  llvm::Error deallocate(DevicePtr ptr) override {
    return check(api.hipFree(reinterpret_cast<void *>(ptr)), "hipFree");
  }
  llvm::Error copyToDevice(DevicePtr dst, const void *src,
                           size_t bytes) override {
    return check(api.hipMemcpy(reinterpret_cast<void *>(dst), src, bytes,
                               kHipMemcpyHostToDevice),
                 "hipMemcpy(HostToDevice)");
  }
  llvm::Error copyToHost(void *dst, DevicePtr src, size_t bytes) override {
    return check(api.hipMemcpy(dst, reinterpret_cast<const void *>(src), bytes,
                               kHipMemcpyDeviceToHost),
                 "hipMemcpy(DeviceToHost)");
  }
  llvm::Error copyOnDevice(DevicePtr dst, DevicePtr src,
                           size_t bytes) override {
    return check(api.hipMemcpy(reinterpret_cast<void *>(dst),
                               reinterpret_cast<const void *>(src), bytes,
                               kHipMemcpyDeviceToDevice),
                 "hipMemcpy(DeviceToDevice)");
  }
  llvm::Error fill(DevicePtr dst, uint8_t value, size_t bytes) override {
    return check(api.hipMemsetAsync(reinterpret_cast<void *>(dst), value, bytes,
                                    nullptr),
                 "hipMemsetAsync");
  }
  llvm::Expected<ModuleHandle> loadModule(llvm::ArrayRef<char> image) override {
    hipModule_t module = nullptr;
    if (llvm::Error e = check(api.hipModuleLoadData(&module, image.data()),
                              "hipModuleLoadData"))
      return std::move(e);
    return static_cast<ModuleHandle>(module);
  }
  llvm::Error unloadModule(ModuleHandle module) override {
    return check(api.hipModuleUnload(module), "hipModuleUnload");
  }
  llvm::Expected<KernelHandle> getKernel(ModuleHandle module,
                                         llvm::StringRef kernel) override {
    hipFunction_t fn = nullptr;
    std::string symbol = kernel.str();
    if (llvm::Error e =
            check(api.hipModuleGetFunction(&fn, module, symbol.c_str()),
                  "hipModuleGetFunction(" + symbol + ")"))
      return std::move(e);
    return static_cast<KernelHandle>(fn);
  }
  llvm::Error launch(KernelHandle kernel, Dim3 grid, Dim3 block,
                     unsigned dynamicSharedBytes,
                     llvm::ArrayRef<DevicePtr> args,
                     llvm::ArrayRef<int64_t> scalars,
                     StreamHandle stream) override {
    // kernelParams: a pointer to each parameter's value, the pointers then
    // the int64 sizes.
    std::vector<void *> values;
    for (DevicePtr p : args)
      values.push_back(reinterpret_cast<void *>(p));
    std::vector<int64_t> sizes(scalars.begin(), scalars.end());
    std::vector<void *> params;
    for (void *&v : values)
      params.push_back(&v);
    for (int64_t &v : sizes)
      params.push_back(&v);
    return check(api.hipModuleLaunchKernel(kernel, grid[0], grid[1], grid[2],
                                           block[0], block[1], block[2],
                                           dynamicSharedBytes, stream,
                                           params.data(), nullptr),
                 "hipModuleLaunchKernel");
  }
  llvm::Error synchronize() override {
    return check(api.hipDeviceSynchronize(), "hipDeviceSynchronize");
  }
  llvm::Expected<EventHandle> createEvent() override {
    hipEvent_t event = nullptr;
    if (llvm::Error e = check(api.hipEventCreate(&event), "hipEventCreate"))
      return std::move(e);
    return static_cast<EventHandle>(event);
  }
  llvm::Error recordEvent(EventHandle event) override {
    return check(api.hipEventRecord(event, nullptr), "hipEventRecord");
  }
  llvm::Expected<float> elapsedMs(EventHandle start, EventHandle end) override {
    if (llvm::Error e =
            check(api.hipEventSynchronize(end), "hipEventSynchronize"))
      return std::move(e);
    float ms = 0;
    if (llvm::Error e = check(api.hipEventElapsedTime(&ms, start, end),
                              "hipEventElapsedTime"))
      return std::move(e);
    return ms;
  }
  llvm::Error destroyEvent(EventHandle event) override {
    return check(api.hipEventDestroy(event), "hipEventDestroy");
  }

private:
  llvm::Error check(hipError_t status, const llvm::Twine &call) {
    if (status == kHipSuccess)
      return llvm::Error::success();
    const char *errName =
        api.hipGetErrorName ? api.hipGetErrorName(status) : nullptr;
    const char *errString =
        api.hipGetErrorString ? api.hipGetErrorString(status) : nullptr;
    return llvm::createStringError(llvm::formatv(
        "{0} failed: {1} ({2}): {3}", call.str(), errName ? errName : "?",
        status, errString ? errString : "unknown HIP error"));
  }

  DynamicApi lib;
  HipApi api = {};
};

} // namespace

llvm::Expected<std::unique_ptr<Device>>
hkg::rt::detail::openHipDevice(int ordinal, bool &libraryMissing) {
  auto dev = std::make_unique<HipDevice>();
  if (llvm::Error e = dev->init(ordinal, libraryMissing))
    return llvm::createStringError("HIP: " + llvm::toString(std::move(e)));
  return std::unique_ptr<Device>(std::move(dev));
}
