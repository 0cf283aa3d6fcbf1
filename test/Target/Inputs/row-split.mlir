// Row ops over a few long rows on sm_90, split over thread-block clusters
// (row_split with row_split_reduce = cluster, RowOpSchedules.cpp; their
// defaults split these rows through the workspace instead, since a
// cluster's slices would not fit its registers): rmsnorm and layernorm over
// 4 rows of 1M bf16, an online softmax over 2 rows of 1M f32 (its slices
// re-read, the running max and sum rescaled across the cluster), and a
// log_softmax over rows of odd length split in 4.
module attributes {hkg.target = #hkg.target<chip = "sm_90">} {
func.func @rmsnorm(%x: tensor<4x1048576xbf16>, %w: tensor<1048576xbf16>) -> tensor<4x1048576xbf16> {
  %0 = hkg.rmsnorm %x weight(%w : tensor<1048576xbf16>) eps(1.0e-06) {schedule = #hkg.schedule<row_split = 8, row_split_reduce = cluster, row_cache = none, threads = 1024>} : tensor<4x1048576xbf16> -> tensor<4x1048576xbf16>
  return %0 : tensor<4x1048576xbf16>
}
func.func @layernorm(%x: tensor<4x1048576xbf16>, %w: tensor<1048576xbf16>, %b: tensor<1048576xbf16>) -> tensor<4x1048576xbf16> {
  %0 = hkg.layernorm %x weight(%w : tensor<1048576xbf16>) bias(%b : tensor<1048576xbf16>) eps(1.0e-05) {schedule = #hkg.schedule<row_split = 8, row_split_reduce = cluster, row_cache = none, threads = 1024>} : tensor<4x1048576xbf16> -> tensor<4x1048576xbf16>
  return %0 : tensor<4x1048576xbf16>
}
func.func @softmax(%x: tensor<2x1048576xf32>) -> tensor<2x1048576xf32> {
  %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<row_split = 8, row_split_reduce = cluster, row_cache = none, threads = 1024>} : tensor<2x1048576xf32> -> tensor<2x1048576xf32>
  return %0 : tensor<2x1048576xf32>
}
func.func @log_softmax(%x: tensor<3x100003xf32>) -> tensor<3x100003xf32> {
  %0 = hkg.softmax log %x axis(1) {schedule = #hkg.schedule<row_split = 4, row_split_reduce = cluster, row_cache = none, threads = 1024>} : tensor<3x100003xf32> -> tensor<3x100003xf32>
  return %0 : tensor<3x100003xf32>
}
}
