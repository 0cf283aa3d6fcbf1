// hkg-compile attaches the target's default schedule to hkg ops that carry
// none; with --default-schedules=false, schedules are required.
// RUN: not hkg-compile %s --chip=gfx942 --default-schedules=false -o %t 2>&1 | FileCheck %s
// RUN: rm -rf %t && hkg-compile %s --chip=gfx942 -o %t
// RUN: FileCheck %s --check-prefix=DEFAULT --input-file=%t/manifest.json

// DEFAULT: "name": "hkg_softmax_0",
// DEFAULT-NEXT: "op": "hkg.softmax",
// DEFAULT: "schedule": {
// DEFAULT-NEXT: "occupancy": 0,
// DEFAULT-NEXT: "online": 0,
// DEFAULT-NEXT: "row_cache": "registers",
// DEFAULT-NEXT: "row_split": 1,
// DEFAULT-NEXT: "row_split_reduce": "workspace",
// DEFAULT-NEXT: "rows_per_block": 1,
// DEFAULT-NEXT: "threads": 256,
// DEFAULT-NEXT: "unroll": 4,
// DEFAULT-NEXT: "vector_width": 8
// DEFAULT-NEXT: },

func.func @softmax(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {
  // CHECK: [[@LINE+1]]:8: error: 'hkg.softmax' op has no schedule; run hkg-default-schedule or hkg-autotune first
  %0 = hkg.softmax %x axis(1) : tensor<64x8192xbf16> -> tensor<64x8192xbf16>
  return %0 : tensor<64x8192xbf16>
}
