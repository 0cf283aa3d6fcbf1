//===- FakeCuda.cpp - a CPU stand-in for libcuda.so.1, for tests ---------===//
//
// Implements the CUDA driver entry points hkg's CUDA backend resolves, on
// the host: "device" memory is malloc'd, a "module" is a text image naming
// host kernels, and a launch calls the host kernel at once. Tests point
// HKG_CUDA_LIBRARY at this library to exercise hkg-run end to end (load,
// poison, launch, check, time, isolate) on machines without a GPU, and
// utils/bench/hkg_cuda.py's launches (test/Runtime/hkg-cuda-sizes.test).
//
// Module image: one line per kernel, `<entry> <behaviour> <rows> <cols>`,
// where the behaviour is one of
//   softmax    a correct softmax over the last dim of a rows x cols f32 input
//   unwritten  the same, but the last element is never written
//   nan        the same, but element 0 is NaN
//   wrong      the same, but every element is 1% too large
//   crash      dereferences a null pointer
//   hang       never returns
//   noop       writes nothing (any op; the output stays poisoned)
//   sized      a correct softmax whose row count is the kernel's one size
//              parameter (the int64 after the two pointers; <rows> unused)
//   slice:O:S  a correct softmax of a slice view: input row r is the <cols>
//              floats at element O + r * S of the input buffer (the whole
//              buffer the slice is taken from, docs/ABI.md "Slice views")
//
// With FAKE_CUDA_LAUNCH_LOG set to a file, every launch appends a line
// `launch <entry> grid <x> <y> <z>` to it, followed by ` sizes <n>` for a
// `sized` kernel, so tests can see the grid and sizes hkg-run launches with.
//
// With FAKE_CUDA_COPY_LOG set to a file, every device-to-device copy appends
// a line `dtod <bytes>` to it, so tests can count the copies hkg-run makes.
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <thread>

namespace {
struct Kernel {
  std::string entry;
  std::string behaviour;
  long rows = 0, cols = 0;
  int dynamicSharedLimit = 48 * 1024;
};
struct Module {
  std::map<std::string, Kernel> kernels;
};

void softmaxRows(const float *x, float *y, long rows, long cols) {
  for (long r = 0; r < rows; ++r) {
    const float *xr = x + r * cols;
    float *yr = y + r * cols;
    float mx = -INFINITY;
    for (long c = 0; c < cols; ++c)
      mx = std::fmax(mx, xr[c]);
    double sum = 0;
    for (long c = 0; c < cols; ++c)
      sum += std::exp(xr[c] - mx);
    for (long c = 0; c < cols; ++c)
      yr[c] = static_cast<float>(std::exp(xr[c] - mx) / sum);
  }
}

int run(const Kernel &k, void **params) {
  if (k.behaviour == "noop")
    return 0;
  const float *x = *reinterpret_cast<float **>(params[0]);
  float *y = *reinterpret_cast<float **>(params[1]);
  if (k.behaviour == "sized") {
    softmaxRows(x, y, *reinterpret_cast<int64_t *>(params[2]), k.cols);
    return 0;
  }
  long offset = 0, stride = 0;
  if (std::sscanf(k.behaviour.c_str(), "slice:%ld:%ld", &offset, &stride) ==
      2) {
    for (long r = 0; r < k.rows; ++r)
      softmaxRows(x + offset + r * stride, y + r * k.cols, 1, k.cols);
    return 0;
  }
  if (k.behaviour == "crash") {
    volatile int *null = nullptr;
    *null = 1;
  }
  if (k.behaviour == "hang")
    while (true)
      std::this_thread::sleep_for(std::chrono::seconds(1));
  if (k.behaviour == "unwritten") {
    float saved = y[k.rows * k.cols - 1];
    softmaxRows(x, y, k.rows, k.cols);
    y[k.rows * k.cols - 1] = saved;
    return 0;
  }
  softmaxRows(x, y, k.rows, k.cols);
  if (k.behaviour == "nan")
    y[0] = NAN;
  if (k.behaviour == "wrong")
    for (long i = 0; i < k.rows * k.cols; ++i)
      y[i] *= 1.01f;
  return 0;
}

using Clock = std::chrono::steady_clock;
} // namespace

