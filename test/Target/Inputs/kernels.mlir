// Hand-written gpu-dialect kernels in the shape hkg-lower-to-gpu produces
// (see the kernel contract in docs/ABI.md), used by the test/Target tests:
//  @hkg_softmax_0:     16-byte vector loads of vector<8xbf16> (with their
//                      alignment, as hkg-lower-to-gpu writes them), math.exp,
//                      gpu.subgroup_reduce, a workgroup (LDS) attribution,
//                      gpu.barrier, scf loops, known_block_size.
//  @hkg_elementwise_1: a SiLU over vector<8xbf16> without LDS.
module attributes {gpu.container_module} {
  gpu.module @hkg_softmax_0 {
    gpu.func @hkg_softmax_0(%in: memref<64x8192xbf16>, %out: memref<64x8192xbf16>)
        workgroup(%partial: memref<32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {
          known_block_size = array<i32: 256, 1, 1>,
          known_grid_size = array<i32: 64, 1, 1>,
          hkg.op = "hkg.softmax",
          hkg.schedule = #hkg.schedule<online = 0, row_cache = registers, rows_per_block = 1, threads = 256, unroll = 4, vector_width = 8>,
          hkg.arg_roles = ["input", "output"],
          hkg.source = "func.func @ref(%x: tensor<64x8192xbf16>) -> tensor<64x8192xbf16> {\0A  %0 = hkg.softmax %x axis(1) : tensor<64x8192xbf16> -> tensor<64x8192xbf16>\0A  return %0 : tensor<64x8192xbf16>\0A}\0A"} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c256 = arith.constant 256 : index
      %c2048 = arith.constant 2048 : index
      %ninf = arith.constant 0xFF800000 : f32
      %zero = arith.constant 0.0 : f32
      %one = arith.constant 1.0 : f32
      %row = gpu.block_id x
      %tid = gpu.thread_id x
      %lane = gpu.lane_id
      %ws = gpu.subgroup_size : index
      %wave = arith.divui %tid, %ws : index
      %nwaves = arith.divui %c256, %ws : index
      %base = arith.muli %tid, %c8 : index
      %isLane0 = arith.cmpi eq, %lane, %c0 : index
      // Row maximum.
      %tmax = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %ninf) -> (f32) {
        %off = arith.muli %i, %c2048 : index
        %col = arith.addi %base, %off : index
        %v = vector.load %in[%row, %col] {alignment = 16 : i64} : memref<64x8192xbf16>, vector<8xbf16>
        %vf = arith.extf %v : vector<8xbf16> to vector<8xf32>
        %r = vector.reduction <maxnumf>, %vf, %acc : vector<8xf32> into f32
        scf.yield %r : f32
      }
      %wmax = gpu.subgroup_reduce maxnumf %tmax : (f32) -> f32
      scf.if %isLane0 {
        memref.store %wmax, %partial[%wave] : memref<32xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %rowmax = scf.for %w = %c0 to %nwaves step %c1 iter_args(%acc = %ninf) -> (f32) {
        %p = memref.load %partial[%w] : memref<32xf32, #gpu.address_space<workgroup>>
        %m = arith.maxnumf %acc, %p : f32
        scf.yield %m : f32
      }
      gpu.barrier
      // Sum of exponentials.
      %vmax = vector.broadcast %rowmax : f32 to vector<8xf32>
      %tsum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
        %off = arith.muli %i, %c2048 : index
        %col = arith.addi %base, %off : index
        %v = vector.load %in[%row, %col] {alignment = 16 : i64} : memref<64x8192xbf16>, vector<8xbf16>
        %vf = arith.extf %v : vector<8xbf16> to vector<8xf32>
        %d = arith.subf %vf, %vmax : vector<8xf32>
        %e = math.exp %d : vector<8xf32>
        %r = vector.reduction <add>, %e, %acc : vector<8xf32> into f32
        scf.yield %r : f32
      }
      %wsum = gpu.subgroup_reduce add %tsum : (f32) -> f32
      scf.if %isLane0 {
        memref.store %wsum, %partial[%wave] : memref<32xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %rowsum = scf.for %w = %c0 to %nwaves step %c1 iter_args(%acc = %zero) -> (f32) {
        %p = memref.load %partial[%w] : memref<32xf32, #gpu.address_space<workgroup>>
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      %inv = arith.divf %one, %rowsum : f32
      %vinv = vector.broadcast %inv : f32 to vector<8xf32>
      // Normalize and store.
      scf.for %i = %c0 to %c4 step %c1 {
        %off = arith.muli %i, %c2048 : index
        %col = arith.addi %base, %off : index
        %v = vector.load %in[%row, %col] {alignment = 16 : i64} : memref<64x8192xbf16>, vector<8xbf16>
        %vf = arith.extf %v : vector<8xbf16> to vector<8xf32>
        %d = arith.subf %vf, %vmax : vector<8xf32>
        %e = math.exp %d : vector<8xf32>
        %y = arith.mulf %e, %vinv : vector<8xf32>
        %yb = arith.truncf %y : vector<8xf32> to vector<8xbf16>
        vector.store %yb, %out[%row, %col] {alignment = 16 : i64} : memref<64x8192xbf16>, vector<8xbf16>
      }
      gpu.return
    }
  }

  gpu.module @hkg_elementwise_1 {
    gpu.func @hkg_elementwise_1(%in: memref<1024x4096xbf16>, %out: memref<1024x4096xbf16>)
        kernel attributes {
          known_block_size = array<i32: 256, 1, 1>,
          known_grid_size = array<i32: 2048, 1, 1>,
          hkg.op = "hkg.elementwise",
          hkg.schedule = #hkg.schedule<threads = 256, unroll = 1, vector_width = 8>,
          hkg.arg_roles = ["input", "output"],
          hkg.source = "func.func @ref(%x: tensor<1024x4096xbf16>) -> tensor<1024x4096xbf16> {\0A  %0 = hkg.elementwise ins(%x : tensor<1024x4096xbf16>) {\0A  ^bb0(%a: bf16):\0A    %e = arith.extf %a : bf16 to f32\0A    %n = arith.negf %e : f32\0A    %x1 = math.exp %n : f32\0A    %c1 = arith.constant 1.0 : f32\0A    %d = arith.addf %x1, %c1 : f32\0A    %s = arith.divf %e, %d : f32\0A    %t = arith.truncf %s : f32 to bf16\0A    hkg.yield %t : bf16\0A  } -> tensor<1024x4096xbf16>\0A  return %0 : tensor<1024x4096xbf16>\0A}\0A"} {
      %c8 = arith.constant 8 : index
      %c256 = arith.constant 256 : index
      %c4096 = arith.constant 4096 : index
      %one = arith.constant dense<1.0> : vector<8xf32>
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %c256 : index
      %t = arith.addi %t0, %tid : index
      %idx = arith.muli %t, %c8 : index
      %row = arith.divui %idx, %c4096 : index
      %col = arith.remui %idx, %c4096 : index
      %v = vector.load %in[%row, %col] {alignment = 16 : i64} : memref<1024x4096xbf16>, vector<8xbf16>
      %x = arith.extf %v : vector<8xbf16> to vector<8xf32>
      %n = arith.negf %x : vector<8xf32>
      %e = math.exp %n : vector<8xf32>
      %d = arith.addf %e, %one : vector<8xf32>
      %s = arith.divf %x, %d : vector<8xf32>
      %y = arith.truncf %s : vector<8xf32> to vector<8xbf16>
      vector.store %y, %out[%row, %col] {alignment = 16 : i64} : memref<1024x4096xbf16>, vector<8xbf16>
      gpu.return
    }
  }
}
