//===- KernelModelTest.cpp - the registry of runtime models --------------===//
//
// Every hkg kernel op has a runtime model; an op without one is an error
// naming it; and the generic reference, check and runner handle an op with
// several results (a two-result stand-in op with a model of the test's own,
// run end to end on a host-memory device).
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtils.h"

#include "hkg/Runtime/Check.h"
#include "hkg/Runtime/KernelModel.h"
#include "hkg/Runtime/KernelRunner.h"
#include "hkg/Runtime/RandomInputs.h"

#include "hkg/Dialect/Hkg/IR/HkgInterfaces.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <optional>

using namespace hkg::rt;
using namespace hkg::rt::testing;

TEST(KernelModelTest, EveryKernelOpHasAModel) {
  auto context = makeContext();
  context->loadAllAvailableDialects();
  int kernelOps = 0;
  for (mlir::RegisteredOperationName name :
       context->getRegisteredOperations()) {
    if (!name.hasInterface<mlir::hkg::HkgKernelOpInterface>())
      continue;
    ++kernelOps;
    const KernelModel *model = lookupKernelModel(name.getTypeID());
    ASSERT_NE(model, nullptr) << name.getStringRef().str()
                              << " has no runtime model (KernelModels.def)";
    EXPECT_TRUE(model->reference || model->check) << name.getStringRef().str();
  }
  // elementwise, reduce, softmax, layernorm, rmsnorm, rope, top_p_sample,
  // attention, matmul, and any op added since.
  EXPECT_GE(kernelOps, 9);
}

TEST(KernelModelTest, LookupByOpAndHooks) {
  ParsedOp matmul = parseOp(R"(
    func.func @ref(%a: tensor<2x2xbf16>, %b: tensor<2x2xbf16>) -> tensor<2x2xbf16> {
      %c = hkg.matmul %a, %b : tensor<2x2xbf16>, tensor<2x2xbf16> -> tensor<2x2xbf16>
      return %c : tensor<2x2xbf16>
    })");
  ASSERT_TRUE(matmul.op);
  const KernelModel *m = lookupKernelModel(matmul.op);
  ASSERT_NE(m, nullptr);
  EXPECT_TRUE(m->usesMatrixCorePeak);
  EXPECT_FALSE(m->check);
  ParsedOp softmax = parseOp(R"(
    func.func @ref(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
      %y = hkg.softmax %x axis(1) : tensor<2x2xf32> -> tensor<2x2xf32>
      return %y : tensor<2x2xf32>
    })");
  ASSERT_TRUE(softmax.op);
  const KernelModel *s = lookupKernelModel(softmax.op);
  ASSERT_NE(s, nullptr);
  EXPECT_NE(s, m);
  EXPECT_FALSE(s->usesMatrixCorePeak);
  ASSERT_TRUE(static_cast<bool>(s->inputs));
}

namespace {
/// A module parsed with unregistered ops allowed, and its func's first op.
struct StandIn {
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::Operation *op = nullptr;
};
} // namespace

static StandIn parseStandIn(llvm::StringRef source) {
  StandIn s;
  s.context = makeContext();
  s.context->allowUnregisteredDialects();
  s.module = mlir::parseSourceString<mlir::ModuleOp>(source, s.context.get());
  if (!s.module) {
    ADD_FAILURE() << "cannot parse the stand-in module";
    return s;
  }
  s.module->walk(
      [&](mlir::func::FuncOp f) { s.op = &f.getBody().front().front(); });
  return s;
}

