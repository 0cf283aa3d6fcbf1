// Tuned schedules travel into IREE programs: `hkg-tune tune ... -o
// tuned.mlir` writes the module with each op's winning schedule attached, and
// hkg-compile --emit=iree compiles those schedules (the default-schedule pass
// only fills ops that carry none); the manifest records each kernel's
// schedule and the dispatch's workgroup size is the schedule's.

// RUN: rm -rf %t && hkg-compile %s --chip=gfx942 --emit=iree -o %t
// RUN: FileCheck %s --input-file=%t/iree_input.mlir
// RUN: FileCheck %s --input-file=%t/manifest.json --check-prefix=MANIFEST
// RUN: sed 's/ {schedule = #hkg.schedule<threads = 512, vector_width = 2>}//' %s > %t.untuned.mlir
// RUN: rm -rf %t.default && hkg-compile %t.untuned.mlir --chip=gfx942 --emit=iree -o %t.default
// RUN: FileCheck %s --input-file=%t.default/iree_input.mlir --check-prefix=DEFAULT

// CHECK: "hal.executable.export"() <{sym_name = "hkg_softmax_0", {{.*}} workgroup_size = [512 : index, 1 : index, 1 : index]}>
// MANIFEST: "schedule": {
// MANIFEST-DAG: "threads": 512
// MANIFEST-DAG: "vector_width": 2
// DEFAULT: "hal.executable.export"() <{sym_name = "hkg_softmax_0", {{.*}} workgroup_size = [64 : index, 1 : index, 1 : index]}>

func.func @tuned(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<threads = 512, vector_width = 2>} : tensor<64x1024xf32> -> tensor<64x1024xf32>
  return %0 : tensor<64x1024xf32>
}
