// hkg-compile --emit=iree writes the bundle and iree_input.mlir: the module
// as an IREE program in which each hkg op is a custom dispatch of its kernel
// (a hal.executable.source whose object is the binary) and the ops hkg does
// not compute (here an integer sum) are left to IREE. test/python/test_iree.py
// compiles such programs with the real iree-compile.

// RUN: rm -rf %t && hkg-compile %s --chip=gfx942 --emit=iree -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t/iree_input.mlir
// RUN: ls %t/hkg_softmax_0.hsaco %t/hkg_rmsnorm_0.hsaco %t/manifest.json

// The op hkg leaves says why (the remark of hkg-raise-linalg).
// REMARK: remark: this linalg.generic is not raised to an hkg op

// CHECK:       module {
// CHECK-NOT:     hkg.
// CHECK-LABEL:   func.func @mixed(
// CHECK-SAME:      %[[X:.*]]: tensor<64x1024xf32>, %[[W:.*]]: tensor<1024xf32>, %[[N:.*]]: tensor<8x16xi32>
// CHECK:           %[[S:.*]] = call @mixed_hkg_0(%[[X]])
// CHECK:           %[[R:.*]] = call @mixed_hkg_1(%[[S]], %[[W]])
// CHECK:           %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[N]] : tensor<8x16xi32>)
// CHECK:             arith.addi
// CHECK:           return %[[R]], %[[SUM]]

// One executable per kernel: the code object for any ROCm target, the
// kernel's pointers as bindings (inputs read-only), its block and grid.
// CHECK:         "hal.executable.source"() <{sym_name = "hkg_softmax_0", sym_visibility = "private", objects = #hal.executable.objects<{#hal.executable.target<"rocm", "rocm-hsaco-fb"> = [#hal.executable.object<{path = "hkg_softmax_0.hsaco"}>]}>}> ({
// CHECK-NEXT:      "hal.executable.export"() <{sym_name = "hkg_softmax_0", sym_visibility = "public", ordinal = 0 : index, layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>, workgroup_size = [[[B:[0-9]+]] : index, 1 : index, 1 : index]}> ({
// CHECK-NEXT:      ^bb0(%device: !hal.device):
// CHECK-NEXT:        %g0 = arith.constant 64 : index
// CHECK-NEXT:        %g1 = arith.constant 1 : index
// CHECK-NEXT:        %g2 = arith.constant 1 : index
// CHECK-NEXT:        "hal.return"(%g0, %g1, %g2) : (index, index, index) -> ()
// CHECK-NEXT:      }, {}) : () -> ()
// CHECK-NEXT:      "hal.executable.source_end"() : () -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK:         "hal.executable.source"() <{sym_name = "hkg_rmsnorm_0"
// CHECK-NEXT:      "hal.executable.export"() <{sym_name = "hkg_rmsnorm_0"
// CHECK-SAME:      #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]

// Each outlined function is its launch plan: inputs the dispatch's
// operands, outputs its results.
// CHECK:         func.func private @mixed_hkg_0(%arg0: tensor<64x1024xf32>) -> (tensor<64x1024xf32>) {
// CHECK-NEXT:      %0 = flow.dispatch @hkg_softmax_0::@hkg_softmax_0(%arg0) : (tensor<64x1024xf32>) -> (tensor<64x1024xf32>)
// CHECK-NEXT:      return %0 : tensor<64x1024xf32>
// CHECK-NEXT:    }
// CHECK:         func.func private @mixed_hkg_1(%arg0: tensor<64x1024xf32>, %arg1: tensor<1024xf32>) -> (tensor<64x1024xf32>) {
// CHECK-NEXT:      %0 = flow.dispatch @hkg_rmsnorm_0::@hkg_rmsnorm_0(%arg0, %arg1) : (tensor<64x1024xf32>, tensor<1024xf32>) -> (tensor<64x1024xf32>)
// CHECK-NEXT:      return %0 : tensor<64x1024xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NOT:   {{.}}

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
  func.func @mixed(%x: tensor<64x1024xf32>, %w: tensor<1024xf32>, %n: tensor<8x16xi32>) -> (tensor<64x1024xf32>, tensor<8xi32>) {
    %s = hkg.softmax %x axis(1) : tensor<64x1024xf32> -> tensor<64x1024xf32>
    %r = hkg.rmsnorm %s weight(%w : tensor<1024xf32>) eps(1.0e-06) : tensor<64x1024xf32> -> tensor<64x1024xf32>
    %c0 = arith.constant 0 : i32
    %e = tensor.empty() : tensor<8xi32>
    %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<8xi32>) -> tensor<8xi32>
    %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%n : tensor<8x16xi32>) outs(%f : tensor<8xi32>) {
    ^bb0(%in: i32, %acc: i32):
      %a = arith.addi %in, %acc : i32
      linalg.yield %a : i32
    } -> tensor<8xi32>
    return %r, %sum : tensor<64x1024xf32>, tensor<8xi32>
  }
}