TEST(KernelModelTest, AnOpWithoutAModelIsAnErrorNamingIt) {
  StandIn s = parseStandIn(R"(
    func.func @ref(%x: tensor<4xf32>) -> tensor<4xf32> {
      %y = "test.no_model"(%x) : (tensor<4xf32>) -> tensor<4xf32>
      return %y : tensor<4xf32>
    })");
  ASSERT_TRUE(s.op);
  EXPECT_EQ(lookupKernelModel(s.op), nullptr);
  auto model = getKernelModel(s.op);
  ASSERT_FALSE(static_cast<bool>(model));
  EXPECT_EQ(llvm::toString(model.takeError()),
            "no runtime model for 'test.no_model' (an op's model is "
            "registered in lib/Runtime/KernelModels.def)");

  HostTensor x(DType::F32, {4});
  auto ref = evaluateReference(s.op, {x});
  ASSERT_FALSE(static_cast<bool>(ref));
  EXPECT_NE(llvm::toString(ref.takeError()).find("'test.no_model'"),
            std::string::npos);
  auto inputs = makeRandomInputs(s.op, 1);
  ASSERT_FALSE(static_cast<bool>(inputs));
  EXPECT_NE(llvm::toString(inputs.takeError()).find("'test.no_model'"),
            std::string::npos);
  auto check = checkKernelOutputs(s.op, {x}, {x}, nullptr);
  ASSERT_FALSE(static_cast<bool>(check));
  EXPECT_NE(llvm::toString(check.takeError()).find("'test.no_model'"),
            std::string::npos);

  // A registered op that is not a kernel op has no model either.
  mlir::Operation *ret = s.op->getNextNode();
  ASSERT_TRUE(ret && mlir::isa<mlir::func::ReturnOp>(ret));
  EXPECT_EQ(lookupKernelModel(ret), nullptr);
}

//===----------------------------------------------------------------------===//
// Two results: the shape of hkg.topk (values f32 [.., k], indices i64)
//===----------------------------------------------------------------------===//

static const char *twoResultModule = R"(
  func.func @ref(%x: tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xi64>) {
    %v, %i = "test.top2"(%x) : (tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
    return %v, %i : tensor<2x2xf32>, tensor<2x2xi64>
  })";

/// The two largest of each row of `x` ([rows, 4]), largest first, and their
/// positions.
static void top2(const HostTensor &x, HostTensor &values, HostTensor &indices) {
  int64_t rows = x.getShape()[0], n = x.getShape()[1];
  for (int64_t r = 0; r < rows; ++r) {
    int64_t first = -1, second = -1;
    for (int64_t j = 0; j < n; ++j) {
      double v = x.get(r * n + j);
      if (first < 0 || v > x.get(r * n + first)) {
        second = first;
        first = j;
      } else if (second < 0 || v > x.get(r * n + second)) {
        second = j;
      }
    }
    values.set(r * 2, x.get(r * n + first));
    values.set(r * 2 + 1, x.get(r * n + second));
    indices.set(r * 2, first);
    indices.set(r * 2 + 1, second);
  }
}

/// A model of "test.top2": a two-output reference (f64 values, i64 indices)
/// and inputs in [0, 1).
static KernelModel makeTop2Model() {
  KernelModel model;
  model.reference = [](mlir::Operation *, llvm::ArrayRef<HostTensor> inputs,
                       const ReferenceOptions &) {
    ReferenceResult result;
    result.outputs.resize(2);
    result.outputs[0].tensor = HostTensor(DType::F64, {2, 2});
    result.outputs[1].tensor = HostTensor(DType::I64, {2, 2});
    top2(inputs[0], result.outputs[0].tensor, result.outputs[1].tensor);
    return llvm::Expected<ReferenceResult>(std::move(result));
  };
  model.inputs = [](mlir::Operation *,
                    llvm::MutableArrayRef<InputRange> ranges) {
    ranges[0] = InputRange::uniform(0.0, 1.0);
    return llvm::Error::success();
  };
  return model;
}

/// The device's outputs for `x`: a correct top-2.
static llvm::SmallVector<HostTensor> deviceTop2(const HostTensor &x) {
  llvm::SmallVector<HostTensor> out;
  out.emplace_back(DType::F32, llvm::ArrayRef<int64_t>{2, 2});
  out.emplace_back(DType::I64, llvm::ArrayRef<int64_t>{2, 2});
  top2(x, out[0], out[1]);
  return out;
}

