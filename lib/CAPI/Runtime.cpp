//===- Runtime.cpp - hkg's C API: devices, modules, launches --------------===//
//
// A thin C face of hkg::rt::Device: the Python package loads a bundle's
// binaries and launches its kernels on PyTorch's buffers and stream through
// it.
//
//===----------------------------------------------------------------------===//

#include "hkg-c/Hkg.h"

#include "CAPISupport.h"

#include "hkg/Runtime/Device.h"

#include <memory>
#include <string>

struct HkgDevice {
  std::unique_ptr<hkg::rt::Device> device;
  std::string kind;
};

using hkg::capi::toCString;

char *hkgDeviceOpen(const char *kind, int ordinal, HkgDevice **device) {
  *device = nullptr;
  std::optional<hkg::rt::DeviceKind> parsed =
      hkg::rt::parseDeviceKind(kind && *kind ? kind : "auto");
  if (!parsed)
    return toCString("unknown device kind '" + std::string(kind) +
                     "'; expected auto, cuda or hip");
  llvm::Expected<std::unique_ptr<hkg::rt::Device>> opened =
      hkg::rt::Device::open(*parsed, ordinal);
  if (!opened)
    return toCString(opened.takeError());
  auto *result = new HkgDevice;
  result->device = std::move(*opened);
  result->kind = hkg::rt::getDeviceKindName((*result->device).getKind()).str();
  *device = result;
  return nullptr;
}

void hkgDeviceClose(HkgDevice *device) { delete device; }

const char *hkgDeviceGetKind(HkgDevice *device) { return device->kind.c_str(); }
const char *hkgDeviceGetName(HkgDevice *device) {
  return device->device->getName().c_str();
}
const char *hkgDeviceGetArch(HkgDevice *device) {
  return device->device->getArch().c_str();
}
unsigned hkgDeviceGetNumComputeUnits(HkgDevice *device) {
  return device->device->getNumComputeUnits();
}

char *hkgDeviceLoadModule(HkgDevice *device, const void *image, size_t size,
                          void **module) {
  llvm::Expected<hkg::rt::ModuleHandle> loaded = device->device->loadModule(
      llvm::ArrayRef<char>(static_cast<const char *>(image), size));
  if (!loaded)
    return toCString(loaded.takeError());
  *module = *loaded;
  return nullptr;
}

char *hkgDeviceUnloadModule(HkgDevice *device, void *module) {
  return toCString(device->device->unloadModule(module));
}

char *hkgDeviceGetKernel(HkgDevice *device, void *module, const char *entry,
                         void **kernel) {
  llvm::Expected<hkg::rt::KernelHandle> found =
      device->device->getKernel(module, entry);
  if (!found)
    return toCString(found.takeError());
  *kernel = *found;
  return nullptr;
}

char *hkgDeviceLaunch(HkgDevice *device, void *kernel, const uint32_t grid[3],
                      const uint32_t block[3], uint32_t dynamicSharedBytes,
                      const uint64_t *args, size_t numArgs,
                      const int64_t *scalars, size_t numScalars, void *stream) {
  return toCString(device->device->launch(
      kernel, {grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]},
      dynamicSharedBytes, llvm::ArrayRef<uint64_t>(args, numArgs),
      llvm::ArrayRef<int64_t>(scalars, numScalars), stream));
}
