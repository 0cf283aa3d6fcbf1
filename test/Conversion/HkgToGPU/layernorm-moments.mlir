// RUN: hkg-opt %s --split-input-file --hkg-lower-to-gpu | FileCheck %s

// moments = merged: pass 0 sums each thread's row elements and counts them,
// the thread's mean is sum / max(count, 1), pass 1 (from the register
// cache) sums the squared deviations from it, and one row reduction combines
// the (count, mean, M2) triples: three shuffles per butterfly step, each
// followed by Chan et al.'s update with an approximate reciprocal of the
// combined count; the waves' triples meet in LDS behind one barrier.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_layernorm_0(
// CHECK-SAME:    workgroup(%[[N:[a-z0-9]+]] : memref<8xf32, #gpu.address_space<workgroup>> {{{.*}}}, %[[M:[a-z0-9]+]] : memref<8xf32, #gpu.address_space<workgroup>> {{{.*}}}, %[[M2:[a-z0-9]+]] : memref<8xf32, #gpu.address_space<workgroup>> {{{.*}}})
// CHECK:         %[[DEN:.*]] = arith.maxnumf %[[CNT:[0-9]+]], %{{.*}} : f32
// CHECK:         %[[MEAN:.*]] = arith.divf %{{.*}}, %[[DEN]] : f32
// CHECK:         %[[SN:.*]], %{{.*}} = gpu.shuffle  xor %[[CNT]], %c16_i32, %c32_i32 : f32
// CHECK:         gpu.shuffle  xor %[[MEAN]], %c16_i32
// CHECK:         gpu.shuffle  xor %{{.*}}, %c16_i32
// CHECK:         %[[SUM:.*]] = arith.addf %[[CNT]], %[[SN]] : f32
// CHECK:         %[[D:.*]] = arith.maxnumf %[[SUM]], %{{.*}} : f32
// CHECK-NEXT:    arith.divf %{{.*}}, %[[D]] fastmath<afn> : f32
// CHECK-COUNT-3: gpu.shuffle  xor %{{.*}}, %c8_i32
// CHECK-COUNT-3: gpu.shuffle  xor %{{.*}}, %c4_i32
// CHECK-COUNT-3: gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK-COUNT-3: gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK:         memref.store %{{.*}}, %[[N]]
// CHECK-NEXT:    memref.store %{{.*}}, %[[M]]
// CHECK-NEXT:    memref.store %{{.*}}, %[[M2]]
// CHECK:         gpu.barrier
// CHECK-NOT:     gpu.shuffle
// CHECK:         gpu.barrier
// CHECK-NOT:     gpu.barrier
// CHECK-NOT:     gpu.shuffle
// CHECK:         gpu.return
func.func @merged(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<threads = 256, rows_per_block = 1, vector_width = 8, unroll = 4, row_cache = registers, moments = merged>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// separate (the default): two row reductions of one value each, four
// barriers.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_layernorm_0(
// CHECK-COUNT-4: gpu.barrier
// CHECK-NOT:     gpu.barrier
// CHECK-NOT:     fastmath<afn>
// CHECK:         gpu.return
func.func @separate(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<threads = 256, rows_per_block = 1, vector_width = 8, unroll = 4, row_cache = registers, moments = separate>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}
