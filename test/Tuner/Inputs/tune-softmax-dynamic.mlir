// A small softmax with dynamic rows for the device-measurer tests
// (fake-tune-compile.sh): tuned for 8 rows, its size hint.
module {
  func.func @softmax(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
    %0 = hkg.softmax %x axis(1) {hkg.size_hint = 8 : i64} : tensor<?x16xf32> -> tensor<?x16xf32>
    return %0 : tensor<?x16xf32>
  }
}
