// The same op with a static and a dynamic row (token) dim, one bundle:
// timed side by side at 4096 rows (RUNNER=hkg-run, --sizes=4096; docs/perf).
func.func @cross_entropy_static(%x: tensor<4096x32000xbf16>, %t: tensor<4096xi64>) -> tensor<4096xf32> {
  %0 = hkg.reduce logsumexp, sum %x ins(%t : tensor<4096xi64>) axes = [1] {indexing_maps = [affine_map<(d0, d1) -> (d0)>]} : tensor<4096x32000xbf16> -> tensor<4096xf32>
      prologue {
      ^bb0(%v: bf16, %tg: i64):
        %vf = arith.extf %v : bf16 to f32
        %j = hkg.index 1
        %ji = arith.index_cast %j : index to i64
        %hit = arith.cmpi eq, %ji, %tg : i64
        %zero = arith.constant 0.0 : f32
        %pick = arith.select %hit, %vf, %zero : f32
        hkg.yield %vf, %pick : f32, f32
      } epilogue {
      ^bb0(%l: f32, %p: f32):
        %r = arith.subf %l, %p : f32
        hkg.yield %r : f32
      }
  return %0 : tensor<4096xf32>
}
func.func @cross_entropy_dynamic(%x: tensor<?x32000xbf16>, %t: tensor<?xi64>) -> tensor<?xf32> {
  %0 = hkg.reduce logsumexp, sum %x ins(%t : tensor<?xi64>) axes = [1] {indexing_maps = [affine_map<(d0, d1) -> (d0)>]} : tensor<?x32000xbf16> -> tensor<?xf32>
      prologue {
      ^bb0(%v: bf16, %tg: i64):
        %vf = arith.extf %v : bf16 to f32
        %j = hkg.index 1
        %ji = arith.index_cast %j : index to i64
        %hit = arith.cmpi eq, %ji, %tg : i64
        %zero = arith.constant 0.0 : f32
        %pick = arith.select %hit, %vf, %zero : f32
        hkg.yield %vf, %pick : f32, f32
      } epilogue {
      ^bb0(%l: f32, %p: f32):
        %r = arith.subf %l, %p : f32
        hkg.yield %r : f32
      }
  return %0 : tensor<?xf32>
}
