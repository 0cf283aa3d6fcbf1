//===- DeviceTest.cpp - opening a GPU runtime that may not be there -------===//
//
// These run on machines without a GPU: every path must end in a clean error.
//
//===----------------------------------------------------------------------===//

#include "hkg/Runtime/Device.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace hkg::rt;

namespace {
/// Points the backends at the given libraries for one test.
class ScopedLibraries {
public:
  ScopedLibraries(const char *cuda, const char *hip) {
    save("HKG_CUDA_LIBRARY", cuda);
    save("HKG_HIP_LIBRARY", hip);
  }
  ~ScopedLibraries() {
    for (auto &[name, old] : saved) {
      if (old)
        setenv(name.c_str(), old->c_str(), 1);
      else
        unsetenv(name.c_str());
    }
  }

private:
  void save(const char *name, const char *value) {
    const char *old = getenv(name);
    saved.emplace_back(name,
                       old ? std::optional<std::string>(old) : std::nullopt);
    setenv(name, value, 1);
  }
  std::vector<std::pair<std::string, std::optional<std::string>>> saved;
};
} // namespace

TEST(DeviceTest, DefaultOpenGivesADeviceOrTheNoRuntimeMessage) {
  auto device = Device::open(DeviceKind::Auto);
  if (device) {
    EXPECT_FALSE((*device)->getName().empty());
    return;
  }
  std::string message = llvm::toString(device.takeError());
  // On a machine with neither library (the CI machines), exactly this.
  if (message.find("no GPU runtime found") != std::string::npos)
    EXPECT_EQ(message,
              "no GPU runtime found: libcuda.so.1 and libamdhip64.so not "
              "loadable");
}

TEST(DeviceTest, NoRuntimeIsACleanError) {
  ScopedLibraries libs("/nonexistent/libcuda.so.1",
                       "/nonexistent/libamdhip64.so");
  auto device = Device::open(DeviceKind::Auto);
  ASSERT_FALSE(static_cast<bool>(device));
  EXPECT_EQ(llvm::toString(device.takeError()),
            "no GPU runtime found: /nonexistent/libcuda.so.1 and "
            "/nonexistent/libamdhip64.so not loadable");
}

TEST(DeviceTest, ForcedBackendNamesItsLibrary) {
  ScopedLibraries libs("/nonexistent/libcuda.so.1",
                       "/nonexistent/libamdhip64.so");
  auto cuda = Device::open(DeviceKind::Cuda);
  ASSERT_FALSE(static_cast<bool>(cuda));
  std::string message = llvm::toString(cuda.takeError());
  EXPECT_EQ(message.rfind("CUDA: /nonexistent/libcuda.so.1 not loadable", 0),
            0u)
      << message;
  auto hip = Device::open(DeviceKind::Hip);
  ASSERT_FALSE(static_cast<bool>(hip));
  message = llvm::toString(hip.takeError());
  EXPECT_EQ(message.rfind("HIP: /nonexistent/libamdhip64.so not loadable", 0),
            0u)
      << message;
}

TEST(DeviceTest, LibraryWithoutTheApiIsRejected) {
  // libc loads, but is no GPU runtime.
  ScopedLibraries libs("libc.so.6", "/nonexistent/libamdhip64.so");
  auto device = Device::open(DeviceKind::Auto);
  ASSERT_FALSE(static_cast<bool>(device));
  EXPECT_EQ(llvm::toString(device.takeError()),
            "CUDA: libc.so.6 does not export cuInit: not a usable GPU runtime");
}

TEST(DeviceTest, DeviceKindNames) {
  EXPECT_EQ(parseDeviceKind("cuda"), DeviceKind::Cuda);
  EXPECT_EQ(parseDeviceKind("hip"), DeviceKind::Hip);
  EXPECT_EQ(parseDeviceKind("auto"), DeviceKind::Auto);
  EXPECT_EQ(parseDeviceKind("opencl"), std::nullopt);
  EXPECT_EQ(getDeviceKindName(DeviceKind::Hip), "hip");
}
