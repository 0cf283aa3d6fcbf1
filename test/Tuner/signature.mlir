// The op signature the database and the pass key records by: generic form,
// one line, no schedule, no SSA names from the input.
// RUN: hkg-tune signature %s | FileCheck %s

// CHECK: "func.func"() <{function_type = (tensor<64x8192xf32>) -> tensor<64x8192xf32>, sym_name = "sig"}> ({ ^bb0(%arg0: tensor<64x8192xf32>): %0 = "hkg.softmax"(%arg0) <{axis = 1 : i64}> : (tensor<64x8192xf32>) -> tensor<64x8192xf32> "func.return"(%0) : (tensor<64x8192xf32>) -> () }) : () -> (){{$}}
// CHECK-NEXT: "func.func"() <{function_type = (tensor<64x8192xf32>) -> tensor<64x8192xf32>, sym_name = "sig"}> ({ ^bb0(%arg0: tensor<64x8192xf32>): %0 = "hkg.softmax"(%arg0) <{axis = 1 : i64}> : (tensor<64x8192xf32>) -> tensor<64x8192xf32> "func.return"(%0) : (tensor<64x8192xf32>) -> () }) : () -> (){{$}}
// CHECK-NEXT: "hkg.elementwise"(%arg0, %arg1) ({ ^bb0(%arg2: bf16, %arg3: bf16): %1 = "arith.addf"(%arg2, %arg3)
// CHECK-NOT: schedule
func.func @a(%x: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
  %0 = hkg.softmax %x axis(1) : tensor<64x8192xf32> -> tensor<64x8192xf32>
  return %0 : tensor<64x8192xf32>
}
func.func @b(%y: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
  %0 = hkg.softmax %y axis(1) {schedule = #hkg.schedule<threads = 128>} : tensor<64x8192xf32> -> tensor<64x8192xf32>
  return %0 : tensor<64x8192xf32>
}
func.func @c(%x: tensor<128xbf16>, %b: tensor<128xbf16>) -> tensor<128xbf16> {
  %0 = hkg.elementwise %x, %b : tensor<128xbf16>, tensor<128xbf16> -> tensor<128xbf16> {
  ^bb0(%p: bf16, %q: bf16):
    %s = arith.addf %p, %q : bf16
    hkg.yield %s : bf16
  }
  return %0 : tensor<128xbf16>
}