TEST(KernelModelTest, TwoOutputReference) {
  StandIn s = parseStandIn(twoResultModule);
  ASSERT_TRUE(s.op);
  KernelModel model = makeTop2Model();
  HostTensor x = makeTensor(DType::F32, {2, 4}, {1, 5, 3, 2, 9, 0, 8, 7});
  auto ref = evaluateReference(model, s.op, {x});
  ASSERT_TRUE(static_cast<bool>(ref)) << llvm::toString(ref.takeError());
  ASSERT_EQ(ref->outputs.size(), 2u);
  EXPECT_EQ(ref->outputs[0].tensor.getTypeString(), "f64[2x2]");
  EXPECT_EQ(ref->outputs[1].tensor.getTypeString(), "i64[2x2]");
  EXPECT_EQ(ref->outputs[0].tensor.get(2), 9);
  EXPECT_EQ(ref->outputs[1].tensor.get(3), 2);

  // A reference that forgets a result is refused.
  KernelModel oneOutput = model;
  oneOutput.reference = [](mlir::Operation *, llvm::ArrayRef<HostTensor>,
                           const ReferenceOptions &) {
    ReferenceResult result;
    result.outputs.emplace_back();
    result.outputs[0].tensor = HostTensor(DType::F64, {2, 2});
    return llvm::Expected<ReferenceResult>(std::move(result));
  };
  auto bad = evaluateReference(oneOutput, s.op, {x});
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "the reference of 'test.top2' gave 1 output(s) for 2 result(s)");
}

TEST(KernelModelTest, EveryOutputIsCompared) {
  StandIn s = parseStandIn(twoResultModule);
  ASSERT_TRUE(s.op);
  KernelModel model = makeTop2Model();
  HostTensor x = makeTensor(DType::F32, {2, 4}, {1, 5, 3, 2, 9, 0, 8, 7});
  auto ref = evaluateReference(model, s.op, {x});
  ASSERT_TRUE(static_cast<bool>(ref));
  llvm::SmallVector<HostTensor> out = deviceTop2(x);

  auto good = checkKernelOutputs(model, s.op, {x}, out, &*ref);
  ASSERT_TRUE(static_cast<bool>(good));
  EXPECT_TRUE(good->passed) << good->message;
  EXPECT_EQ(good->checked, 8);
  ASSERT_EQ(good->outputs.size(), 2u);
  EXPECT_EQ(good->outputs[1].checked, 4);

  // A wrong index fails (i64 outputs are exact), and the message names the
  // output; an unwritten (poisoned) i64 element is caught.
  out[1].set(1, 3);
  poison(out[0]);
  auto bad = checkKernelOutputs(model, s.op, {x}, out, &*ref);
  ASSERT_TRUE(static_cast<bool>(bad));
  EXPECT_FALSE(bad->passed);
  EXPECT_EQ(bad->unwritten, 4);
  EXPECT_EQ(bad->mismatched, 1);
  EXPECT_FALSE(bad->outputs[0].passed);
  EXPECT_FALSE(bad->outputs[1].passed);
  EXPECT_EQ(bad->message.find("output #0: 4 element(s) never written"), 0u)
      << bad->message;
  EXPECT_NE(bad->message.find("; output #1: "), std::string::npos)
      << bad->message;
  EXPECT_NE(bad->message.find("(first at [0, 1]: got 3."), std::string::npos)
      << bad->message;

  // The JSON record keeps the single-output fields and adds one record per
  // output.
  llvm::json::Object record = makeCheckRecord(*bad);
  EXPECT_EQ(record.getInteger("unwritten"), 4);
  const llvm::json::Array *outputs = record.getArray("outputs");
  ASSERT_NE(outputs, nullptr);
  ASSERT_EQ(outputs->size(), 2u);
  EXPECT_EQ((*outputs)[1].getAsObject()->getString("status"), "fail");
  EXPECT_EQ((*outputs)[1].getAsObject()->getInteger("mismatched"), 1);
  // A single output's record has no "outputs".
  CheckResult single =
      compareTensors(out[1], ref->outputs[1], getDefaultTolerance(DType::I64));
  EXPECT_EQ(makeCheckRecord(single).getArray("outputs"), nullptr);
}

