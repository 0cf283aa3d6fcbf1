// RUN: hkg-opt %s --split-input-file --hkg-raise-linalg --verify-diagnostics

// What hkg cannot express stays, with the reason.
func.func @diagonal(%x: tensor<64x64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  // expected-remark @below {{this linalg.generic is not raised to an hkg op: the hkg op it would become is invalid: 'hkg.elementwise' op indexing map #0 does not fit input #0 of shape [64, 64] to the result shape [64]: result dim d0 is used twice in (d0) -> (d0, d0)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<64x64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

func.func @non_adjacent(%x: tensor<8x16x32xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%c0 : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  // expected-remark @below {{this linalg.generic is not raised to an hkg op: it reduces loops that are not adjacent}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]} ins(%x : tensor<8x16x32xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

func.func @integer_sum(%x: tensor<8x16xi32>) -> tensor<8xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<8xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<8xi32>) -> tensor<8xi32>
  // expected-remark @below {{this linalg.generic is not raised to an hkg op: its combiner 'arith.addi' is not a float sum, product, max or min, nor an i1 and / or}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x16xi32>) outs(%f : tensor<8xi32>) {
  ^bb0(%in: i32, %acc: i32):
    %s = arith.addi %in, %acc : i32
    linalg.yield %s : i32
  } -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// -----

func.func @captured(%x: tensor<8x16xf32>, %s: f32) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  // expected-remark @below {{this linalg.generic is not raised to an hkg op: its body reads a value computed outside it (a block argument)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %s : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// A contraction whose body does more than multiply-accumulate (linalg's own
// check looks through unary ops, which hkg.matmul would drop).
func.func @negated_accumulate(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  // expected-remark @below {{this linalg.generic is not raised to an hkg op: its body is not `acc + a * b` (each operand perhaps widened by arith.extf): hkg.matmul would drop the rest}}
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    %n = arith.negf %s : f32
    linalg.yield %n : f32
  } -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

func.func @exp_operand(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>, %c: tensor<64x16xf32>) -> tensor<64x16xf32> {
  // expected-remark @below {{this linalg.generic is not raised to an hkg op: its body is not `acc + a * b`}}
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%c : tensor<64x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %e = math.exp %x : f32
    %p = arith.mulf %e, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

// -----

// An i1 and from false is false whatever it reads: not an all.
func.func @and_from_false(%x: tensor<8x64xf32>) -> tensor<8xi1> {
  %ninf = arith.constant 0xFF800000 : f32
  %false = arith.constant false
  %e = tensor.empty() : tensor<8xi1>
  %f = linalg.fill ins(%false : i1) outs(%e : tensor<8xi1>) -> tensor<8xi1>
  // expected-remark @below {{this linalg.generic is not raised to an hkg op: its init is not the constant true an i1 and starts from}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x64xf32>) outs(%f : tensor<8xi1>) {
  ^bb0(%in: f32, %acc: i1):
    %eq = arith.cmpf oeq, %in, %ninf : f32
    %a = arith.andi %eq, %acc : i1
    linalg.yield %a : i1
  } -> tensor<8xi1>
  return %r : tensor<8xi1>
}
