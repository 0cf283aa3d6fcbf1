//===- CAPITest.cpp - the C API, through its header only ------------------===//
//
// hkg-capi-tests links libhkg.so and includes nothing but hkg-c/Hkg.h, as
// the Python binding does: compiling, transforming, the references, tuning
// with a measure callback, and the runtime's error without a GPU.
//
//===----------------------------------------------------------------------===//

#include "hkg-c/Hkg.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

const char *kSoftmax = R"(
func.func @f(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = hkg.softmax %x axis(1) : tensor<2x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
})";

/// The error message (freed), or "" for success.
std::string take(char *error) {
  if (!error)
    return "";
  std::string text(error);
  hkgStringFree(error);
  return text;
}

std::string tempDir() {
  char pattern[] = "/tmp/hkg-capi-XXXXXX";
  char *dir = mkdtemp(pattern);
  return dir ? dir : "";
}

TEST(CAPITest, Versions) {
  EXPECT_EQ(hkgGetCAPIVersion(), HKG_CAPI_VERSION);
  EXPECT_STREQ(hkgGetBundleVersion(), "0.1");
  EXPECT_NE(std::strlen(hkgGetVersion()), 0u);
}

TEST(CAPITest, CompileWritesABundle) {
  std::string dir = tempDir();
  ASSERT_FALSE(dir.empty());
  EXPECT_EQ(take(hkgCompile(kSoftmax, std::strlen(kSoftmax),
                            R"({"chip": "gfx942"})", dir.c_str())),
            "");
  std::ifstream manifest(dir + "/manifest.json");
  std::string text((std::istreambuf_iterator<char>(manifest)),
                   std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"hkg_softmax_0\""), std::string::npos);
  EXPECT_NE(text.find("\"format\": \"hsaco\""), std::string::npos);
}

TEST(CAPITest, CompileErrorsAreMessages) {
  std::string dir = tempDir();
  std::string bad = kSoftmax;
  bad.replace(bad.find("axis(1)"), 7, "axis(7)");
  std::string error = take(
      hkgCompile(bad.data(), bad.size(), R"({"chip": "sm_90"})", dir.c_str()));
  EXPECT_NE(error.find("<hkg input>:3:8: error: 'hkg.softmax' op expected "
                       "'axis' in [0, 1], got 7"),
            std::string::npos)
      << error;
  error = take(hkgCompile(kSoftmax, std::strlen(kSoftmax),
                          R"({"chip": "sm_90", "fast": true})", dir.c_str()));
  EXPECT_NE(error.find("unknown key 'fast'"), std::string::npos) << error;
  error = take(hkgCompile(kSoftmax, std::strlen(kSoftmax), "{}", dir.c_str()));
  EXPECT_NE(error.find("no target"), std::string::npos) << error;
}

TEST(CAPITest, TransformRunsAnAnchoredPipeline) {
  char *result = nullptr;
  EXPECT_EQ(take(hkgTransform(
                kSoftmax, std::strlen(kSoftmax),
                "builtin.module(hkg-default-schedule{chip=sm_90})", &result)),
            "");
  ASSERT_NE(result, nullptr);
  EXPECT_NE(std::string(result).find("#hkg.schedule<"), std::string::npos);
  hkgStringFree(result);
  result = nullptr;
  std::string error = take(hkgTransform(kSoftmax, std::strlen(kSoftmax),
                                        "hkg-default-schedule", &result));
  EXPECT_NE(error.find("wrapped with the anchor operation type"),
            std::string::npos)
      << error;
  EXPECT_EQ(result, nullptr);
}

