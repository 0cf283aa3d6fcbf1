//===- CudaDevice.cpp - the CUDA driver API backend, loaded with dlopen ---===//
//
// Declares the few driver types and entry points hkg uses (no cuda.h at
// build time) and resolves them from libcuda.so.1 at run time. Versioned
// entry points (`_v2`) are preferred where the driver exports them.
//
//===----------------------------------------------------------------------===//

#include "DynamicApi.h"
#include "hkg/Runtime/Device.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace hkg::rt;
using namespace hkg::rt::detail;

namespace {

using CUresult = int;
using CUdevice = int;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUevent = void *;
using CUstream = void *;
using CUdeviceptr = unsigned long long;

constexpr CUresult kCudaSuccess = 0;
constexpr int kAttrMultiprocessorCount = 16;
constexpr int kAttrComputeCapabilityMajor = 75;
constexpr int kAttrComputeCapabilityMinor = 76;
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSizeBytes = 6;
// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, and the shared memory a
// kernel gets without raising it.
constexpr int kFuncAttributeMaxDynamicSharedSize = 8;
constexpr unsigned kStaticSharedLimit = 48 * 1024;

struct CudaApi {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuGetErrorName)(CUresult, const char **);

  llvm::Error load(DynamicApi &lib) {
#define RESOLVE(fn, ...)                                                       \
  if (llvm::Error e = lib.resolve(fn, {__VA_ARGS__}))                          \
    return e;
    RESOLVE(cuInit, "cuInit");
    RESOLVE(cuDeviceGetCount, "cuDeviceGetCount");
    RESOLVE(cuDeviceGet, "cuDeviceGet");
    RESOLVE(cuDeviceGetName, "cuDeviceGetName");
    RESOLVE(cuDeviceGetAttribute, "cuDeviceGetAttribute");
    RESOLVE(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    RESOLVE(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2",
            "cuDevicePrimaryCtxRelease");
    RESOLVE(cuCtxSetCurrent, "cuCtxSetCurrent");
    RESOLVE(cuCtxSynchronize, "cuCtxSynchronize");
    RESOLVE(cuModuleLoadDataEx, "cuModuleLoadDataEx");
    RESOLVE(cuModuleUnload, "cuModuleUnload");
    RESOLVE(cuModuleGetFunction, "cuModuleGetFunction");
    RESOLVE(cuFuncSetAttribute, "cuFuncSetAttribute");
    RESOLVE(cuLaunchKernel, "cuLaunchKernel");
    RESOLVE(cuMemAlloc, "cuMemAlloc_v2", "cuMemAlloc");
    RESOLVE(cuMemFree, "cuMemFree_v2", "cuMemFree");
    RESOLVE(cuMemcpyHtoD, "cuMemcpyHtoD_v2", "cuMemcpyHtoD");
    RESOLVE(cuMemcpyDtoH, "cuMemcpyDtoH_v2", "cuMemcpyDtoH");
    RESOLVE(cuMemcpyDtoD, "cuMemcpyDtoD_v2", "cuMemcpyDtoD");
    RESOLVE(cuMemsetD8Async, "cuMemsetD8Async");
    RESOLVE(cuEventCreate, "cuEventCreate");
    RESOLVE(cuEventRecord, "cuEventRecord");
    RESOLVE(cuEventSynchronize, "cuEventSynchronize");
    RESOLVE(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime");
    RESOLVE(cuEventDestroy, "cuEventDestroy_v2", "cuEventDestroy");
    RESOLVE(cuGetErrorString, "cuGetErrorString");
    RESOLVE(cuGetErrorName, "cuGetErrorName");
#undef RESOLVE
    return llvm::Error::success();
  }
};

class CudaDevice final : public Device {
public:
  CudaDevice() : Device(DeviceKind::Cuda) {}
  ~CudaDevice() override {
    if (context)
      consumeError(check(api.cuDevicePrimaryCtxRelease(device),
                         "cuDevicePrimaryCtxRelease"));
  }

  llvm::Error init(int ordinal, bool &libraryMissing) {
    if (llvm::Error e = lib.open(kCudaLibrary, kCudaLibraryEnv)) {
      libraryMissing = true;
      return e;
    }
    if (llvm::Error e = api.load(lib))
      return e;
    if (llvm::Error e = check(api.cuInit(0), "cuInit"))
      return e;
    int count = 0;
    if (llvm::Error e = check(api.cuDeviceGetCount(&count), "cuDeviceGetCount"))
      return e;
    if (ordinal < 0 || ordinal >= count)
      return llvm::createStringError(llvm::formatv(
          "CUDA device {0} requested, {1} device(s) present", ordinal, count));
    if (llvm::Error e = check(api.cuDeviceGet(&device, ordinal), "cuDeviceGet"))
      return e;
    char buf[256] = {0};
    if (llvm::Error e = check(api.cuDeviceGetName(buf, sizeof(buf) - 1, device),
                              "cuDeviceGetName"))
      return e;
    name = buf;
    int major = 0, minor = 0, sms = 0;
    if (llvm::Error e = check(api.cuDeviceGetAttribute(
                                  &major, kAttrComputeCapabilityMajor, device),
                              "cuDeviceGetAttribute"))
      return e;
    if (llvm::Error e = check(api.cuDeviceGetAttribute(
                                  &minor, kAttrComputeCapabilityMinor, device),
                              "cuDeviceGetAttribute"))
      return e;
    if (llvm::Error e = check(
            api.cuDeviceGetAttribute(&sms, kAttrMultiprocessorCount, device),
            "cuDeviceGetAttribute"))
      return e;
    arch = llvm::formatv("sm_{0}{1}", major, minor).str();
    computeUnits = sms;
    if (llvm::Error e = check(api.cuDevicePrimaryCtxRetain(&context, device),
                              "cuDevicePrimaryCtxRetain"))
      return e;
    return check(api.cuCtxSetCurrent(context), "cuCtxSetCurrent");
  }

  llvm::Expected<DevicePtr> allocate(size_t bytes) override {
    CUdeviceptr ptr = 0;
    if (llvm::Error e = check(api.cuMemAlloc(&ptr, bytes), "cuMemAlloc"))
      return std::move(e);
    return static_cast<DevicePtr>(ptr);
  }
  llvm::Error deallocate(DevicePtr ptr) override {
    return check(api.cuMemFree(ptr), "cuMemFree");
  }
  llvm::Error copyToDevice(DevicePtr dst, const void *src,
                           size_t bytes) override {
    return check(api.cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD");
  }
  llvm::Error copyToHost(void *dst, DevicePtr src, size_t bytes) override {
    return check(api.cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
  }

  llvm::Error copyOnDevice(DevicePtr dst, DevicePtr src,
                           size_t bytes) override {
    return check(api.cuMemcpyDtoD(dst, src, bytes), "cuMemcpyDtoD");
  }
  llvm::Error fill(DevicePtr dst, uint8_t value, size_t bytes) override {
    return check(api.cuMemsetD8Async(dst, value, bytes, nullptr),
                 "cuMemsetD8Async");
  }

  llvm::Expected<ModuleHandle> loadModule(llvm::ArrayRef<char> image) override {
    // PTX must be NUL-terminated; a cubin does not mind the extra byte.
    std::string data(image.begin(), image.end());
    char log[8192] = {0};
    int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
    void *values[] = {log, reinterpret_cast<void *>(sizeof(log) - 1)};
    CUmodule module = nullptr;
    CUresult status =
        api.cuModuleLoadDataEx(&module, data.c_str(), 2, options, values);
    if (status != kCudaSuccess) {
      llvm::Error e = check(status, "cuModuleLoadDataEx");
      if (log[0])
        return llvm::createStringError(
            llvm::toString(std::move(e)) +
            "; JIT log: " + llvm::StringRef(log).trim());
      return std::move(e);
    }
    return static_cast<ModuleHandle>(module);
  }
  llvm::Error unloadModule(ModuleHandle module) override {
    // The driver may hand a later module's kernel the same CUfunction.
    sharedLimits.clear();
    return check(api.cuModuleUnload(module), "cuModuleUnload");
  }
  llvm::Expected<KernelHandle> getKernel(ModuleHandle module,
                                         llvm::StringRef kernel) override {
    CUfunction fn = nullptr;
    std::string symbol = kernel.str();
    if (llvm::Error e =
            check(api.cuModuleGetFunction(&fn, module, symbol.c_str()),
                  "cuModuleGetFunction(" + symbol + ")"))
      return std::move(e);
    return static_cast<KernelHandle>(fn);
  }
  llvm::Error launch(KernelHandle kernel, Dim3 grid, Dim3 block,
                     unsigned dynamicSharedBytes,
                     llvm::ArrayRef<DevicePtr> args,
                     llvm::ArrayRef<int64_t> scalars,
                     StreamHandle stream) override {
    // Above 48 KiB a kernel must opt in to its dynamic shared memory
    // (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES); once per kernel
    // and size, outside any timed launch after the first.
    if (dynamicSharedBytes > kStaticSharedLimit) {
      unsigned &raised = sharedLimits[kernel];
      if (raised < dynamicSharedBytes) {
        if (llvm::Error e = check(
                api.cuFuncSetAttribute(kernel,
                                       kFuncAttributeMaxDynamicSharedSize,
                                       static_cast<int>(dynamicSharedBytes)),
                "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES, " +
                    std::to_string(dynamicSharedBytes) + ")"))
          return e;
        raised = dynamicSharedBytes;
      }
    }
    // kernelParams: a pointer to each parameter's value, the pointers then
    // the int64 sizes.
    std::vector<CUdeviceptr> values(args.begin(), args.end());
    std::vector<int64_t> sizes(scalars.begin(), scalars.end());
    std::vector<void *> params;
    for (CUdeviceptr &v : values)
      params.push_back(&v);
    for (int64_t &v : sizes)
      params.push_back(&v);
    return check(api.cuLaunchKernel(kernel, grid[0], grid[1], grid[2], block[0],
                                    block[1], block[2], dynamicSharedBytes,
                                    stream, params.data(), nullptr),
                 "cuLaunchKernel");
  }
  llvm::Error synchronize() override {
    return check(api.cuCtxSynchronize(), "cuCtxSynchronize");
  }
  llvm::Expected<EventHandle> createEvent() override {
    CUevent event = nullptr;
    if (llvm::Error e = check(api.cuEventCreate(&event, 0), "cuEventCreate"))
      return std::move(e);
    return static_cast<EventHandle>(event);
  }
  llvm::Error recordEvent(EventHandle event) override {
    return check(api.cuEventRecord(event, nullptr), "cuEventRecord");
  }
  llvm::Expected<float> elapsedMs(EventHandle start, EventHandle end) override {
    if (llvm::Error e =
            check(api.cuEventSynchronize(end), "cuEventSynchronize"))
      return std::move(e);
    float ms = 0;
    if (llvm::Error e = check(api.cuEventElapsedTime(&ms, start, end),
                              "cuEventElapsedTime"))
      return std::move(e);
    return ms;
  }
  llvm::Error destroyEvent(EventHandle event) override {
    return check(api.cuEventDestroy(event), "cuEventDestroy");
  }

private:
  /// Turns a CUresult into an llvm::Error naming the call and the driver's
  /// error name and string.
  llvm::Error check(CUresult status, const llvm::Twine &call) {
    if (status == kCudaSuccess)
      return llvm::Error::success();
    const char *errName = nullptr, *errString = nullptr;
    if (api.cuGetErrorName)
      api.cuGetErrorName(status, &errName);
    if (api.cuGetErrorString)
      api.cuGetErrorString(status, &errString);
    return llvm::createStringError(llvm::formatv(
        "{0} failed: {1} ({2}): {3}", call.str(), errName ? errName : "?",
        status, errString ? errString : "unknown CUDA error"));
  }

  DynamicApi lib;
  CudaApi api = {};
  CUdevice device = 0;
  CUcontext context = nullptr;
  /// The dynamic shared memory limit raised per kernel.
  llvm::DenseMap<CUfunction, unsigned> sharedLimits;
};

} // namespace

llvm::Expected<std::unique_ptr<Device>>
hkg::rt::detail::openCudaDevice(int ordinal, bool &libraryMissing) {
  auto dev = std::make_unique<CudaDevice>();
  if (llvm::Error e = dev->init(ordinal, libraryMissing))
    return llvm::createStringError("CUDA: " + llvm::toString(std::move(e)));
  return std::unique_ptr<Device>(std::move(dev));
}
