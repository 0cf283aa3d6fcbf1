/*===- hkg-c/Hkg.h - hkg's C API -----------------------------------*- C
-*-===*\
|*                                                                            *|
|* The stable C interface of libhkg: compile hkg (or linalg) MLIR into a      *|
|* kernel bundle in process, transform a module with a pass pipeline, and    *|
|* launch a bundle's kernels on a caller's buffers and stream. The Python    *|
|* package's pybind11 binding (python/hkg/_hkg.cpp) is written against this  *|
|* header only, so it builds without LLVM's headers and links a libhkg built *|
|* anywhere (docs/Python.md, "Installing on a machine without LLVM").         *|
|*                                                                            *|
|* Conventions: a function that can fail returns NULL on success or an      *|
|* error message (malloc'ed, UTF-8, freed with hkgStringFree) holding the    *|
|* MLIR diagnostics or the driver's error string. Strings passed in need not *|
|* be NUL-terminated where a length is given. Handles are opaque.             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef HKG_C_HKG_H
#define HKG_C_HKG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define HKG_CAPI_EXPORTED __attribute__((visibility("default")))
#else
#define HKG_CAPI_EXPORTED
#endif

/// Bumped when a function's signature or meaning changes.
#define HKG_CAPI_VERSION 1

/// hkg's version ("0.1.0"), and the bundle format version ("0.1").
HKG_CAPI_EXPORTED const char *hkgGetVersion(void);
HKG_CAPI_EXPORTED const char *hkgGetBundleVersion(void);
HKG_CAPI_EXPORTED int hkgGetCAPIVersion(void);

/// Frees a string the API returned.
HKG_CAPI_EXPORTED void hkgStringFree(char *string);

/*===-- Compiler ----------------------------------------------------------===*/

/// Compiles the module `source` (hkg ops, or linalg on tensors, which is
/// raised first as hkg-compile does) into a bundle directory `outDir`
/// (binaries + manifest.json, docs/ABI.md). `optionsJson` is a JSON object
/// (NULL or "" for defaults) with hkg-compile's options:
///   "chip" (required unless the module has hkg.target), "format"
///   ("hsaco", "ptx", "cubin"), "opt_level", "toolkit", "default_schedules",
///   "allow_host_ops", "index_bitwidth", "min_blocks_per_sm".
/// Unknown keys are an error naming them.
HKG_CAPI_EXPORTED char *hkgCompile(const char *source, size_t length,
                                   const char *optionsJson, const char *outDir);

/// Parses and verifies `source`, runs the textual pass pipeline `pipeline`
/// (as hkg-opt's --pass-pipeline, e.g. "builtin.module(hkg-from-linalg)";
/// NULL or "" runs none) and returns the result's text in `*result`
/// (malloc'ed; freed with hkgStringFree) on success. Every pass hkg-opt
/// registers is available.
HKG_CAPI_EXPORTED char *hkgTransform(const char *source, size_t length,
                                     const char *pipeline, char **result);

/// The toolkit hkgCompile uses for `chip` (with `override`, the "toolkit"
/// option, when not NULL or ""), as hkg finds it: on success `*json` is
/// {"kind": "cuda", "dir", "libdevice", "ptxas"} ("ptxas" empty when not
/// found) or {"kind": "rocm", "dir", "bitcode_dir", "ld_lld"}.
HKG_CAPI_EXPORTED char *hkgFindToolkit(const char *chip, const char *override,
                                       char **json);

/*===-- Tuning ------------------------------------------------------------===*/

/// Receives one event of hkgTune as a JSON object (valid during the call):
///   {"event": "op", "index", "count", "op", "signature"}   an op's search
///   starts
///   {"event": "resume", "trials"}     trials reused from the database
///   {"event": "trial", "number", "budget", "status", "us", "best_us",
///    "eta_s", "schedule"}             a candidate was measured
///   {"event": "search_done", "trials", "best_us", "stopped"}
///   {"event": "confirm", "round", "rounds", "finalist", "status", "us"}
typedef void (*HkgTuneEventCallback)(void *userData, const char *eventJson);

/// Measures one candidate instead of the device: gets {"op", "signature",
/// "target", "schedule"} and returns a malloc'ed JSON object (freed by
/// hkg) {"status": "ok" | "wrong" | "compile_error" | "fault" |
/// "timeout", "median_us", "spread", "max_rel_err", "message"}.
typedef char *(*HkgMeasureCallback)(void *userData, const char *requestJson);

