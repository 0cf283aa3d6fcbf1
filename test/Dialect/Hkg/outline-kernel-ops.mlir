// RUN: hkg-opt %s --split-input-file --hkg-outline-kernel-ops --verify-diagnostics | FileCheck %s

// Each hkg op moves into a private function of its own, in order after the
// function; the ops hkg does not compute stay where they are.
// CHECK-LABEL: func.func @mixed(
// CHECK-SAME:    %[[X:.*]]: tensor<64x1024xf32>, %[[W:.*]]: tensor<1024xf32>
// CHECK:         %[[S:.*]] = call @mixed_hkg_0(%[[X]]) : (tensor<64x1024xf32>) -> tensor<64x1024xf32>
// CHECK:         %[[A:.*]] = arith.addf %[[S]], %[[X]] : tensor<64x1024xf32>
// CHECK:         %[[N:.*]] = call @mixed_hkg_1(%[[A]], %[[W]]) : (tensor<64x1024xf32>, tensor<1024xf32>) -> tensor<64x1024xf32>
// CHECK:         return %[[N]]
// CHECK:       func.func private @mixed_hkg_0(%[[A0:.*]]: tensor<64x1024xf32>) -> tensor<64x1024xf32> attributes {hkg.outlined} {
// CHECK-NEXT:    %[[R:.*]] = hkg.softmax %[[A0]] axis(1)
// CHECK-NEXT:    return %[[R]]
// CHECK:       func.func private @mixed_hkg_1(%[[B0:.*]]: tensor<64x1024xf32>, %[[B1:.*]]: tensor<1024xf32>) -> tensor<64x1024xf32> attributes {hkg.outlined} {
// CHECK-NEXT:    %[[R:.*]] = hkg.rmsnorm %[[B0]] weight(%[[B1]] : tensor<1024xf32>)
// CHECK-NEXT:    return %[[R]]
func.func @mixed(%x: tensor<64x1024xf32>, %w: tensor<1024xf32>) -> tensor<64x1024xf32> {
  %s = hkg.softmax %x axis(1) : tensor<64x1024xf32> -> tensor<64x1024xf32>
  %a = arith.addf %s, %x : tensor<64x1024xf32>
  %n = hkg.rmsnorm %a weight(%w : tensor<1024xf32>) eps(1.0e-06) : tensor<64x1024xf32> -> tensor<64x1024xf32>
  return %n : tensor<64x1024xf32>
}

// -----

// Operands that are static views (slices, reshapes) are taken at their root,
// the views copied in: the kernel reads the root's buffer in place. Two
// operands of one root give one argument; views left unused are erased, a
// view something else reads stays.
// CHECK-LABEL: func.func @views(
// CHECK-SAME:    %[[QKV:.*]]: tensor<64x384xf32>
// CHECK-NEXT:    %[[K:.*]] = tensor.extract_slice %[[QKV]][0, 128] [64, 128] [1, 1]
// CHECK-NEXT:    %[[Q:.*]] = call @views_hkg_0(%[[QKV]]) : (tensor<64x384xf32>) -> tensor<64x128xf32>
// CHECK-NEXT:    %[[Y:.*]] = call @views_hkg_1(%[[QKV]]) : (tensor<64x384xf32>) -> tensor<64x128xf32>
// CHECK:         return %[[Q]], %[[K]], %[[Y]]
// CHECK:       func.func private @views_hkg_0(%[[A:.*]]: tensor<64x384xf32>) -> tensor<64x128xf32> attributes {hkg.outlined} {
// CHECK-NEXT:    %[[SL:.*]] = tensor.extract_slice %[[A]][0, 0] [64, 128] [1, 1]
// CHECK-NEXT:    %[[R:.*]] = hkg.softmax %[[SL]] axis(1)
// CHECK:       func.func private @views_hkg_1(%[[A:.*]]: tensor<64x384xf32>) -> tensor<64x128xf32> attributes {hkg.outlined} {
// CHECK-NEXT:    %[[K1:.*]] = tensor.extract_slice %[[A]][0, 128] [64, 128] [1, 1]
// CHECK-NEXT:    %[[V1:.*]] = tensor.extract_slice %[[A]][0, 256] [64, 128] [1, 1]
// CHECK-NEXT:    %[[R:.*]] = hkg.elementwise %[[K1]], %[[V1]]
func.func @views(%qkv: tensor<64x384xf32>) -> (tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>) {
  %q = tensor.extract_slice %qkv[0, 0] [64, 128] [1, 1] : tensor<64x384xf32> to tensor<64x128xf32>
  %k = tensor.extract_slice %qkv[0, 128] [64, 128] [1, 1] : tensor<64x384xf32> to tensor<64x128xf32>
  %v = tensor.extract_slice %qkv[0, 256] [64, 128] [1, 1] : tensor<64x384xf32> to tensor<64x128xf32>
  %s = hkg.softmax %q axis(1) : tensor<64x128xf32> -> tensor<64x128xf32>
  %y = hkg.elementwise %k, %v : tensor<64x128xf32>, tensor<64x128xf32> -> tensor<64x128xf32> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    hkg.yield %m : f32
  }
  return %s, %k, %y : tensor<64x128xf32>, tensor<64x128xf32>, tensor<64x128xf32>
}

// -----

// A function without hkg ops, and the outlined functions themselves, are
// left alone; a name in use gets a fresh one.
// CHECK-LABEL: func.func @host_only(
// CHECK-NEXT:    arith.addf
// CHECK-LABEL: func.func @f(
// CHECK:         call @f_hkg_0_0(
// CHECK:       func.func private @f_hkg_0_0(
// CHECK:       func.func private @f_hkg_0(
func.func @host_only(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = arith.addf %x, %x : tensor<8xf32>
  return %a : tensor<8xf32>
}
func.func @f(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %s = hkg.softmax %x axis(1) : tensor<64x128xf32> -> tensor<64x128xf32>
  return %s : tensor<64x128xf32>
}
func.func private @f_hkg_0(%x: tensor<8xf32>) -> tensor<8xf32>

// -----

// The marker belongs on functions.
func.func @misplaced(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{'arith.addf' op expected 'hkg.outlined' on a function only}}
  %a = arith.addf %x, %x {hkg.outlined} : tensor<8xf32>
  return %a : tensor<8xf32>
}

// -----

// A constant a region reads moves in with a copy; any other value from
// outside cannot.
// CHECK-LABEL: func.func @captured_constant(
// CHECK:       func.func private @captured_constant_hkg_0(
// CHECK-NEXT:    %[[C:.*]] = arith.constant 2.0
// CHECK-NEXT:    hkg.elementwise
// CHECK:           arith.mulf %{{.*}}, %[[C]]
func.func @captured_constant(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %c = arith.constant 2.0 : f32
  %y = hkg.elementwise %x : tensor<64x128xf32> -> tensor<64x128xf32> {
  ^bb0(%a: f32):
    %m = arith.mulf %a, %c : f32
    hkg.yield %m : f32
  }
  return %y : tensor<64x128xf32>
}

// -----

func.func @captured_argument(%x: tensor<64x128xf32>, %s: f32) -> tensor<64x128xf32> {
  // expected-error @below {{'hkg.elementwise' op has a region that reads argument #1 of its function, defined outside it and no constant: the op cannot move into a function of its own}}
  %y = hkg.elementwise %x : tensor<64x128xf32> -> tensor<64x128xf32> {
  ^bb0(%a: f32):
    %m = arith.mulf %a, %s : f32
    hkg.yield %m : f32
  }
  return %y : tensor<64x128xf32>
}