extern "C" {
int cuInit(unsigned) { return 0; }
int cuDeviceGetCount(int *n) {
  *n = 1;
  return 0;
}
int cuDeviceGet(int *d, int) {
  *d = 0;
  return 0;
}
int cuDeviceGetName(char *name, int len, int) {
  std::snprintf(name, len, "hkg fake CUDA device (CPU)");
  return 0;
}
int cuDeviceGetAttribute(int *v, int attr, int) {
  *v = attr == 75 ? 9 : attr == 76 ? 0 : attr == 16 ? 1 : 0;
  return 0;
}
int cuDevicePrimaryCtxRetain(void **ctx, int) {
  static int context;
  *ctx = &context;
  return 0;
}
int cuDevicePrimaryCtxRelease_v2(int) { return 0; }
int cuCtxSetCurrent(void *) { return 0; }
int cuCtxSynchronize() { return 0; }
int cuModuleLoadDataEx(void **module, const void *image, unsigned, int *,
                       void **) {
  auto *m = new Module;
  std::istringstream in(static_cast<const char *>(image));
  std::string entry;
  Kernel k;
  while (in >> entry >> k.behaviour >> k.rows >> k.cols) {
    k.entry = entry;
    m->kernels[entry] = k;
  }
  if (m->kernels.empty()) {
    delete m;
    return 218; // CUDA_ERROR_INVALID_PTX
  }
  *module = m;
  return 0;
}
int cuModuleLoadData(void **module, const void *image) {
  return cuModuleLoadDataEx(module, image, 0, nullptr, nullptr);
}
int cuModuleUnload(void *module) {
  delete static_cast<Module *>(module);
  return 0;
}
int cuModuleGetFunction(void **fn, void *module, const char *name) {
  auto &kernels = static_cast<Module *>(module)->kernels;
  auto it = kernels.find(name);
  if (it == kernels.end())
    return 500; // CUDA_ERROR_NOT_FOUND
  *fn = &it->second;
  return 0;
}
// As the driver: a launch with more than 48 KiB of dynamic shared memory
// fails (CUDA_ERROR_INVALID_VALUE) unless the kernel's limit was raised to
// at least that much (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
// at most the H200's 232448 bytes).
int cuFuncSetAttribute(void *fn, int attr, int value) {
  if (attr != 8 || value < 0 || value > 232448)
    return 1;
  static_cast<Kernel *>(fn)->dynamicSharedLimit = value;
  return 0;
}
int cuLaunchKernel(void *fn, unsigned gridX, unsigned gridY, unsigned gridZ,
                   unsigned, unsigned, unsigned, unsigned sharedBytes, void *,
                   void **params, void **) {
  auto &k = *static_cast<Kernel *>(fn);
  if (const char *log = std::getenv("FAKE_CUDA_LAUNCH_LOG"); log && *log)
    if (FILE *f = std::fopen(log, "a")) {
      std::fprintf(f, "launch %s grid %u %u %u", k.entry.c_str(), gridX, gridY,
                   gridZ);
      if (k.behaviour == "sized")
        std::fprintf(
            f, " sizes %lld",
            static_cast<long long>(*reinterpret_cast<int64_t *>(params[2])));
      std::fprintf(f, "\n");
      std::fclose(f);
    }
  if (sharedBytes > 48 * 1024 && sharedBytes > k.dynamicSharedLimit)
    return 1;
  return run(k, params);
}
int cuMemAlloc_v2(unsigned long long *ptr, size_t bytes) {
  *ptr = reinterpret_cast<unsigned long long>(std::malloc(bytes));
  return *ptr ? 0 : 2; // CUDA_ERROR_OUT_OF_MEMORY
}
int cuMemFree_v2(unsigned long long ptr) {
  std::free(reinterpret_cast<void *>(ptr));
  return 0;
}
int cuMemcpyHtoD_v2(unsigned long long dst, const void *src, size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  return 0;
}
int cuMemcpyDtoH_v2(void *dst, unsigned long long src, size_t bytes) {
  std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
  return 0;
}
int cuMemcpyDtoD_v2(unsigned long long dst, unsigned long long src,
                    size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
              bytes);
  if (const char *log = std::getenv("FAKE_CUDA_COPY_LOG"); log && *log)
    if (FILE *f = std::fopen(log, "a")) {
      std::fprintf(f, "dtod %zu\n", bytes);
      std::fclose(f);
    }
  return 0;
}
int cuMemsetD8Async(unsigned long long dst, unsigned char value, size_t bytes,
                    void *) {
  std::memset(reinterpret_cast<void *>(dst), value, bytes);
  return 0;
}
int cuEventCreate(void **event, unsigned) {
  *event = new Clock::time_point();
  return 0;
}
int cuEventRecord(void *event, void *) {
  *static_cast<Clock::time_point *>(event) = Clock::now();
  return 0;
}
int cuEventSynchronize(void *) { return 0; }
int cuEventElapsedTime(float *ms, void *start, void *end) {
  *ms = std::chrono::duration<float, std::milli>(
            *static_cast<Clock::time_point *>(end) -
            *static_cast<Clock::time_point *>(start))
            .count();
  return 0;
}
int cuEventDestroy_v2(void *event) {
  delete static_cast<Clock::time_point *>(event);
  return 0;
}
int cuGetErrorString(int status, const char **s) {
  *s = status == 1     ? "invalid argument"
       : status == 218 ? "a PTX JIT compilation failed"
       : status == 500 ? "named symbol not found"
                       : "fake CUDA error";
  return 0;
}
int cuGetErrorName(int status, const char **s) {
  *s = status == 1     ? "CUDA_ERROR_INVALID_VALUE"
       : status == 218 ? "CUDA_ERROR_INVALID_PTX"
       : status == 500 ? "CUDA_ERROR_NOT_FOUND"
                       : "CUDA_ERROR_UNKNOWN";
  return 0;
}
} // extern "C"
