// RUN: hkg-opt %s --hkg-verify-schedule=chip=gfx950 | FileCheck %s
// RUN: hkg-opt %s --hkg-verify-schedule=chip=gfx1250 | FileCheck %s
// RUN: hkg-opt %s --hkg-verify-schedule=chip=gfx942 --verify-diagnostics
// RUN: hkg-opt %s --hkg-verify-schedule=chip=gfx1201 --verify-diagnostics
// RUN: hkg-opt %s --hkg-verify-schedule=chip=sm_90 --verify-diagnostics

// 8 rows of 8192 bf16 staged in LDS: 128 KiB, plus 1 KiB of reduction scratch.
// gfx950 has 160 KiB per workgroup, gfx1250 320 KiB; gfx942 and gfx1201 have
// 64 KiB, and sm_90 allows 48 KiB of static shared memory per workgroup.

// CHECK-LABEL: func.func @rows_in_lds
// CHECK: row_cache = lds, rows_per_block = 8
func.func @rows_in_lds(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {
  // expected-error-re @below {{schedule knob 'row_cache' = lds needs 132096 bytes of LDS for 8 row(s) of 8192 elements and the reduction; {{gfx942 allows 65536|gfx1201 allows 65536|sm_90 allows 49152}} per workgroup}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<row_cache = lds, rows_per_block = 8, threads = 512>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
