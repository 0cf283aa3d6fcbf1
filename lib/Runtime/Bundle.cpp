//===- Bundle.cpp - reading a kernel bundle's manifest --------------------===//

#include "hkg/Runtime/Bundle.h"

#include "hkg/Dialect/Hkg/Utils/TargetInfo.h"
#include "hkg/Support/InputLimits.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace hkg::rt;
namespace json = llvm::json;

int64_t ArgSpec::getNumElements() const {
  assert(sizedDims.empty() && "the elements of an arg with sized dims");
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string Bundle::getBinaryPath(const KernelSpec &kernel) const {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, kernel.binary);
  return std::string(path);
}

const KernelSpec *Bundle::lookup(llvm::StringRef name) const {
  for (const KernelSpec &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

static llvm::Error fieldError(const llvm::Twine &field,
                              const llvm::Twine &what) {
  return llvm::createStringError("manifest: " + field + ": " + what);
}

static llvm::Error readString(const json::Object &obj, llvm::StringRef key,
                              const llvm::Twine &where, std::string &out,
                              bool required = true) {
  std::optional<llvm::StringRef> v = obj.getString(key);
  if (!v) {
    if (!required)
      return llvm::Error::success();
    return fieldError(where + "." + key, "expected a string");
  }
  out = v->str();
  return llvm::Error::success();
}

/// Reads `key` as three launch extents. With `nullX`, a null x is accepted
/// (a kernel with size parameters): x is then 0 and *nullX set.
static llvm::Error readDim3(const json::Object &obj, llvm::StringRef key,
                            const llvm::Twine &where, Dim3 &out,
                            bool *nullX = nullptr) {
  const json::Array *arr = obj.getArray(key);
  if (!arr || arr->size() != 3)
    return fieldError(where + "." + key, "expected an array of 3 integers");
  for (unsigned i = 0; i < 3; ++i) {
    if (i == 0 && nullX && (*arr)[0].kind() == json::Value::Null) {
      *nullX = true;
      out[0] = 0;
      continue;
    }
    std::optional<int64_t> v = (*arr)[i].getAsInteger();
    if (!v || *v < 1)
      return fieldError(where + "." + key,
                        "expected positive integers, entry " + llvm::Twine(i) +
                            " is not");
    // Launch extents are 32-bit (CUDA and HIP); checkLaunchLimits then holds
    // them to the target's.
    if (*v > kMaxGridX)
      return fieldError(where + "." + key, "entry " + llvm::Twine(i) +
                                               " is above 2^31 - 1");
    out[i] = *v;
  }
  return llvm::Error::success();
}

/// Reads `dtype` and `shape` (extents, or `{"size": i}`) of a kernel arg or
/// plan value.
static llvm::Error readDTypeAndShape(const json::Object &obj,
                                     const llvm::Twine &where, DType &dtype,
                                     llvm::SmallVectorImpl<int64_t> &shape,
                                     llvm::SmallVectorImpl<SizedDim> &sized) {
  std::optional<llvm::StringRef> name = obj.getString("dtype");
  std::optional<DType> parsed = name ? parseDType(*name) : std::nullopt;
  if (!parsed)
    return fieldError(
        where + ".dtype",
        "expected one of f32, f16, bf16, f64, i64, i32, i8, i1, got '" +
            (name ? *name : "<none>") + "'");
  dtype = *parsed;
  const json::Array *dims = obj.getArray("shape");
  if (!dims)
    return fieldError(where + ".shape", "expected an array of integers");
  for (auto [d, entry] : llvm::enumerate(*dims)) {
    // An extent, or {"size": i}: the dim is size parameter i.
    std::optional<int64_t> v = entry.getAsInteger();
    if (v && *v >= 0) {
      shape.push_back(*v);
      continue;
    }
    const json::Object *sizedObj = entry.getAsObject();
    std::optional<int64_t> index = sizedObj && sizedObj->size() == 1
                                       ? sizedObj->getInteger("size")
                                       : std::nullopt;
    if (!index || *index < 0 || *index > std::numeric_limits<unsigned>::max())
      return fieldError(where + ".shape[" + llvm::Twine(d) + "]",
                        "expected a non-negative integer or {\"size\": i}");
    shape.push_back(kDynamicDim);
    sized.push_back({static_cast<unsigned>(d), static_cast<unsigned>(*index)});
  }
  return llvm::Error::success();
}

static llvm::Error readArg(const json::Value &value, const llvm::Twine &where,
                           ArgSpec &arg) {
  const json::Object *obj = value.getAsObject();
  if (!obj)
    return fieldError(where, "expected an object");
  std::optional<llvm::StringRef> role = obj->getString("role");
  if (!role || (*role != "input" && *role != "output"))
    return fieldError(where + ".role", "expected \"input\" or \"output\"");
  arg.isOutput = *role == "output";
  return readDTypeAndShape(*obj, where, arg.dtype, arg.shape, arg.sizedDims);
}

/// Reads the size parameters of `k` (manifest `sizes`, once its args are
/// read): each names an output's dim that is that very size, and every
/// `{"size": i}` of the args names one of them.
static llvm::Error readSizes(const json::Object &obj, const llvm::Twine &where,
                             KernelSpec &k) {
  if (const json::Value *v = obj.get("sizes")) {
    const json::Array *sizes = v->getAsArray();
    if (!sizes || sizes->empty())
      return fieldError(where + ".sizes",
                        "expected a non-empty array of {\"arg\": a, "
                        "\"dim\": d} objects");
    for (auto [i, entry] : llvm::enumerate(*sizes)) {
      std::string at = (where + ".sizes[" + llvm::Twine(i) + "]").str();
      const json::Object *e = entry.getAsObject();
      std::optional<int64_t> arg = e ? e->getInteger("arg") : std::nullopt;
      std::optional<int64_t> dim = e ? e->getInteger("dim") : std::nullopt;
      if (!arg || !dim)
        return fieldError(at, "expected an object {\"arg\": a, \"dim\": d} "
                              "of integers");
      if (*arg < 0 || *arg >= static_cast<int64_t>(k.args.size()))
        return fieldError(at + ".arg",
                          llvm::formatv("expected an arg index below {0}, "
                                        "got {1}",
                                        k.args.size(), *arg));
      const ArgSpec &a = k.args[*arg];
      if (!a.isOutput)
        return fieldError(at + ".arg", llvm::formatv("expected an output, arg "
                                                     "{0} is an input",
                                                     *arg));
      if (*dim < 0 || *dim >= static_cast<int64_t>(a.shape.size()))
        return fieldError(at + ".dim",
                          llvm::formatv("expected a dim index below {0} (the "
                                        "rank of arg {1}), got {2}",
                                        a.shape.size(), *arg, *dim));
      const SizedDim *sized = llvm::find_if(
          a.sizedDims, [&](const SizedDim &s) { return s.dim == *dim; });
      if (sized == a.sizedDims.end())
        return fieldError(at, llvm::formatv("dim {0} of arg {1} is static "
                                            "({2}), not {{\"size\": {3}}",
                                            *dim, *arg, a.shape[*dim], i));
      if (sized->size != i)
        return fieldError(at, llvm::formatv("dim {0} of arg {1} is "
                                            "{{\"size\": {2}}, not "
                                            "{{\"size\": {3}}",
                                            *dim, *arg, sized->size, i));
      k.sizes.push_back(
          {static_cast<unsigned>(*arg), static_cast<unsigned>(*dim)});
    }
  }
  for (auto [i, a] : llvm::enumerate(k.args))
    for (const SizedDim &s : a.sizedDims)
      if (s.size >= k.sizes.size())
        return fieldError(where + ".args[" + llvm::Twine(i) + "].shape[" +
                              llvm::Twine(s.dim) + "]",
                          llvm::formatv("size {0} is not one of the kernel's "
                                        "{1} size parameter(s)",
                                        s.size, k.sizes.size()));
  return llvm::Error::success();
}

/// Reads `grid_x`, which a kernel has exactly when its grid x is null (and
/// then it has size parameters).
static llvm::Error readGridX(const json::Object &obj, const llvm::Twine &where,
                             bool nullX, KernelSpec &k) {
  const json::Value *v = obj.get("grid_x");
  if (!nullX) {
    if (k.hasSizeParameters())
      return fieldError(where + ".grid", "expected null in entry 0: the "
                                         "kernel has size parameters, its "
                                         "grid_x gives x");
    if (v)
      return fieldError(where + ".grid_x", "unexpected: grid x is not null");
    return llvm::Error::success();
  }
  if (!k.hasSizeParameters())
    return fieldError(where + ".grid",
                      "entry 0 is null but the kernel has no size parameters");
  const json::Object *rule = v ? v->getAsObject() : nullptr;
  if (!rule)
    return fieldError(where + ".grid_x",
                      "expected an object {\"mul\", \"div\", \"times\"} "
                      "(grid x is null)");
  for (auto [key, field] :
       {std::pair{"mul", &k.gridX.mul}, std::pair{"div", &k.gridX.div},
        std::pair{"times", &k.gridX.times}}) {
    std::optional<int64_t> n = rule->getInteger(key);
    if (!n || *n < 1)
      return fieldError(where + ".grid_x." + key,
                        "expected a positive integer");
    *field = *n;
  }
  return llvm::Error::success();
}

static llvm::Error readKernel(const json::Value &value,
                              const llvm::Twine &where, KernelSpec &k) {
  const json::Object *obj = value.getAsObject();
  if (!obj)
    return fieldError(where, "expected an object");
  if (llvm::Error e = readString(*obj, "name", where, k.name))
    return e;
  if (llvm::Error e = readString(*obj, "op", where, k.op))
    return e;
  if (llvm::Error e = readString(*obj, "binary", where, k.binary))
    return e;
  // The binary is a file of the bundle: no absolute path, no `..`.
  bool inside = !k.binary.empty() && !llvm::sys::path::is_absolute(k.binary);
  for (llvm::StringRef part : llvm::make_range(
           llvm::sys::path::begin(k.binary), llvm::sys::path::end(k.binary)))
    inside &= part != "..";
  if (!inside)
    return fieldError(where + ".binary",
                      "expected a file inside the bundle directory, got '" +
                          k.binary + "'");
  if (llvm::Error e = readString(*obj, "entry", where, k.entry))
    return e;
  if (llvm::Error e = readString(*obj, "source", where, k.source))
    return e;
  bool nullX = false;
  if (llvm::Error e = readDim3(*obj, "grid", where, k.grid, &nullX))
    return e;
  if (llvm::Error e = readDim3(*obj, "block", where, k.block))
    return e;
  if (std::optional<int64_t> lds = obj->getInteger("lds_bytes")) {
    if (*lds < 0 || *lds > (1 << 30))
      return fieldError(where + ".lds_bytes",
                        "expected a byte count in [0, 2^30]");
    k.ldsBytes = *lds;
  }
  if (std::optional<int64_t> lds = obj->getInteger("dynamic_lds_bytes")) {
    if (*lds < 0 || *lds > (1 << 30))
      return fieldError(where + ".dynamic_lds_bytes",
                        "expected a byte count in [0, 2^30]");
    k.dynamicLdsBytes = *lds;
  }
  if (std::optional<double> ms = obj->getNumber("compile_ms"))
    k.compileMs = *ms;
  if (const json::Value *s = obj->get("schedule"))
    k.schedule = *s;
  if (const json::Value *s = obj->get("stats"))
    k.stats = *s;
  const json::Array *args = obj->getArray("args");
  if (!args || args->empty())
    return fieldError(where + ".args", "expected a non-empty array");
  for (auto [i, a] : llvm::enumerate(*args)) {
    ArgSpec arg;
    if (llvm::Error e =
            readArg(a, where + ".args[" + llvm::Twine(i) + "]", arg))
      return e;
    k.args.push_back(std::move(arg));
  }
  if (llvm::Error e = readSizes(*obj, where, k))
    return e;
  return readGridX(*obj, where, nullX, k);
}

/// The launch of `k` fits `target`: threads per workgroup, grid extents
/// (2^31 - 1 in x, 65535 in y and z, the CUDA and HIP limits).
static llvm::Error checkLaunchLimits(const KernelSpec &k,
                                     const mlir::hkg::TargetInfo &target,
                                     llvm::StringRef where) {
  // Each extent is below 2^31 (readDim3); their product, in a double, does
  // not wrap as an integer product would.
  double threads = static_cast<double>(k.block[0]) * k.block[1] * k.block[2];
  if (threads > target.maxThreadsPerWorkgroup)
    return fieldError(where + ".block",
                      llvm::formatv("{0} threads per workgroup, more than "
                                    "{1}'s {2}",
                                    llvm::format("%.0f", threads), target.chip,
                                    target.maxThreadsPerWorkgroup));
  if (k.grid[0] > kMaxGridX || k.grid[1] > kMaxGridYZ || k.grid[2] > kMaxGridYZ)
    return fieldError(where + ".grid",
                      "expected at most [2^31 - 1, 65535, 65535] workgroups");
  // LDS past the chip's limit is left to the driver, which refuses the
  // launch with its own error (test/Runtime/dynamic-lds.test); the reader
  // only bounds the byte counts.
  return llvm::Error::success();
}

/// Reads one `plans` entry (docs/ABI.md, "Launch plan"): names are unique,
/// every step names a kernel of the bundle and passes it values of its
/// args' dtypes and (static) shapes, sizes and views refer to what exists.
static llvm::Error readPlan(const json::Value &value, const llvm::Twine &where,
                            const Bundle &bundle, PlanSpec &plan) {
  using Kind = PlanValueSpec::Kind;
  const json::Object *obj = value.getAsObject();
  if (!obj)
    return fieldError(where, "expected an object");
  if (llvm::Error e = readString(*obj, "function", where, plan.function))
    return e;
  if (llvm::Error e =
          readString(*obj, "no_plan", where, plan.noPlan, /*required=*/false))
    return e;
  if (!plan.noPlan.empty())
    return llvm::Error::success();
  llvm::StringMap<unsigned> byName;
  auto addValue = [&](const json::Value &v, const std::string &at,
                      Kind kind) -> llvm::Expected<unsigned> {
    const json::Object *o = v.getAsObject();
    if (!o)
      return fieldError(at, "expected an object");
    PlanValueSpec pv;
    pv.kind = kind;
    if (llvm::Error e = readString(*o, "name", at, pv.name))
      return std::move(e);
    if (llvm::Error e =
            readDTypeAndShape(*o, at, pv.dtype, pv.shape, pv.sizedDims))
      return std::move(e);
    if (kind == Kind::Intermediate)
      pv.offset = o->getInteger("offset").value_or(-1);
    if (kind == Kind::View) {
      std::optional<llvm::StringRef> of = o->getString("of");
      auto it = of ? byName.find(*of) : byName.end();
      if (it == byName.end() || plan.values[it->second].kind == Kind::View)
        return fieldError(at + ".of", "expected the name of an input or "
                                      "buffer listed before it");
      pv.of = it->second;
    }
    if (!byName.try_emplace(pv.name, plan.values.size()).second)
      return fieldError(at + ".name", "'" + pv.name + "' is not unique");
    plan.values.push_back(std::move(pv));
    return plan.values.size() - 1;
  };
  auto forEach = [&](llvm::StringRef key,
                     llvm::function_ref<llvm::Error(const json::Value &,
                                                    const std::string &)>
                         fn) -> llvm::Error {
    const json::Array *arr = obj->getArray(key);
    if (!arr)
      return fieldError(where + "." + key, "expected an array");
    for (auto [i, v] : llvm::enumerate(*arr))
      if (llvm::Error e =
              fn(v, (where + "." + key + "[" + llvm::Twine(i) + "]").str()))
        return e;
    return llvm::Error::success();
  };
  if (llvm::Error e = forEach(
          "inputs",
          [&](const json::Value &v, const std::string &at) -> llvm::Error {
            llvm::Expected<unsigned> i = addValue(v, at, Kind::Input);
            if (!i)
              return i.takeError();
            plan.values[*i].argument = plan.inputs.size();
            plan.inputs.push_back(*i);
            return llvm::Error::success();
          }))
    return e;
  if (obj->getArray("sizes"))
    if (llvm::Error e = forEach(
            "sizes",
            [&](const json::Value &v, const std::string &at) -> llvm::Error {
              const json::Object *o = v.getAsObject();
              std::optional<int64_t> arg =
                  o ? o->getInteger("arg") : std::nullopt;
              std::optional<int64_t> dim =
                  o ? o->getInteger("dim") : std::nullopt;
              if (!arg || !dim || *arg < 0 ||
                  *arg >= static_cast<int64_t>(plan.inputs.size()) ||
                  *dim < 0 ||
                  *dim >= static_cast<int64_t>(
                              plan.values[plan.inputs[*arg]].shape.size()))
                return fieldError(at,
                                  "expected {\"arg\": a, \"dim\": d} naming "
                                  "a dim of an input");
              plan.sizes.push_back(
                  {static_cast<unsigned>(*arg), static_cast<unsigned>(*dim)});
              return llvm::Error::success();
            }))
      return e;
  if (llvm::Error e = forEach(
          "buffers",
          [&](const json::Value &v, const std::string &at) -> llvm::Error {
            const json::Object *o = v.getAsObject();
            std::optional<llvm::StringRef> kind =
                o ? o->getString("kind") : std::nullopt;
            if (!kind || (*kind != "output" && *kind != "intermediate"))
              return fieldError(at + ".kind",
                                "expected \"output\" or \"intermediate\"");
            llvm::Expected<unsigned> i = addValue(
                v, at, *kind == "output" ? Kind::Output : Kind::Intermediate);
            return i ? llvm::Error::success() : i.takeError();
          }))
    return e;
  if (llvm::Error e = forEach(
          "views",
          [&](const json::Value &v, const std::string &at) -> llvm::Error {
            llvm::Expected<unsigned> i = addValue(v, at, Kind::View);
            return i ? llvm::Error::success() : i.takeError();
          }))
    return e;
  for (const PlanValueSpec &v : plan.values)
    for (const SizedDim &s : v.sizedDims)
      if (s.size >= plan.sizes.size())
        return fieldError(where, "'" + v.name +
                                     "' has {\"size\": " + llvm::Twine(s.size) +
                                     "}, not a plan size parameter");
  auto lookupName = [&](const json::Value &v,
                        const std::string &at) -> llvm::Expected<unsigned> {
    std::optional<llvm::StringRef> name = v.getAsString();
    auto it = name ? byName.find(*name) : byName.end();
    if (it == byName.end())
      return fieldError(at, "expected the name of a plan value");
    return it->second;
  };
  if (llvm::Error e = forEach(
          "outputs",
          [&](const json::Value &v, const std::string &at) -> llvm::Error {
            const json::Object *o = v.getAsObject();
            const json::Value *value = o ? o->get("value") : nullptr;
            llvm::Expected<unsigned> i =
                value ? lookupName(*value, at + ".value")
                      : llvm::Expected<unsigned>(
                            fieldError(at + ".value", "expected a name"));
            if (!i)
              return i.takeError();
            plan.outputs.push_back(*i);
            return llvm::Error::success();
          }))
    return e;
  plan.arenaBytes = obj->getInteger("arena_bytes").value_or(0);
  for (const PlanValueSpec &v : plan.values)
    if (v.offset >= 0 && v.sizedDims.empty() &&
        v.offset + static_cast<int64_t>(getDTypeSize(v.dtype)) *
                       ArgSpec{false, v.dtype, v.shape, {}}.getNumElements() >
            plan.arenaBytes)
      return fieldError(where, "'" + v.name + "' ends past arena_bytes (" +
                                   llvm::Twine(plan.arenaBytes) + ")");
  return forEach(
      "steps", [&](const json::Value &v, const std::string &at) -> llvm::Error {
        const json::Object *o = v.getAsObject();
        std::optional<llvm::StringRef> name =
            o ? o->getString("kernel") : std::nullopt;
        const KernelSpec *k = name ? bundle.lookup(*name) : nullptr;
        if (!k)
          return fieldError(at + ".kernel", "expected the name of a kernel of "
                                            "the bundle");
        PlanStepSpec step;
        step.kernel = k - bundle.kernels.data();
        const json::Array *args = o->getArray("args");
        if (!args || args->size() != k->args.size())
          return fieldError(
              at + ".args",
              llvm::formatv("expected {0} names (the args of '{1}')",
                            k->args.size(), k->name));
        for (auto [i, a] : llvm::enumerate(*args)) {
          std::string argAt = (at + ".args[" + llvm::Twine(i) + "]").str();
          llvm::Expected<unsigned> index = lookupName(a, argAt);
          if (!index)
            return index.takeError();
          const PlanValueSpec &pv = plan.values[*index];
          const ArgSpec &ka = k->args[i];
          bool sameShape = !pv.sizedDims.empty() || !ka.sizedDims.empty() ||
                           llvm::ArrayRef<int64_t>(pv.shape) ==
                               llvm::ArrayRef<int64_t>(ka.shape);
          if (pv.dtype != ka.dtype || !sameShape)
            return fieldError(argAt,
                              llvm::formatv("'{0}' does not match arg {1} "
                                            "of '{2}' (dtype and shape)",
                                            pv.name, i, k->name));
          if (ka.isOutput &&
              (pv.kind == Kind::Input ||
               plan.values[plan.getStorage(*index)].kind == Kind::Input))
            return fieldError(argAt,
                              "'" + pv.name +
                                  "' is an input, which kernels only read");
          step.args.push_back(*index);
        }
        if (const json::Array *sizes = o->getArray("sizes"))
          for (const json::Value &sz : *sizes) {
            std::optional<int64_t> s = sz.getAsInteger();
            if (!s || *s < 0 || *s >= static_cast<int64_t>(plan.sizes.size()))
              return fieldError(at + ".sizes", "expected plan size parameters");
            step.sizes.push_back(*s);
          }
        if (step.sizes.size() != k->sizes.size())
          return fieldError(
              at + ".sizes",
              llvm::formatv("expected {0} (the size parameters of "
                            "'{1}')",
                            k->sizes.size(), k->name));
        plan.steps.push_back(std::move(step));
        return llvm::Error::success();
      });
}

llvm::Expected<Bundle> hkg::rt::parseManifest(llvm::StringRef text,
                                              llvm::StringRef directory) {
  llvm::Expected<json::Value> root = ::hkg::parseJSON(text);
  if (!root)
    return llvm::createStringError("manifest: invalid JSON: " +
                                   llvm::toString(root.takeError()));
  const json::Object *obj = root->getAsObject();
  if (!obj)
    return fieldError("<root>", "expected an object");
  Bundle bundle;
  bundle.directory = directory.str();
  if (llvm::Error e = readString(*obj, "hkg_version", "", bundle.version))
    return std::move(e);
  if (llvm::Error e = readString(*obj, "target", "", bundle.target))
    return std::move(e);
  if (llvm::Error e = readString(*obj, "format", "", bundle.format))
    return std::move(e);
  if (bundle.format != "hsaco" && bundle.format != "ptx" &&
      bundle.format != "cubin")
    return fieldError(".format", "expected \"hsaco\", \"ptx\" or \"cubin\", "
                                 "got \"" +
                                     bundle.format + "\"");
  if (bundle.version != kBundleVersion)
    return fieldError(".hkg_version", "expected \"" + kBundleVersion +
                                          "\" (this runtime's bundle "
                                          "format), got \"" +
                                          bundle.version + "\"");
  const mlir::hkg::TargetInfo *target =
      mlir::hkg::lookupTarget(bundle.target);
  if (!target)
    return fieldError(".target", "unknown chip \"" + bundle.target + "\"");
  if (target->isNVIDIA() == (bundle.format == "hsaco"))
    return fieldError(".format", "\"" + bundle.format +
                                     "\" is not a code object format of " +
                                     bundle.target);
  const json::Array *kernels = obj->getArray("kernels");
  if (!kernels)
    return fieldError(".kernels", "expected an array");
  for (auto [i, k] : llvm::enumerate(*kernels)) {
    KernelSpec spec;
    std::string where = ("kernels[" + llvm::Twine(i) + "]").str();
    if (llvm::Error e = readKernel(k, where, spec))
      return std::move(e);
    if (llvm::Error e = checkLaunchLimits(spec, *target, where))
      return std::move(e);
    bundle.kernels.push_back(std::move(spec));
  }
  if (const json::Value *plans = obj->get("plans")) {
    const json::Array *arr = plans->getAsArray();
    if (!arr)
      return fieldError(".plans", "expected an array");
    for (auto [i, p] : llvm::enumerate(*arr)) {
      PlanSpec plan;
      if (llvm::Error e =
              readPlan(p, "plans[" + llvm::Twine(i) + "]", bundle, plan))
        return std::move(e);
      bundle.plans.push_back(std::move(plan));
    }
  }
  return bundle;
}

llvm::Expected<Bundle> hkg::rt::loadBundle(llvm::StringRef path) {
  llvm::SmallString<256> manifest(path);
  if (llvm::sys::fs::is_directory(path))
    llvm::sys::path::append(manifest, "manifest.json");
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(manifest);
  if (!buffer)
    return llvm::createStringError(llvm::formatv(
        "cannot read {0}: {1}", manifest, buffer.getError().message()));
  return parseManifest((*buffer)->getBuffer(),
                       llvm::sys::path::parent_path(manifest));
}
