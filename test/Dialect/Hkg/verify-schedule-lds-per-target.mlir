// RUN: hkg-opt %s --hkg-verify-schedule=chip=gfx950 | FileCheck %s
// RUN: hkg-opt %s --hkg-verify-schedule=chip=gfx1250 | FileCheck %s
// RUN: hkg-opt %s --hkg-verify-schedule=chip=sm_90 | FileCheck %s
// RUN: hkg-opt %s --hkg-verify-schedule=chip=gfx942 --verify-diagnostics
// RUN: hkg-opt %s --hkg-verify-schedule=chip=gfx1201 --verify-diagnostics

// 8 rows of 8192 bf16 staged in LDS: 128 KiB. gfx950 has 160 KiB per
// workgroup, gfx1250 320 KiB, sm_90 227 KiB; gfx942 and gfx1201 have 64 KiB.

// CHECK-LABEL: func.func @rows_in_lds
// CHECK: row_cache = lds, rows_per_block = 8
func.func @rows_in_lds(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {
  // expected-error-re @below {{schedule knob 'row_cache' = lds needs 131072 bytes of LDS for 8 row(s) of 8192 elements; gfx{{942|1201}} has 65536}}
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<row_cache = lds, rows_per_block = 8, threads = 512>} : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