TEST(KernelModelTest, CustomCheckSeesEveryOutput) {
  StandIn s = parseStandIn(twoResultModule);
  ASSERT_TRUE(s.op);
  // Ties make indices ambiguous: this check accepts any index that points
  // at its value, and compares the values with the reference.
  KernelModel model = makeTop2Model();
  model.check = [](const CheckContext &c) {
    CheckResult values =
        compareTensors(c.outputs[0], c.reference->outputs[0], c.tolerances[0]);
    CheckResult indices;
    const HostTensor &x = c.inputs[0];
    for (int64_t i = 0; i < 4; ++i) {
      ++indices.checked;
      int64_t idx = static_cast<int64_t>(c.outputs[1].get(i));
      if (idx < 0 || idx >= 4 ||
          x.get((i / 2) * 4 + idx) != c.outputs[0].get(i)) {
        ++indices.mismatched;
        indices.message = "index does not point at its value";
      }
    }
    indices.passed = indices.mismatched == 0;
    return combineOutputChecks({values, indices});
  };
  HostTensor x = makeTensor(DType::F32, {2, 4}, {4, 1, 4, 0, 2, 2, 2, 9});
  auto ref = evaluateReference(model, s.op, {x});
  ASSERT_TRUE(static_cast<bool>(ref));
  llvm::SmallVector<HostTensor> out = deviceTop2(x);
  // The other tie: row 0's 4s swapped, row 1's second 2 picked.
  out[1].set(0, 2);
  out[1].set(1, 0);
  out[1].set(3, 1);
  auto tie = checkKernelOutputs(model, s.op, {x}, out, &*ref);
  ASSERT_TRUE(static_cast<bool>(tie));
  EXPECT_TRUE(tie->passed) << tie->message;
  EXPECT_EQ(tie->checked, 8);
  out[1].set(3, 3);
  auto wrong = checkKernelOutputs(model, s.op, {x}, out, &*ref);
  ASSERT_TRUE(static_cast<bool>(wrong));
  EXPECT_FALSE(wrong->passed);
  EXPECT_EQ(wrong->message, "output #1: index does not point at its value");
  // Without the reference it needs, the check is an error.
  EXPECT_FALSE(
      static_cast<bool>(checkKernelOutputs(model, s.op, {x}, out, nullptr)));
}

//===----------------------------------------------------------------------===//
// runKernelOp end to end on a host-memory device
//===----------------------------------------------------------------------===//

namespace {
/// A Device whose memory is host memory and whose one kernel is a host
/// function over the argument buffers and the size values.
class HostDevice final : public Device {
public:
  using Kernel = std::function<void(llvm::ArrayRef<uint8_t *> args,
                                    llvm::ArrayRef<int64_t> scalars)>;
  explicit HostDevice(Kernel kernel)
      : Device(DeviceKind::Cuda), kernel(std::move(kernel)) {
    name = "host";
    arch = "sm_90";
  }

  llvm::Expected<DevicePtr> allocate(size_t bytes) override {
    DevicePtr p = next;
    next += (bytes + 255) & ~size_t(255);
    buffers[p].assign(bytes, 0xcd);
    return p;
  }
  llvm::Error deallocate(DevicePtr ptr) override {
    buffers.erase(ptr);
    ++freed;
    return llvm::Error::success();
  }
  llvm::Error copyToDevice(DevicePtr dst, const void *src,
                           size_t bytes) override {
    std::memcpy(buffers.at(dst).data(), src, bytes);
    return llvm::Error::success();
  }
  llvm::Error copyToHost(void *dst, DevicePtr src, size_t bytes) override {
    std::memcpy(dst, buffers.at(src).data(), bytes);
    ++copiesToHost;
    return llvm::Error::success();
  }
  llvm::Error copyOnDevice(DevicePtr, DevicePtr, size_t) override {
    return unsupported();
  }
  llvm::Error fill(DevicePtr, uint8_t, size_t) override {
    return unsupported();
  }
  llvm::Expected<ModuleHandle> loadModule(llvm::ArrayRef<char>) override {
    return reinterpret_cast<ModuleHandle>(1);
  }
  llvm::Error unloadModule(ModuleHandle) override {
    return llvm::Error::success();
  }
  llvm::Expected<KernelHandle> getKernel(ModuleHandle,
                                         llvm::StringRef) override {
    return reinterpret_cast<KernelHandle>(1);
  }
  llvm::Error launch(KernelHandle, Dim3 grid, Dim3, unsigned,
                     llvm::ArrayRef<DevicePtr> args,
                     llvm::ArrayRef<int64_t> scalars, StreamHandle) override {
    ++launches;
    lastGrid = grid;
    llvm::SmallVector<uint8_t *> ptrs;
    for (DevicePtr p : args)
      ptrs.push_back(buffers.at(p).data());
    kernel(ptrs, scalars);
    return llvm::Error::success();
  }
  llvm::Error synchronize() override { return llvm::Error::success(); }
  /// Events only where launchMs is set: every launch then "takes" it.
  llvm::Expected<EventHandle> createEvent() override {
    if (!launchMs)
      return unsupported();
    return reinterpret_cast<EventHandle>(++events);
  }
  llvm::Error recordEvent(EventHandle) override {
    return launchMs ? llvm::Error::success() : unsupported();
  }
  llvm::Expected<float> elapsedMs(EventHandle, EventHandle) override {
    if (!launchMs)
      return unsupported();
    return *launchMs;
  }
  llvm::Error destroyEvent(EventHandle) override {
    return launchMs ? llvm::Error::success() : unsupported();
  }

