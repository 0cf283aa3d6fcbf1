// RUN: hkg-opt %s --pass-pipeline='builtin.module(gpu.module(hkg-llvm-loop-annotations))' --split-input-file | FileCheck %s
// RUN: hkg-opt %s --pass-pipeline='builtin.module(gpu.module(convert-scf-to-cf, convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=true chipset=gfx942}, hkg-llvm-loop-annotations))' --split-input-file | FileCheck %s --check-prefix=PIPE

// The annotation convert-scf-to-cf left on a branch as a discardable
// attribute becomes the branch's loop_annotation property (what LLVM
// translation reads); branches without one stay as they are.
// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[LOOP:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>
// CHECK-LABEL: llvm.func @latch
// CHECK:         llvm.br ^bb1 {loop_annotation = #[[LOOP]]}
// CHECK-NOT:     llvm.loop_annotation
// CHECK:         llvm.cond_br %{{.*}}, ^bb1, ^bb2 {loop_annotation = #[[LOOP]]}
// CHECK:         llvm.br ^bb1{{$}}
#unroll = #llvm.loop_unroll<disable = true>
#loop = #llvm.loop_annotation<unroll = #unroll>
gpu.module @m {
  llvm.func @latch(%c: i1) {
    llvm.br ^bb1 {llvm.loop_annotation = #loop}
  ^bb1:
    llvm.cond_br %c, ^bb1, ^bb2 {llvm.loop_annotation = #loop}
  ^bb2:
    llvm.br ^bb1
  }
}

// -----

// From an scf.for with the annotation (what hkg-lower-to-gpu puts on the
// column reductions' loops) through the upstream conversions: the latch's
// llvm.br carries it as its property.
// PIPE: #[[LOOP:.*]] = #llvm.loop_annotation<unroll = #{{.*}}>
// PIPE-LABEL: llvm.func @k
// PIPE:         llvm.br ^bb{{[0-9]+}}(%{{.*}}) {loop_annotation = #[[LOOP]]}
// PIPE-NOT:     llvm.loop_annotation =
#unroll = #llvm.loop_unroll<disable = true>
#loop = #llvm.loop_annotation<unroll = #unroll>
gpu.module @m {
  gpu.func @k(%m: memref<64xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %z = arith.constant 0.0 : f32
    %s = scf.for %i = %c0 to %c64 step %c1 iter_args(%a = %z) -> (f32) {
      %v = memref.load %m[%i] : memref<64xf32>
      %n = arith.addf %a, %v : f32
      scf.yield %n : f32
    } {llvm.loop_annotation = #loop}
    memref.store %s, %m[%c0] : memref<64xf32>
    gpu.return
  }
}
