// The copies the copy benches measure (`copy.rs`, criterion; `copy_ratio.rs`, interleaved).

use cute_layout::layout;

layout! {
    /// 4096 f32 = 16 KiB (L1).
    pub fn contiguous_l1 = copy(4096:1, 4096:1);
    /// 262144 f32 = 1 MiB (L2).
    pub fn contiguous_l2 = copy(262144:1, 262144:1);
    /// 16M f32 = 64 MiB (DRAM).
    pub fn contiguous_dram = copy(16777216:1, 16777216:1);
    /// 64-byte vectors (16 f32) out of a source with a gap after each: L1, L2, DRAM.
    pub fn vec64_l1 = copy((16,256):(1,32), (16,256):(1,16));
    pub fn vec64_l2 = copy((16,16384):(1,32), (16,16384):(1,16));
    pub fn vec64_dram = copy((16,1048576):(1,32), (16,1048576):(1,16));
    /// Column-major n x n to row-major n x n.
    pub fn transpose_256 = copy((256,256):(1,256), (256,256):(256,1));
    pub fn transpose_1024 = copy((1024,1024):(1,1024), (1024,1024):(1024,1));
    pub fn transpose_4096 = copy((4096,4096):(1,4096), (4096,4096):(4096,1));
    /// Every third element of the source, packed.
    pub fn gather3 = copy(65536:3, 65536:1);
    /// Packed into every third element.
    pub fn scatter3 = copy(65536:1, 65536:3);
    /// One row of 512 broadcast to 512 columns (256K f32).
    pub fn broadcast_rows = copy((512,512):(1,0), (512,512):(1,512));
    /// Table 2's gather, 16K times over: `(2,3,2):(42,1,128)` per block of 256.
    pub fn gather_table2 = copy(((2,3,2),4096):((42,1,128),256), (12,4096):(1,12));
}

/// The plain loops a careful person writes for the strided copies above (the peers).
pub mod plain {
    /// `gather3`: every third element, packed.
    pub fn gather3(s: &[f32], d: &mut [f32]) {
        for (x, y) in d.iter_mut().zip(s.iter().step_by(3)) {
            *x = *y;
        }
    }

    /// `scatter3`: packed into every third element.
    pub fn scatter3(s: &[f32], d: &mut [f32]) {
        for (x, y) in d.iter_mut().step_by(3).zip(s) {
            *x = *y;
        }
    }

    /// `broadcast_rows`: one row copied into each column.
    pub fn broadcast_rows(s: &[f32], d: &mut [f32]) {
        for col in d.chunks_exact_mut(s.len()) {
            col.copy_from_slice(s);
        }
    }

    /// `gather_table2`: Table 2's gather per block of 256, unrolled by the compiler.
    pub fn gather_table2(s: &[f32], d: &mut [f32]) {
        for (blk, out) in d.chunks_exact_mut(12).enumerate() {
            let base = &s[256 * blk..];
            for k in 0..2 {
                for j in 0..3 {
                    for i in 0..2 {
                        out[i + 2 * j + 6 * k] = base[42 * i + j + 128 * k];
                    }
                }
            }
        }
    }

    /// `vec64_*`: the 64-byte vectors, one `copy_from_slice` each.
    pub fn vec64(s: &[f32], d: &mut [f32]) {
        for (k, chunk) in d.chunks_exact_mut(16).enumerate() {
            chunk.copy_from_slice(&s[32 * k..32 * k + 16]);
        }
    }
}