  std::optional<float> launchMs;
  intptr_t events = 0;
  int freed = 0;
  int copiesToHost = 0;
  int launches = 0;
  Dim3 lastGrid = {0, 0, 0};

private:
  static llvm::Error unsupported() {
    return llvm::createStringError("not supported by the host device");
  }
  Kernel kernel;
  std::map<DevicePtr, std::vector<uint8_t>> buffers;
  DevicePtr next = 0x1000;
};

/// A bundle directory holding one (empty) binary, removed afterwards.
struct TempBundle {
  TempBundle() {
    llvm::SmallString<128> dir;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("hkg-model-test", dir));
    bundle.directory = std::string(dir);
    bundle.target = "sm_90";
    llvm::SmallString<128> path(dir);
    llvm::sys::path::append(path, "k.ptx");
    std::error_code ec;
    llvm::raw_fd_ostream(path, ec) << "";
    EXPECT_FALSE(ec);
    binary = std::string(path);
  }
  ~TempBundle() {
    llvm::sys::fs::remove(binary);
    llvm::sys::fs::remove(bundle.directory);
  }
  Bundle bundle;
  std::string binary;
};
} // namespace

/// The spec of "test.top2": one input, then two outputs.
static KernelSpec makeTop2Spec() {
  KernelSpec spec;
  spec.name = spec.entry = "k";
  spec.binary = "k.ptx";
  spec.args.push_back({false, DType::F32, {2, 4}, {}});
  spec.args.push_back({true, DType::F32, {2, 2}, {}});
  spec.args.push_back({true, DType::I64, {2, 2}, {}});
  return spec;
}

