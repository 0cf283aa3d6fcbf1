// RUN: hkg-opt %s --split-input-file --hkg-default-schedule --hkg-lower-to-gpu | FileCheck %s

// Load cache policies (docs/Lowering.md). On NVIDIA the row / element
// streams' loads are nontemporal (the marker hkg-nvvm-streaming-access turns
// into an evict-last policy) by default and the kernel says which policy;
// the weight's loads and the stores are not.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<64x8192xbf16>, %[[W:[a-z0-9]+]]: memref<8192xbf16>
// CHECK-SAME:    hkg.load_eviction = "last"
// CHECK-COUNT-4: vector.load %[[X]]{{.*}} {alignment = 16 : i64, nontemporal = true} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK:         vector.load %[[W]][{{.*}}] {alignment = 16 : i64} : memref<8192xbf16>, vector<8xbf16>
// CHECK:         vector.store {{.*}} {alignment = 16 : i64} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK-NOT:     nontemporal
// CHECK:         gpu.return
func.func @rms(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {schedule = #hkg.schedule<vector_width = 8, threads = 256, rows_per_block = 1, unroll = 4, row_cache = registers>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// "normal": plain loads, and no policy on the kernel.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_softmax_0(
// CHECK-NOT:     hkg.load_eviction = "
// CHECK-NOT:     nontemporal
// CHECK:         gpu.return
func.func @sm(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.softmax %x axis(1) {hkg.load_eviction = "normal"} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// AMD: the default is plain loads (the marker would be the `nt` bit there);
// an explicit "first" marks the row's last read.

module attributes {hkg.target = #hkg.target<chip = "gfx942">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0(
// CHECK-NOT:     hkg.load_eviction = "
// CHECK-NOT:     nontemporal
// CHECK:         gpu.return
// CHECK-LABEL: gpu.func @hkg_rmsnorm_1(
// CHECK-SAME:    hkg.load_eviction = "first"
// CHECK-COUNT-4: vector.load {{.*}} {alignment = 16 : i64, nontemporal = true} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK-NOT:     vector.store {{.*}}nontemporal
// CHECK:         gpu.return
func.func @rms_amd(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>) -> (tensor<64x8192xbf16>, tensor<64x8192xbf16>) {
  %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  %1 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {hkg.load_eviction = "first"} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0, %1 : tensor<64x8192xbf16>, tensor<64x8192xbf16>
}
}

// -----

// The other defaults on Hopper: softmax and layernorm rows evict-last;
// hkg.reduce plain unless asked, and "first" marks its one read.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_softmax_0(
// CHECK-SAME:    hkg.load_eviction = "last"
// CHECK-COUNT-4: vector.load {{.*}} {alignment = 16 : i64, nontemporal = true} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK-NOT:     vector.store {{.*}}nontemporal
// CHECK:         gpu.return
// CHECK-LABEL: gpu.func @hkg_layernorm_0(
// CHECK-SAME:    hkg.load_eviction = "last"
// CHECK-COUNT-4: vector.load {{.*}} {alignment = 16 : i64, nontemporal = true} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK:         gpu.return
// CHECK-LABEL: gpu.func @hkg_reduce_0(
// CHECK-NOT:     hkg.load_eviction = "
// CHECK-NOT:     nontemporal
// CHECK:         gpu.return
// CHECK-LABEL: gpu.func @hkg_reduce_1(
// CHECK-SAME:    hkg.load_eviction = "first"
// CHECK:         vector.load {{.*}} {alignment = 16 : i64, nontemporal = true} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK:         gpu.return
func.func @others(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>)
    -> (tensor<64x8192xbf16>, tensor<64x8192xbf16>, tensor<64xbf16>, tensor<64xbf16>) {
  %0 = hkg.softmax %x axis(1) : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  %1 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  %2 = hkg.reduce sum %x axes = [1] : tensor<64x8192xbf16> -> tensor<64xbf16>
  %3 = hkg.reduce sum %x axes = [1] {hkg.load_eviction = "first"} : tensor<64x8192xbf16> -> tensor<64xbf16>
  return %0, %1, %2, %3 : tensor<64x8192xbf16>, tensor<64x8192xbf16>, tensor<64xbf16>, tensor<64xbf16>
}
}

// -----

// Softmax re-reading its row (row_cache = none, max / sum / output passes)
// under "first": only the output pass's loads.

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
// CHECK-LABEL: gpu.func @hkg_softmax_0(
// CHECK-SAME:    hkg.load_eviction = "first"
// CHECK:         scf.for
// CHECK:           vector.load {{.*}} {alignment = 16 : i64} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK:         scf.for
// CHECK:           vector.load {{.*}} {alignment = 16 : i64} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK:         scf.for
// CHECK:           vector.load {{.*}} {alignment = 16 : i64, nontemporal = true} : memref<64x8192xbf16>, vector<8xbf16>
// CHECK:           vector.store {{.*}} {alignment = 16 : i64} : memref<64x8192xbf16>, vector<8xbf16>
func.func @sm_none(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {
  %0 = hkg.softmax %x axis(1) {hkg.load_eviction = "first", schedule = #hkg.schedule<online = 0, row_cache = none, rows_per_block = 1, threads = 256, unroll = 1, vector_width = 8>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
}

// -----

// Ampere: no default policy (measured on Hopper only); an explicit one
// applies.

module attributes {hkg.target = #hkg.target<chip = "sm_80">} {
// CHECK-LABEL: gpu.func @hkg_rmsnorm_0(
// CHECK-NOT:     hkg.load_eviction = "
// CHECK-NOT:     nontemporal
// CHECK:         gpu.return
// CHECK-LABEL: gpu.func @hkg_rmsnorm_1(
// CHECK-SAME:    hkg.load_eviction = "last"
// CHECK-COUNT-4: vector.load {{.*}}nontemporal = true
func.func @ampere(%x: tensor<64x8192xbf16>, %w: tensor<8192xbf16>) -> (tensor<64x8192xbf16>, tensor<64x8192xbf16>) {
  %0 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  %1 = hkg.rmsnorm %x weight(%w : tensor<8192xbf16>) eps(1.0e-06) {hkg.load_eviction = "last"} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0, %1 : tensor<64x8192xbf16>, tensor<64x8192xbf16>
}
}
