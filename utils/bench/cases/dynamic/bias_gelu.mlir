// The same op with a static and a dynamic row (token) dim, one bundle:
// timed side by side at 4096 rows (RUNNER=hkg-run, --sizes=4096; docs/perf).
func.func @bias_gelu_static(%x: tensor<4096x8192xbf16>, %b: tensor<8192xbf16>) -> tensor<4096x8192xbf16> {
  %0 = hkg.elementwise %x, %b : tensor<4096x8192xbf16>, tensor<8192xbf16> -> tensor<4096x8192xbf16> {
  ^bb0(%a: bf16, %c: bf16):
    %af = arith.extf %a : bf16 to f32
    %cf = arith.extf %c : bf16 to f32
    %v = arith.addf %af, %cf : f32
    %h = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k = arith.constant 0.7978845608 : f32
    %c3 = arith.constant 0.044715 : f32
    %x2 = arith.mulf %v, %v : f32
    %x3 = arith.mulf %x2, %v : f32
    %t0 = arith.mulf %c3, %x3 : f32
    %t1 = arith.addf %v, %t0 : f32
    %t2 = arith.mulf %k, %t1 : f32
    %th = math.tanh %t2 : f32
    %t3 = arith.addf %one, %th : f32
    %t4 = arith.mulf %v, %t3 : f32
    %r = arith.mulf %h, %t4 : f32
    %o = arith.truncf %r : f32 to bf16
    hkg.yield %o : bf16
  }
  return %0 : tensor<4096x8192xbf16>
}
func.func @bias_gelu_dynamic(%x: tensor<?x8192xbf16>, %b: tensor<8192xbf16>) -> tensor<?x8192xbf16> {
  %0 = hkg.elementwise %x, %b : tensor<?x8192xbf16>, tensor<8192xbf16> -> tensor<?x8192xbf16> {
  ^bb0(%a: bf16, %c: bf16):
    %af = arith.extf %a : bf16 to f32
    %cf = arith.extf %c : bf16 to f32
    %v = arith.addf %af, %cf : f32
    %h = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k = arith.constant 0.7978845608 : f32
    %c3 = arith.constant 0.044715 : f32
    %x2 = arith.mulf %v, %v : f32
    %x3 = arith.mulf %x2, %v : f32
    %t0 = arith.mulf %c3, %x3 : f32
    %t1 = arith.addf %v, %t0 : f32
    %t2 = arith.mulf %k, %t1 : f32
    %th = math.tanh %t2 : f32
    %t3 = arith.addf %one, %th : f32
    %t4 = arith.mulf %v, %t3 : f32
    %r = arith.mulf %h, %t4 : f32
    %o = arith.truncf %r : f32 to bf16
    hkg.yield %o : bf16
  }
  return %0 : tensor<?x8192xbf16>
}