TEST(KernelModelTest, RunnerPoisonsAndCopiesBackEveryOutput) {
  StandIn s = parseStandIn(twoResultModule);
  ASSERT_TRUE(s.op);
  TempBundle temp;
  KernelSpec spec = makeTop2Spec();
  RunOptions options;
  options.reps = 0;

  // The kernel sees every output poisoned, and writes both.
  bool sawPoison = true;
  HostDevice device([&](llvm::ArrayRef<uint8_t *> args,
                        llvm::ArrayRef<int64_t>) {
    ASSERT_EQ(args.size(), 3u);
    HostTensor x(DType::F32, {2, 4}), v(DType::F32, {2, 2}),
        i(DType::I64, {2, 2});
    std::memcpy(x.data(), args[0], x.getNumBytes());
    std::memcpy(v.data(), args[1], v.getNumBytes());
    std::memcpy(i.data(), args[2], i.getNumBytes());
    sawPoison &= v.getBits(3) == getPoisonBits(DType::F32) &&
                 i.getBits(3) == getPoisonBits(DType::I64);
    top2(x, v, i);
    std::memcpy(args[1], v.data(), v.getNumBytes());
    std::memcpy(args[2], i.data(), i.getNumBytes());
  });
  auto outcome =
      runKernelOp(temp.bundle, spec, s.op, makeTop2Model(), device, options);
  ASSERT_TRUE(static_cast<bool>(outcome))
      << llvm::toString(outcome.takeError());
  EXPECT_TRUE(sawPoison);
  EXPECT_EQ(outcome->getString("status"), "pass")
      << outcome->getString("message").value_or("").str();
  EXPECT_EQ(device.copiesToHost, 2);
  EXPECT_EQ(device.freed, 3);
  const llvm::json::Object *check = outcome->getObject("check");
  ASSERT_NE(check, nullptr);
  EXPECT_EQ(check->getInteger("checked"), 8);
  ASSERT_NE(check->getArray("outputs"), nullptr);
  EXPECT_EQ(check->getArray("outputs")->size(), 2u);

  // A kernel that leaves the second output unwritten fails, saying which.
  HostDevice lazy([&](llvm::ArrayRef<uint8_t *> args, llvm::ArrayRef<int64_t>) {
    HostTensor x(DType::F32, {2, 4}), v(DType::F32, {2, 2}),
        i(DType::I64, {2, 2});
    std::memcpy(x.data(), args[0], x.getNumBytes());
    top2(x, v, i);
    std::memcpy(args[1], v.data(), v.getNumBytes());
  });
  outcome =
      runKernelOp(temp.bundle, spec, s.op, makeTop2Model(), lazy, options);
  ASSERT_TRUE(static_cast<bool>(outcome))
      << llvm::toString(outcome.takeError());
  EXPECT_EQ(outcome->getString("status"), "fail");
  EXPECT_EQ(outcome->getString("message"),
            "output #1: 4 element(s) never written (first at [0, 0])");

  // The manifest must list both outputs.
  spec.args.pop_back();
  outcome =
      runKernelOp(temp.bundle, spec, s.op, makeTop2Model(), device, options);
  ASSERT_FALSE(static_cast<bool>(outcome));
  EXPECT_NE(llvm::toString(outcome.takeError())
                .find("1 output(s)) do not match 'test.top2' (1 operand(s), "
                      "2 result(s))"),
            std::string::npos);
}

TEST(KernelModelTest, TimeBudgetCapsTheLaunchesOfASlowKernel) {
  StandIn s = parseStandIn(twoResultModule);
  ASSERT_TRUE(s.op);
  TempBundle temp;
  KernelSpec spec = makeTop2Spec();
  auto timedLaunches = [&](float launchMs, double budgetS) -> int64_t {
    HostDevice device(
        [&](llvm::ArrayRef<uint8_t *> args, llvm::ArrayRef<int64_t>) {
          HostTensor x(DType::F32, {2, 4}), v(DType::F32, {2, 2}),
              i(DType::I64, {2, 2});
          std::memcpy(x.data(), args[0], x.getNumBytes());
          top2(x, v, i);
          std::memcpy(args[1], v.data(), v.getNumBytes());
          std::memcpy(args[2], i.data(), i.getNumBytes());
        });
    device.launchMs = launchMs;
    RunOptions options;
    options.warmup = 10;
    options.reps = 50;
    options.flushBytes = 0;
    options.timeBudgetS = budgetS;
    auto outcome =
        runKernelOp(temp.bundle, spec, s.op, makeTop2Model(), device, options);
    EXPECT_TRUE(static_cast<bool>(outcome))
        << llvm::toString(outcome.takeError());
    if (!outcome)
      return -1;
    EXPECT_EQ(outcome->getString("status"), "pass");
    const llvm::json::Object *timing = outcome->getObject("timing");
    EXPECT_NE(timing, nullptr);
    return timing ? timing->getInteger("reps").value_or(-1) : -1;
  };
  // 60 ms launches in a 250 ms budget: 4 fit, the floor of 5 is timed.
  EXPECT_EQ(timedLaunches(60.0f, 0.25), int64_t(RunOptions::kMinBudgetReps));
  // 20 ms: 12 fit.
  EXPECT_EQ(timedLaunches(20.0f, 0.25), 12);
  // 0.1 ms: all 60 fit; without a budget every kernel gets all 50.
  EXPECT_EQ(timedLaunches(0.1f, 0.25), 50);
  EXPECT_EQ(timedLaunches(60.0f, 0), 50);
}