TEST(CAPITest, ReferenceEvaluatesSoftmax) {
  const char *source = R"(
func.func @ref(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = hkg.softmax %x axis(1) : tensor<2x4xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
})";
  float x[8] = {0, 1, 2, 3, -1, -1, -1, -1};
  int64_t shape[2] = {2, 4};
  HkgTensorRef input{"f32", 2, shape, x};
  std::vector<double> out;
  std::string dtype;
  auto collect = [](void *user, size_t index, const HkgTensorRef *r) {
    auto *self =
        static_cast<std::pair<std::vector<double> *, std::string *> *>(user);
    *self->second = r->dtype;
    const double *d = static_cast<const double *>(r->data);
    self->first->assign(d, d + r->shape[0] * r->shape[1]);
  };
  std::pair<std::vector<double> *, std::string *> user{&out, &dtype};
  EXPECT_EQ(take(hkgReferenceEvaluate(source, std::strlen(source), &input, 1,
                                      collect, &user)),
            "");
  ASSERT_EQ(out.size(), 8u);
  EXPECT_EQ(dtype, "f64");
  double sum = std::exp(0.0) + std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  EXPECT_NEAR(out[3], std::exp(3.0) / sum, 1e-12);
  EXPECT_NEAR(out[4], 0.25, 1e-12);
  HkgTensorRef wrong{"f9", 2, shape, x};
  std::string error = take(hkgReferenceEvaluate(source, std::strlen(source),
                                                &wrong, 1, collect, &user));
  EXPECT_NE(error.find("unknown dtype 'f9'"), std::string::npos) << error;
}

TEST(CAPITest, TuneThroughAMeasureCallback) {
  const char *source = R"(
func.func @f(%x: tensor<512x4096xbf16>) -> tensor<512x4096xbf16> {
  %0 = hkg.softmax %x axis(1) : tensor<512x4096xbf16> -> tensor<512x4096xbf16>
  return %0 : tensor<512x4096xbf16>
})";
  struct State {
    int measured = 0;
    int trials = 0;
  } state;
  auto measure = [](void *user, const char *request) -> char * {
    auto *s = static_cast<State *>(user);
    ++s->measured;
    // Faster with more threads: the search must find the most threads.
    std::string r(request);
    size_t at = r.find("\"threads\":");
    double threads =
        at == std::string::npos
            ? 256
            : std::atof(r.c_str() + at + std::strlen("\"threads\":"));
    std::string reply = "{\"status\": \"ok\", \"median_us\": " +
                        std::to_string(10000.0 / threads) + "}";
    char *copy = static_cast<char *>(std::malloc(reply.size() + 1));
    std::memcpy(copy, reply.c_str(), reply.size() + 1);
    return copy;
  };
  auto onEvent = [](void *user, const char *event) {
    if (std::strstr(event, "\"event\":\"trial\""))
      ++static_cast<State *>(user)->trials;
  };
  char *result = nullptr;
  EXPECT_EQ(
      take(hkgTune(source, std::strlen(source),
                   R"({"chip": "sm_90", "budget": 6, "confirm_finalists": 0})",
                   measure, onEvent, &state, &result)),
      "");
  ASSERT_NE(result, nullptr);
  std::string text(result);
  hkgStringFree(result);
  EXPECT_EQ(state.measured, 6);
  EXPECT_EQ(state.trials, 6);
  EXPECT_NE(text.find("measured 6 candidates on callback"), std::string::npos)
      << text;
  EXPECT_NE(text.find("#hkg.schedule<"), std::string::npos) << text;
}

TEST(CAPITest, FindToolkitIsTheCompilers) {
  char *json = nullptr;
  EXPECT_EQ(take(hkgFindToolkit("gfx942", "", &json)), "");
  ASSERT_NE(json, nullptr);
  EXPECT_NE(std::string(json).find("\"kind\":\"rocm\""), std::string::npos)
      << json;
  hkgStringFree(json);
  json = nullptr;
  EXPECT_NE(take(hkgFindToolkit("sm_12", "", &json)).find("unknown chip"),
            std::string::npos);
  EXPECT_EQ(json, nullptr);
}

TEST(CAPITest, DeviceOpenFailsCleanlyWithoutAGPU) {
  HkgDevice *device = nullptr;
  std::string error = take(hkgDeviceOpen("quantum", 0, &device));
  EXPECT_NE(error.find("unknown device kind 'quantum'"), std::string::npos);
  EXPECT_EQ(device, nullptr);
}

} // namespace
