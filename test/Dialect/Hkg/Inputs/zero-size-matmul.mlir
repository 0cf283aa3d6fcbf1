// A zero-size dim on a matmul (the lowering used to die on it with SIGFPE).
func.func @matmul_zero_m(%a: tensor<0x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<0x64xbf16> {
  %0 = hkg.matmul %a, %b : tensor<0x64xbf16>, tensor<64x64xbf16> -> tensor<0x64xbf16>
  return %0 : tensor<0x64xbf16>
}