TEST(KernelModelTest, RunnerPassesTheSizesOfADynamicKernel) {
  // hkg.softmax over rows of 16, the row count its one size parameter: the
  // kernel reads it from the int64 after the pointers; grid x = ceil(N / 4).
  KernelSpec spec;
  spec.name = spec.entry = "k";
  spec.op = "hkg.softmax";
  spec.binary = "k.ptx";
  spec.grid = {0, 1, 1};
  spec.gridX = {1, 4, 1};
  spec.sizes = {{1, 0}};
  spec.args.push_back({false, DType::F32, {kDynamicDim, 16}, {{0, 0}}});
  spec.args.push_back({true, DType::F32, {kDynamicDim, 16}, {{0, 0}}});
  spec.source = R"(
    func.func @ref(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
      %y = hkg.softmax %x axis(1) : tensor<?x16xf32> -> tensor<?x16xf32>
      return %y : tensor<?x16xf32>
    })";
  TempBundle temp;
  RunOptions options;
  options.reps = 0;
  llvm::SmallVector<int64_t> seen;
  HostDevice device([&](llvm::ArrayRef<uint8_t *> args,
                        llvm::ArrayRef<int64_t> scalars) {
    seen.assign(scalars.begin(), scalars.end());
    auto *x = reinterpret_cast<const float *>(args[0]);
    auto *y = reinterpret_cast<float *>(args[1]);
    for (int64_t r = 0; r < (scalars.empty() ? 0 : scalars[0]); ++r) {
      double mx = -INFINITY, sum = 0;
      for (int c = 0; c < 16; ++c)
        mx = std::max<double>(mx, x[r * 16 + c]);
      for (int c = 0; c < 16; ++c)
        sum += std::exp(x[r * 16 + c] - mx);
      for (int c = 0; c < 16; ++c)
        y[r * 16 + c] = static_cast<float>(std::exp(x[r * 16 + c] - mx) / sum);
    }
  });

  // Without values for its sizes the kernel is refused.
  auto refused = runKernel(temp.bundle, spec, device, options);
  ASSERT_FALSE(static_cast<bool>(refused));
  EXPECT_EQ(llvm::toString(refused.takeError()),
            "kernel 'k' has dynamic sizes: give them values first "
            "(KernelSpec::specialize; hkg-run --sizes)");
  EXPECT_EQ(device.launches, 0);

  auto five = spec.specialize({5});
  ASSERT_TRUE(static_cast<bool>(five)) << llvm::toString(five.takeError());
  auto outcome = runKernel(temp.bundle, *five, device, options);
  ASSERT_TRUE(static_cast<bool>(outcome))
      << llvm::toString(outcome.takeError());
  EXPECT_EQ(outcome->getString("status"), "pass")
      << outcome->getString("message").value_or("").str();
  EXPECT_EQ(device.launches, 1);
  EXPECT_EQ(device.lastGrid, (Dim3{2, 1, 1}));
  EXPECT_EQ(seen, (llvm::SmallVector<int64_t>{5}));
  EXPECT_EQ(outcome->getObject("check")->getInteger("checked"), 5 * 16);

  // Empty tensors: nothing to check, no launch.
  auto none = spec.specialize({0});
  ASSERT_TRUE(static_cast<bool>(none)) << llvm::toString(none.takeError());
  outcome = runKernel(temp.bundle, *none, device, options);
  ASSERT_TRUE(static_cast<bool>(outcome))
      << llvm::toString(outcome.takeError());
  EXPECT_EQ(outcome->getString("status"), "pass");
  EXPECT_EQ(outcome->getString("message"),
            "empty tensors: nothing to compute, no launch");
  EXPECT_EQ(outcome->getObject("check")->getInteger("checked"), 0);
  EXPECT_EQ(device.launches, 1);
}

TEST(KernelModelTest, I64ElementTypeAndPoison) {
  auto context = makeContext();
  EXPECT_EQ(getDTypeFor(mlir::IntegerType::get(context.get(), 64)), DType::I64);
  HostTensor t(DType::I64, {2});
  poison(t);
  EXPECT_EQ(t.getBits(1), 0x7fbadbad7fbadbadull);
  Tolerance tol = getDefaultTolerance(DType::I64);
  EXPECT_EQ(tol.normRel, 0);
  EXPECT_EQ(tol.elemRel, 0);
  EXPECT_EQ(tol.elemAbs, 0);
}

