// Zero-shot picks from the fixture policy model (Inputs/policy.json, trained
// by `hkg-tune train` on SYNTHETIC records; see docs/Tuning.md), and from a
// policy trained from the database when no model is given.
// RUN: hkg-opt %s --hkg-autotune="device=none model=%S/Inputs/policy.json" -verify-diagnostics | FileCheck %s --check-prefix=MODEL
// RUN: hkg-opt %s --hkg-autotune="device=none model=%S/Inputs/policy.json" -verify-diagnostics > %t.first
// RUN: hkg-opt %s --hkg-autotune="device=none model=%S/Inputs/policy.json" -verify-diagnostics | diff %t.first -
// RUN: rm -f %t.sqlite
// RUN: hkg-tune import --db %t.sqlite %S/Inputs/records.jsonl --allow-illegal-knobs
// RUN: hkg-opt %s --hkg-autotune="device=none db=%t.sqlite" --mlir-disable-threading 2>&1 >/dev/null | FileCheck %s --check-prefix=DB

module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
  // MODEL-LABEL: func.func @layernorm
  func.func @layernorm(%x: tensor<2048x8192xbf16>, %w: tensor<8192xbf16>, %b: tensor<8192xbf16>) -> tensor<2048x8192xbf16> {
    // DB: remark: hkg-autotune: device=none; picked zero-shot by a policy trained from the database among 512 legal candidates
    // MODEL: hkg.layernorm {{.*}} {schedule = #hkg.schedule<bulk_store = 0, moments = separate, occupancy = 0, row_cache = registers, row_split = 1, row_split_reduce = cluster, row_steps = 1, rows_per_block = 1, threads = 256, unroll = 4, vector_width = 8>}
    // expected-remark @below {{hkg-autotune: device=none; picked zero-shot by the policy model}}
    %0 = hkg.layernorm %x weight(%w : tensor<8192xbf16>) bias(%b : tensor<8192xbf16>) eps(1.0e-05) : tensor<2048x8192xbf16> -> tensor<2048x8192xbf16>
    return %0 : tensor<2048x8192xbf16>
  }
}
