//===- Passes.td - hkg dialect passes ----------------------*- tablegen -*-===//

#ifndef HKG_TRANSFORMS_PASSES_TD
#define HKG_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def HkgDefaultSchedulePass : Pass<"hkg-default-schedule"> {
  let summary = "Attach a verified default schedule to every hkg op without one";
  let description = [{
    For every op implementing `HkgKernelOpInterface` that has no `schedule`
    attribute, attaches the op's default schedule for the target, with every
    knob spelled out. Ops that already carry a schedule keep it, and it is
    verified like `hkg-verify-schedule` does.

    The target is the `chip` option, or else the nearest `hkg.target`
    attribute on the op or an enclosing op.

    Before (`--hkg-default-schedule=chip=gfx942`):
    ```mlir
    %0 = hkg.softmax %x axis(1) : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
    ```
    After:
    ```mlir
    %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<online = 1,
        row_cache = registers, rows_per_block = 1, threads = 256, unroll = 4,
        vector_width = 8>} : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip (gfx90a, gfx942, gfx950, gfx1100, gfx1151, gfx1201, "
           "gfx1250, sm_80, sm_90); default: the hkg.target attribute">
  ];
  let dependentDialects = [];
}

def HkgVerifySchedulePass : Pass<"hkg-verify-schedule"> {
  let summary = "Verify every hkg op's schedule against its op and target";
  let description = [{
    Checks each `schedule` attribute: every knob must be one the op accepts,
    its value legal on the target, and the op's constraints between knobs,
    shapes and target resources (LDS bytes, registers, workgroup size) must
    hold. Errors name the knob and its legal values:

    ```
    error: schedule knob 'vector_width' = 3 is not legal for hkg.softmax on
    gfx942; expected one of: 1, 2, 4, 8
    ```

    With `require-schedule`, an op without a schedule is an error too (the
    codegen pipelines use this). The target is the `chip` option, or else the
    nearest `hkg.target` attribute.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip; default: the hkg.target attribute">,
    Option<"requireSchedule", "require-schedule", "bool", /*default=*/"false",
           "Report hkg ops that carry no schedule">
  ];
}

def HkgRejectHostOpsPass : Pass<"hkg-reject-host-ops", "ModuleOp"> {
  let summary = "Refuse ops in a function that no hkg kernel computes";
  let description = [{
    hkg compiles hkg kernel ops; anything else computed in a function (a
    `linalg.add` after an `hkg.softmax`, an `arith.addf` on tensors) would
    pass through the lowering untouched and be missing from the kernel
    bundle. This pass makes that an error naming the op and its location:
    lower it to hkg ops first. Allowed at the top level of a function are
    hkg kernel ops, `func.return`, scalar `arith.constant`s and the
    reshapes `tensor.expand_shape` / `tensor.collapse_shape` (views: the same
    bytes under a new shape, which the launch plan records), and
    `tensor.extract_slice` where it is a slice view: static offsets and
    sizes, unit strides, static shapes, a function argument's or a kernel's
    result sliced, read by hkg kernel ops only (directly or through further
    views). Each kernel reading it takes the sliced buffer whole and views it
    in place (docs/ABI.md, "Slice views"). Any other slice (dynamic, or
    returned, or read by a host op) is refused, the message saying which
    condition fails. The regions of hkg ops are theirs to verify. With `allow-host-ops`, such ops are
    left to the caller, each reported as a remark (hkg-compile lists them in
    the manifest's `host_ops`). hkg-to-rocdl and hkg-to-nvvm run it first.

    ```mlir
    %s = hkg.softmax %x axis(1) : tensor<64x64xf32> -> tensor<64x64xf32>
    // error: 'arith.addf' is not an hkg kernel op: no kernel computes it ...
    %y = arith.addf %s, %s : tensor<64x64xf32>
    // accepted: a view the softmax reads in place
    %h = tensor.extract_slice %s[0, 32] [64, 32] [1, 1]
        : tensor<64x64xf32> to tensor<64x32xf32>
    %t = hkg.softmax %h axis(1) : tensor<64x32xf32> -> tensor<64x32xf32>
    ```
  }];
  let options = [
    Option<"allowHostOps", "allow-host-ops", "bool", /*default=*/"false",
           "Leave ops that no kernel computes to the caller (a remark each) "
           "instead of refusing them">
  ];
}

def HkgMatchRowOpsPass : Pass<"hkg-match-row-ops"> {
  let summary = "Replace the reductions and maps that spell softmax, "
                "log_softmax, RMSNorm and LayerNorm by the named row ops";
  let description = [{
    Frameworks write softmax and the norms as reductions and maps; after
    `hkg-raise-linalg` (and its fusion) they are an `hkg.reduce` or two and
    an `hkg.elementwise` reading the input again, three passes over the
    input where the named op makes one. This pass recognizes the
    composition and replaces it by the named op (the reductions become
    dead when nothing else reads them):

    - `elementwise(x, M, S) { exp(x - m) / s }` with `M = reduce max x`,
      `S = reduce sum x ins(M) prologue { exp(x - m) }` over one axis:
      `hkg.softmax`; `(x - m) - log(s)`: `hkg.softmax log`.
    - `elementwise(x, S, w?) { x * rsqrt(s / N + eps) * w }` with
      `S = reduce sum x prologue { x * x }` over trailing axes of N
      elements in all: `hkg.rmsnorm`.
    - `elementwise(x, S1, S2, w?, b?) { (x - s1 / N) * rsqrt(s2 / N + eps)
      * w + b }` with `S1 = reduce sum x` and `S2` the sum of
      `(x - mean)^2` (the mean from a sum of x) over trailing axes:
      `hkg.layernorm`.

    Conversions between float types (`arith.extf` / `arith.truncf`) in the
    bodies are looked through: the named ops compute in f32 and round once,
    which is at least as accurate. Anything else (another constant than N,
    another operand order that is not a commutation) is left alone.

    Before:
    ```mlir
    %m = hkg.reduce max %x axes = [1] : tensor<64x1024xf32> -> tensor<64x1xf32>
    %s = hkg.reduce sum %x ins(%m : tensor<64x1xf32>) axes = [1] ...
        prologue { exp(x - m) }
    %y = hkg.elementwise %x, %m, %s ... { exp(x - m) / s }
    ```
    After:
    ```mlir
    %y = hkg.softmax %x axis(1) : tensor<64x1024xf32> -> tensor<64x1024xf32>
    ```
  }];
  let dependentDialects = [];
}

def HkgFusePass : Pass<"hkg-fuse"> {
  let summary = "Fold an hkg.elementwise consuming a matmul or a reduction "
                "into its epilogue";
  let description = [{
    An `hkg.elementwise` whose input is the only use of an `hkg.matmul`
    result of the same shape (or of a view of it that only adds unit dims,
    `[S, N]` as `[1, S, N]`: the fused matmul writes `[S, N]`, viewed back)
    becomes part of that matmul's epilogue: the
    elementwise body is applied to the value the epilogue yielded (or to the
    accumulator converted to the matmul's element type), its other inputs
    become epilogue operands (their shapes are suffixes of the result shape,
    as the epilogue requires), and the fused matmul produces the
    elementwise's result type. The matmul's schedule is kept; the
    elementwise's is dropped.

    Before:
    ```mlir
    %m = hkg.matmul %x, %w : tensor<64x128xbf16>, tensor<128x256xbf16>
        -> tensor<64x256xbf16>
    %y = hkg.elementwise %m, %bias : tensor<64x256xbf16>, tensor<256xbf16>
        -> tensor<64x256xbf16> {
    ^bb0(%a: bf16, %b: bf16):
      %s = arith.addf %a, %b : bf16
      hkg.yield %s : bf16
    }
    ```
    After:
    ```mlir
    %y = hkg.matmul %x, %w epilogue(%bias : tensor<256xbf16>)
        : tensor<64x128xbf16>, tensor<128x256xbf16> -> tensor<64x256xbf16> {
    ^bb0(%acc: f32, %b: bf16):
      %a = arith.truncf %acc : f32 to bf16
      %s = arith.addf %a, %b : bf16
      hkg.yield %s : bf16
    }
    ```

    An `hkg.elementwise` that reads nothing but an `hkg.reduce`'s result,
    element for element, where the result has no other use, becomes the
    end of that reduction's epilogue (a mean is a sum and a divide):

    ```mlir
    %s = hkg.reduce sum %x axes = [1] : tensor<64x128xf32> -> tensor<64xf32>
    %m = hkg.elementwise %s : tensor<64xf32> -> tensor<64xf32> {
    ^bb0(%v: f32):
      %n = arith.constant 128.0 : f32
      %d = arith.divf %v, %n : f32
      hkg.yield %d : f32
    }
    // becomes
    %m = hkg.reduce sum %x axes = [1] : tensor<64x128xf32> -> tensor<64xf32>
        epilogue {
    ^bb0(%v: f32):
      %n = arith.constant 128.0 : f32
      %d = arith.divf %v, %n : f32
      hkg.yield %d : f32
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def HkgOutlineKernelOpsPass : Pass<"hkg-outline-kernel-ops", "ModuleOp"> {
  let summary = "Move each hkg kernel op into a private function of its own "
                "and call it";
  let description = [{
    For a host that runs each hkg kernel op as one call of its own (IREE, as
    a custom dispatch: docs/IREE.md) while it computes the other ops itself:
    every hkg kernel op at the top level of a function, in order, moves into
    a new private function `@<function>_hkg_<n>` (marked `hkg.outlined`) that
    returns its results, and the op is replaced by a `func.call`. The
    outlined function takes the op's operands, except that an operand
    defined by static view ops (`tensor.extract_slice`,
    `tensor.expand_shape`, `tensor.collapse_shape`) is taken at the chain's
    root and the chain is copied into the function: the kernel then reads
    the root's buffer in place (docs/ABI.md, "Slice views") and the host
    passes the root, with no copy. View ops left without users are erased.
    Each outlined function holds hkg ops only, so hkg-compile writes a launch
    plan for it; the calling function keeps the ops hkg does not compute.
    A value defined above the op that its regions read (other than a
    constant, which is copied) is an error.

    Before:
    ```mlir
    func.func @f(%x: tensor<64x1024xf32>) -> tensor<64x1024xi32> {
      %s = hkg.softmax %x axis(1) : tensor<64x1024xf32> -> tensor<64x1024xf32>
      %i = arith.fptosi %s : tensor<64x1024xf32> to tensor<64x1024xi32>
      return %i : tensor<64x1024xi32>
    }
    ```
    After:
    ```mlir
    func.func @f(%x: tensor<64x1024xf32>) -> tensor<64x1024xi32> {
      %s = call @f_hkg_0(%x) : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
      %i = arith.fptosi %s : tensor<64x1024xf32> to tensor<64x1024xi32>
      return %i : tensor<64x1024xi32>
    }
    func.func private @f_hkg_0(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32>
        attributes {hkg.outlined} {
      %s = hkg.softmax %x axis(1) : tensor<64x1024xf32> -> tensor<64x1024xf32>
      return %s : tensor<64x1024xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // HKG_TRANSFORMS_PASSES_TD