TEST(KernelModelTest, Fp8MatmulOutputsAreJudgedByTheTensorCoreSums) {
  // fp8 operands on sm_90's wgmma keep their sums in about 13 bits: an f32
  // result gets bf16's tolerance. FMA (mma = none) sums in f32, a bf16 or
  // f16 result keeps its own row, and so do i8 and bf16 operands.
  auto standIn = [](llvm::StringRef in, llvm::StringRef out,
                    llvm::StringRef mma) {
    return parseStandIn(llvm::formatv(R"mlir(
      func.func @f(%a: tensor<128x128x{0}>, %b: tensor<128x128x{0}>) -> tensor<128x128x{1}> {{
        %y = hkg.matmul %a, %b {{transpose_b, schedule = #hkg.schedule<mma = {2}>}
            : tensor<128x128x{0}>, tensor<128x128x{0}> -> tensor<128x128x{1}>
        return %y : tensor<128x128x{1}>
      }
    )mlir",
                                      in, out, mma)
                            .str());
  };
  struct Case {
    const char *in, *out, *mma;
    DType outType, want;
  };
  for (Case c :
       {Case{"f8E4M3FN", "f32", "wgmma_64x128x32", DType::F32, DType::BF16},
        Case{"f8E5M2", "f32", "wgmma_64x128x32", DType::F32, DType::BF16},
        Case{"f8E4M3FN", "f32", "none", DType::F32, DType::F32},
        Case{"f8E4M3FN", "f16", "wgmma_64x128x32", DType::F16, DType::F16},
        Case{"i8", "f32", "wgmma_64x128x32", DType::F32, DType::F32},
        Case{"bf16", "f32", "wgmma_64x128x16", DType::F32, DType::F32}}) {
    std::string label = std::string(c.in) + " -> " + c.out + ", " + c.mma;
    StandIn s = standIn(c.in, c.out, c.mma);
    ASSERT_NE(s.op, nullptr) << label;
    Tolerance t = getOpTolerance(s.op, c.outType, 0);
    Tolerance want = getDefaultTolerance(c.want);
    EXPECT_EQ(t.normRel, want.normRel) << label;
    EXPECT_EQ(t.elemRel, want.elemRel) << label;
    EXPECT_EQ(t.elemAbs, want.elemAbs) << label;
  }
}

TEST(KernelModelTest, W4A16OutputsAreJudgedByTheActivationsPrecision) {
  // The dequantized weights are rounded to the activations' 16-bit type on
  // their way to the matrix cores: an f32 result is as exact as a product
  // of that type, so it gets that type's tolerance.
  auto f32Result = [](llvm::StringRef act) {
    std::string source = llvm::formatv(R"mlir(
      func.func @f(%x: tensor<8x64x{0}>, %w: tensor<16x32xi8>,
                   %s: tensor<16x2x{0}>, %z: tensor<16x2xi8>) -> tensor<8x16xf32> {{
        %y = hkg.matmul_w4a16 %x, %w, %s, %z group_size(32)
            : tensor<8x64x{0}>, tensor<16x32xi8>, tensor<16x2x{0}>, tensor<16x2xi8>
            -> tensor<8x16xf32>
        return %y : tensor<8x16xf32>
      }
    )mlir",
                                       act);
    return parseStandIn(source);
  };
  for (auto [act, type] :
       {std::pair{"bf16", DType::BF16}, std::pair{"f16", DType::F16}}) {
    StandIn s = f32Result(act);
    ASSERT_NE(s.op, nullptr) << act;
    Tolerance t = getOpTolerance(s.op, DType::F32, 0);
    Tolerance want = getDefaultTolerance(type);
    EXPECT_EQ(t.normRel, want.normRel) << act;
    EXPECT_EQ(t.elemRel, want.elemRel) << act;
    EXPECT_EQ(t.elemAbs, want.elemAbs) << act;
  }
}
