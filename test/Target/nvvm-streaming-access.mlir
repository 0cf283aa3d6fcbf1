// RUN: hkg-opt %s --pass-pipeline='builtin.module(gpu.module(hkg-nvvm-streaming-access))' | FileCheck %s

// Nontemporal loads / stores of 4, 8 and 16 bytes on generic or global
// pointers become ld/st.global.cs inline PTX; everything else stays.

gpu.module @k {
  // CHECK-LABEL: llvm.func @loads(
  llvm.func @loads(%p: !llvm.ptr, %g: !llvm.ptr<1>, %s: !llvm.ptr<3>) -> vector<8xbf16> {
    // CHECK:      %[[G:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<1>
    // CHECK:      %[[A:.*]] = llvm.inline_asm "ld.global.cs.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l" %[[G]] : (!llvm.ptr<1>) -> !llvm.struct<(i32, i32, i32, i32)>
    // CHECK-COUNT-4: llvm.extractvalue %[[A]]
    // CHECK:      llvm.bitcast %{{.*}} : vector<4xi32> to vector<8xbf16>
    %0 = llvm.load %p {alignment = 16 : i64, nontemporal} : !llvm.ptr -> vector<8xbf16>
    // A global pointer needs no cast; 8 bytes: the .v2 form.
    // CHECK-NOT:  llvm.addrspacecast
    // CHECK:      llvm.inline_asm "ld.global.cs.v2.b32 {$0, $1}, [$2];", "=r,=r,l" %{{.*}} : (!llvm.ptr<1>) -> !llvm.struct<(i32, i32)>
    // CHECK:      llvm.bitcast %{{.*}} : vector<2xi32> to vector<2xf32>
    %1 = llvm.load %g {alignment = 8 : i64, nontemporal} : !llvm.ptr<1> -> vector<2xf32>
    // 4 bytes: one word, no struct.
    // CHECK:      llvm.inline_asm "ld.global.cs.b32 $0, [$1];", "=r,l" %{{.*}} : (!llvm.ptr<1>) -> i32
    // CHECK:      llvm.bitcast %{{.*}} : i32 to f32
    %2 = llvm.load %p {alignment = 4 : i64, nontemporal} : !llvm.ptr -> f32
    // Left alone: no nontemporal flag, 2 bytes, shared memory, volatile, and
    // 16 bytes aligned to 2 only (a row whose length is not a multiple of
    // the vector width): .v4 would fault, NVPTX splits the plain load.
    // CHECK:      llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<8xbf16>
    // CHECK:      llvm.load %{{.*}} {alignment = 2 : i64, nontemporal} : !llvm.ptr -> bf16
    // CHECK:      llvm.load %{{.*}} {alignment = 16 : i64, nontemporal} : !llvm.ptr<3> -> vector<4xi32>
    // CHECK:      llvm.load volatile %{{.*}} {alignment = 4 : i64, nontemporal} : !llvm.ptr -> f32
    // CHECK:      llvm.load %{{.*}} {alignment = 2 : i64, nontemporal} : !llvm.ptr -> vector<8xbf16>
    // CHECK-NOT:  llvm.inline_asm
    %3 = llvm.load %p {alignment = 16 : i64} : !llvm.ptr -> vector<8xbf16>
    %4 = llvm.load %p {alignment = 2 : i64, nontemporal} : !llvm.ptr -> bf16
    %5 = llvm.load %s {alignment = 16 : i64, nontemporal} : !llvm.ptr<3> -> vector<4xi32>
    %6 = llvm.load volatile %p {alignment = 4 : i64, nontemporal} : !llvm.ptr -> f32
    %7 = llvm.load %p {alignment = 2 : i64, nontemporal} : !llvm.ptr -> vector<8xbf16>
    llvm.return %0 : vector<8xbf16>
  }

  // CHECK-LABEL: llvm.func @stores(
  llvm.func @stores(%p: !llvm.ptr, %v: vector<8xbf16>, %f: f32) {
    // CHECK:      %[[G:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<1>
    // CHECK:      %[[W:.*]] = llvm.bitcast %{{.*}} : vector<8xbf16> to vector<4xi32>
    // CHECK-COUNT-4: llvm.extractelement %[[W]]
    // CHECK:      llvm.inline_asm has_side_effects "st.global.cs.v4.b32 [$0], {$1, $2, $3, $4};", "l,r,r,r,r" %[[G]]
    llvm.store %v, %p {alignment = 16 : i64, nontemporal} : vector<8xbf16>, !llvm.ptr
    // CHECK:      llvm.inline_asm has_side_effects "st.global.cs.b32 [$0], $1;", "l,r"
    llvm.store %f, %p {alignment = 4 : i64, nontemporal} : f32, !llvm.ptr
    // CHECK:      llvm.store %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr
    // CHECK:      llvm.store %{{.*}} {alignment = 8 : i64, nontemporal} : vector<8xbf16>, !llvm.ptr
    // CHECK-NOT:  llvm.inline_asm
    llvm.store %v, %p {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr
    llvm.store %v, %p {alignment = 8 : i64, nontemporal} : vector<8xbf16>, !llvm.ptr
    llvm.return
  }
}

// A function marked hkg.load_eviction: its nontemporal loads take an L1 +
// L2 cache policy of that priority, made once at the entry and shared;
// stores keep the .cs form (hkg marks none of them under this attribute).
gpu.module @policy {
  // CHECK-LABEL: llvm.func @last(
  // CHECK:       %[[P:.*]] = llvm.inline_asm "createpolicy.fractional.L2::evict_last.b64 $0, 1.0;", "=l"  : () -> i64
  // CHECK-NOT:   createpolicy
  // CHECK:       llvm.inline_asm "ld.global.L1::evict_last.L2::cache_hint.v4.b32 {$0, $1, $2, $3}, [$4], $5;", "=r,=r,=r,=r,l,l" %{{.*}}, %[[P]]
  // CHECK:       llvm.inline_asm "ld.global.L1::evict_last.L2::cache_hint.b32 $0, [$1], $2;", "=r,l,l" %{{.*}}, %[[P]]
  // CHECK:       llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<8xbf16>
  llvm.func @last(%p: !llvm.ptr) -> vector<8xbf16> attributes {hkg.load_eviction = "last"} {
    %0 = llvm.load %p {alignment = 16 : i64, nontemporal} : !llvm.ptr -> vector<8xbf16>
    %1 = llvm.load %p {alignment = 4 : i64, nontemporal} : !llvm.ptr -> f32
    %2 = llvm.load %p {alignment = 16 : i64} : !llvm.ptr -> vector<8xbf16>
    llvm.return %0 : vector<8xbf16>
  }
  // CHECK-LABEL: llvm.func @first(
  // CHECK:       %[[P:.*]] = llvm.inline_asm "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;", "=l"
  // CHECK:       llvm.inline_asm "ld.global.L1::evict_first.L2::cache_hint.v2.b32 {$0, $1}, [$2], $3;", "=r,=r,l,l" %{{.*}}, %[[P]]
  llvm.func @first(%p: !llvm.ptr) -> vector<2xf32> attributes {hkg.load_eviction = "first"} {
    %0 = llvm.load %p {alignment = 8 : i64, nontemporal} : !llvm.ptr -> vector<2xf32>
    llvm.return %0 : vector<2xf32>
  }
}