/// Runs hkg-autotune on every hkg op of `source` that has no schedule:
/// measured on the device (or through `measure` when not NULL), else
/// replayed from the database, else picked by the policy, else the default
/// (docs/Tuning.md). `optionsJson`: "chip", "budget", "db" (SQLite file,
/// created when measuring), "seed", "model", "device" ("auto" or "none"),
/// "confirm_finalists", "confirm_rounds", "worker" (the hkg-run the device
/// measurer starts per candidate). `onEvent` may be NULL. On success
/// `*result` is {"module": the module with every schedule set, "remarks":
/// [what was done for each op]}.
HKG_CAPI_EXPORTED char *hkgTune(const char *source, size_t length,
                                const char *optionsJson,
                                HkgMeasureCallback measure,
                                HkgTuneEventCallback onEvent, void *userData,
                                char **result);

/*===-- Reference ---------------------------------------------------------===*/

/// A dense row-major host tensor: element type by its manifest name (f32,
/// bf16, i64, i1 as one byte per element...), extents, and the bytes.
typedef struct HkgTensorRef {
  const char *dtype;
  size_t rank;
  const int64_t *shape;
  const void *data;
} HkgTensorRef;

/// Receives result `index` of hkgReferenceEvaluate (f64 for a float
/// result, the integer type for an integer one); `result` is valid during
/// the call only.
typedef void (*HkgTensorCallback)(void *userData, size_t index,
                                  const HkgTensorRef *result);

/// Evaluates the float64 host reference of the one hkg op in `source` (a
/// kernel's manifest `source`: the view ops of sliced inputs, then the op)
/// on `inputs`, one per kernel input (the whole buffer of a slice view), and
/// hands each result to `callback`. The reference is what hkg-run checks
/// kernels against (docs/Runtime.md); dynamic shapes are refused.
HKG_CAPI_EXPORTED char *hkgReferenceEvaluate(const char *source, size_t length,
                                             const HkgTensorRef *inputs,
                                             size_t numInputs,
                                             HkgTensorCallback callback,
                                             void *userData);

/*===-- Runtime -----------------------------------------------------------===*/

typedef struct HkgDevice HkgDevice;

/// Opens GPU `ordinal` through `kind` ("auto", "cuda", "hip"). CUDA shares
/// the device's primary context, which PyTorch also uses, so device pointers
/// from either are valid in the other.
HKG_CAPI_EXPORTED char *hkgDeviceOpen(const char *kind, int ordinal,
                                      HkgDevice **device);
HKG_CAPI_EXPORTED void hkgDeviceClose(HkgDevice *device);
/// "cuda" or "hip"; the product name; the architecture (sm_90, gfx942);
/// the count of SMs / CUs.
HKG_CAPI_EXPORTED const char *hkgDeviceGetKind(HkgDevice *device);
HKG_CAPI_EXPORTED const char *hkgDeviceGetName(HkgDevice *device);
HKG_CAPI_EXPORTED const char *hkgDeviceGetArch(HkgDevice *device);
HKG_CAPI_EXPORTED unsigned hkgDeviceGetNumComputeUnits(HkgDevice *device);

/// Loads a code object (hsaco; PTX or cubin) of `size` bytes.
HKG_CAPI_EXPORTED char *hkgDeviceLoadModule(HkgDevice *device,
                                            const void *image, size_t size,
                                            void **module);
HKG_CAPI_EXPORTED char *hkgDeviceUnloadModule(HkgDevice *device, void *module);
HKG_CAPI_EXPORTED char *hkgDeviceGetKernel(HkgDevice *device, void *module,
                                           const char *entry, void **kernel);

/// Launches `kernel` with the hkg kernel ABI (docs/ABI.md): `numArgs` device
/// pointers, then `numScalars` int64 size values, on `stream` (a
/// CUstream / hipStream_t; NULL: the default stream). Dynamic shared memory
/// above 48 KiB is opted into on the first launch that needs it.
HKG_CAPI_EXPORTED char *
hkgDeviceLaunch(HkgDevice *device, void *kernel, const uint32_t grid[3],
                const uint32_t block[3], uint32_t dynamicSharedBytes,
                const uint64_t *args, size_t numArgs, const int64_t *scalars,
                size_t numScalars, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* HKG_C_HKG_H */
