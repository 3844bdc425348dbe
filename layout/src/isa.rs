//! The x86_64 SIMD levels as one trait: [`Isa<T>`] is a level's vector of `T` with its lane
//! mask and the operations the GEMM kernels (micro-kernels, direct kernels, packers and the
//! straight-line small kernels) are written in, implemented once per level and element
//! type. The kernels are generic over it and instantiated inside a `#[target_feature]`
//! function of their level, into which these operations inline.

use core::arch::x86_64::*;

/// A SIMD level's vectors of `T`: `LANES` elements, a mask of lanes, and the operations of
/// the kernels. Masked loads read only the mask's lanes (the others are zero) and masked
/// stores write only those.
///
/// Every method is `unsafe`: the CPU must have the level's features (the kernels run only
/// from the `#[target_feature]` entries of their level, chosen by the detected level), and
/// the pointer methods access the lanes they name.
pub trait Isa<T>: Copy {
    /// One vector register of `T`.
    type V: Copy;
    /// A mask of lanes.
    type M: Copy;
    /// Elements per vector.
    const LANES: usize;
    /// A vector's lanes as an array (`[T; LANES]`).
    type Lanes: Copy + AsMut<[T]>;
    /// Two vectors' lanes as one array (`[T; 2·LANES]`).
    type Lanes2: Copy + AsMut<[T]>;

    /// The lanes of `v`, lane `i` at index `i`.
    fn lanes(v: Self::V) -> Self::Lanes;
    /// The vector of the lanes `a`.
    fn from_lanes(a: Self::Lanes) -> Self::V;
    /// The lanes of `v[0]` then those of `v[1]`.
    fn lanes2(v: [Self::V; 2]) -> Self::Lanes2;
    /// The two vectors of the lanes `a`.
    fn from_lanes2(a: Self::Lanes2) -> [Self::V; 2];

    /// # Safety
    /// The level's features.
    unsafe fn zero() -> Self::V;
    /// `x` in every lane.
    /// # Safety
    /// The level's features.
    unsafe fn splat(x: T) -> Self::V;
    /// # Safety
    /// The level's features; `LANES` elements readable at `p` (any alignment).
    unsafe fn load(p: *const T) -> Self::V;
    /// # Safety
    /// The level's features; `LANES` elements writable at `p` (any alignment).
    unsafe fn store(p: *mut T, v: Self::V);
    /// A non-temporal store (to memory, past the caches; ordered with other threads only
    /// after an `sfence`).
    /// # Safety
    /// The level's features; `LANES` elements writable at `p`, `p` aligned to the vector's
    /// size (`LANES·size_of::<T>()` bytes).
    unsafe fn stream(p: *mut T, v: Self::V);
    /// `a·b + c`, one rounding.
    /// # Safety
    /// The level's features.
    unsafe fn fma(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// # Safety
    /// The level's features.
    unsafe fn mul(a: Self::V, b: Self::V) -> Self::V;
    /// The mask of lanes `< n` (all of them for `n ≥ LANES`).
    /// # Safety
    /// The level's features.
    unsafe fn mask(n: usize) -> Self::M;
    /// # Safety
    /// The level's features; the mask's lanes readable at `p`.
    unsafe fn load_masked(p: *const T, m: Self::M) -> Self::V;
    /// # Safety
    /// The level's features; the mask's lanes writable at `p`.
    unsafe fn store_masked(p: *mut T, m: Self::M, v: Self::V);

    /// The first `n ≤ LANES` elements at `p`, zeros after (by default a plain load when
    /// `n = LANES`, else a masked one).
    /// # Safety
    /// The level's features; `n` elements readable at `p`.
    #[inline(always)]
    unsafe fn load_n(p: *const T, n: usize) -> Self::V {
        // SAFETY: the caller's: `n` readable elements, the mask's lanes.
        unsafe { if n >= Self::LANES { Self::load(p) } else { Self::load_masked(p, Self::mask(n)) } }
    }
    /// Stores the first `n ≤ LANES` lanes of `v` at `p` (by default a plain store when
    /// `n = LANES`, else a masked one).
    /// # Safety
    /// The level's features; `n` elements writable at `p`.
    #[inline(always)]
    unsafe fn store_n(p: *mut T, n: usize, v: Self::V) {
        // SAFETY: the caller's: `n` writable elements, the mask's lanes.
        unsafe { if n >= Self::LANES { Self::store(p, v) } else { Self::store_masked(p, Self::mask(n), v) } }
    }
}

/// AVX-512 (`zmm` registers, `k` masks): the kernels' entries enable
/// `avx512f,avx512bw,avx512vl,avx512dq,avx2,fma`; these operations need AVX-512F.
#[derive(Clone, Copy, Debug)]
pub struct Avx512;

/// AVX2 with FMA (`ymm` registers; masks are vectors of sign bits for `vmaskmov`).
#[derive(Clone, Copy, Debug)]
pub struct Avx2;

/// The element types with vectors at every level: `f32` and `f64`.
pub trait Element: Copy + Sized {
    /// This type's AVX-512 vectors ([`Avx512`]).
    type Avx512: Isa<Self>;
    /// This type's AVX2 vectors ([`Avx2`]).
    type Avx2: Isa<Self>;
}

impl Element for f32 {
    type Avx512 = Avx512;
    type Avx2 = Avx2;
}

impl Element for f64 {
    type Avx512 = Avx512;
    type Avx2 = Avx2;
}

/// `Isa`'s views of `$v` vectors as their `$lanes` lanes of `$t` (items of an `Isa` impl).
macro_rules! lane_views {
    ($t:ty, $v:ty, $lanes:literal) => {
        #[inline(always)]
        fn lanes(v: $v) -> [$t; $lanes] {
            // SAFETY: a vector is its lanes, in order (same size, every bit pattern valid).
            unsafe { core::mem::transmute::<$v, [$t; $lanes]>(v) }
        }
        #[inline(always)]
        fn from_lanes(a: [$t; $lanes]) -> $v {
            // SAFETY: an array of lanes is the vector (same size, every bit pattern valid).
            unsafe { core::mem::transmute::<[$t; $lanes], $v>(a) }
        }
        #[inline(always)]
        fn lanes2(v: [$v; 2]) -> [$t; 2 * $lanes] {
            // SAFETY: an array of two vectors is their lanes in order (same size, any bits).
            unsafe { core::mem::transmute::<[$v; 2], [$t; 2 * $lanes]>(v) }
        }
        #[inline(always)]
        fn from_lanes2(a: [$t; 2 * $lanes]) -> [$v; 2] {
            // SAFETY: the lanes of two vectors in order are the vectors (same size, any bits).
            unsafe { core::mem::transmute::<[$t; 2 * $lanes], [$v; 2]>(a) }
        }
    };
}

/// `Isa<$t>` for AVX-512: `$v` vectors of `$lanes`, `$m` masks.
macro_rules! avx512 {
    ($t:ty, $v:ty, $m:ty, $lanes:literal, $zero:ident, $set1:ident, $load:ident, $store:ident, $stream:ident, $fma:ident, $mul:ident,
     $mload:ident, $mstore:ident) => {
        impl Isa<$t> for Avx512 {
            type V = $v;
            type M = $m;
            const LANES: usize = $lanes;
            type Lanes = [$t; $lanes];
            type Lanes2 = [$t; 2 * $lanes];

            lane_views!($t, $v, $lanes);

            // SAFETY contract: the level's features (the callers').
            #[inline]
            #[target_feature(enable = "avx512f")]
            unsafe fn zero() -> $v {
                $zero()
            }
            // SAFETY contract: the level's features (the callers').
            #[inline]
            #[target_feature(enable = "avx512f")]
            unsafe fn splat(x: $t) -> $v {
                $set1(x)
            }
            // SAFETY contract: the level's features; `LANES` elements readable at `p`.
            #[inline]
            #[target_feature(enable = "avx512f")]
            unsafe fn load(p: *const $t) -> $v {
                // SAFETY: the caller's: `LANES` readable elements at `p`.
                unsafe { $load(p) }
            }
            // SAFETY contract: the level's features; `LANES` elements writable at `p`.
            #[inline]
            #[target_feature(enable = "avx512f")]
            unsafe fn store(p: *mut $t, v: $v) {
                // SAFETY: the caller's: `LANES` writable elements at `p`.
                unsafe { $store(p, v) }
            }
            // SAFETY contract: the level's features; `LANES` elements writable at `p`, aligned
            // to the vector.
            #[inline]
            #[target_feature(enable = "avx512f")]
            unsafe fn stream(p: *mut $t, v: $v) {
                // SAFETY: the caller's: `LANES` writable elements at `p`, aligned to the vector.
                unsafe { $stream(p, v) }
            }
            // SAFETY contract: the level's features (the callers').
            #[inline]
            #[target_feature(enable = "avx512f")]
            unsafe fn fma(a: $v, b: $v, c: $v) -> $v {
                $fma(a, b, c)
            }
            // SAFETY contract: the level's features (the callers').
            #[inline]
            #[target_feature(enable = "avx512f")]
            unsafe fn mul(a: $v, b: $v) -> $v {
                $mul(a, b)
            }
            // SAFETY contract: the level's features (the callers').
            #[inline]
            #[target_feature(enable = "avx512f")]
            unsafe fn mask(n: usize) -> $m {
                (((1u32 << n.min($lanes)) - 1) as $m)
            }
            // SAFETY contract: the level's features; the mask's lanes readable at `p`.
            #[inline]
            #[target_feature(enable = "avx512f")]
            unsafe fn load_masked(p: *const $t, m: $m) -> $v {
                // SAFETY: the caller's; masked-off lanes are not accessed.
                unsafe { $mload(m, p) }
            }
            // SAFETY contract: the level's features; the mask's lanes writable at `p`.
            #[inline]
            #[target_feature(enable = "avx512f")]
            unsafe fn store_masked(p: *mut $t, m: $m, v: $v) {
                // SAFETY: the caller's; masked-off lanes are not accessed.
                unsafe { $mstore(p, m, v) }
            }
            // Always masked: a mask register costs nothing here, and a run-time `n` would
            // otherwise be a branch per load.
            // SAFETY contract: the level's features; `n` elements readable at `p`.
            #[inline]
            #[target_feature(enable = "avx512f")]
            unsafe fn load_n(p: *const $t, n: usize) -> $v {
                // SAFETY: the caller's: `n` readable elements, the mask's lanes.
                unsafe { $mload(<Self as Isa<$t>>::mask(n), p) }
            }
            // SAFETY contract: the level's features; `n` elements writable at `p`.
            #[inline]
            #[target_feature(enable = "avx512f")]
            unsafe fn store_n(p: *mut $t, n: usize, v: $v) {
                // SAFETY: the caller's: `n` writable elements, the mask's lanes.
                unsafe { $mstore(p, <Self as Isa<$t>>::mask(n), v) }
            }
        }
    };
}

avx512!(
    f32,
    __m512,
    __mmask16,
    16,
    _mm512_setzero_ps,
    _mm512_set1_ps,
    _mm512_loadu_ps,
    _mm512_storeu_ps,
    _mm512_stream_ps,
    _mm512_fmadd_ps,
    _mm512_mul_ps,
    _mm512_maskz_loadu_ps,
    _mm512_mask_storeu_ps
);
avx512!(
    f64,
    __m512d,
    __mmask8,
    8,
    _mm512_setzero_pd,
    _mm512_set1_pd,
    _mm512_loadu_pd,
    _mm512_storeu_pd,
    _mm512_stream_pd,
    _mm512_fmadd_pd,
    _mm512_mul_pd,
    _mm512_maskz_loadu_pd,
    _mm512_mask_storeu_pd
);

/// Sign-bit masks for AVX2's `vmaskmov`: the 8 `i32` words from index `8 - w` have `w` set.
static AVX2_MASK: [i32; 16] = [-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0];

/// `Isa<$t>` for AVX2: `$v` vectors of `$lanes` lanes of `$words` 32-bit words each.
macro_rules! avx2 {
    ($t:ty, $v:ty, $lanes:literal, $words:literal, $zero:ident, $set1:ident, $load:ident, $store:ident, $stream:ident, $fma:ident,
     $mul:ident, $mload:ident, $mstore:ident) => {
        impl Isa<$t> for Avx2 {
            type V = $v;
            type M = __m256i;
            const LANES: usize = $lanes;
            type Lanes = [$t; $lanes];
            type Lanes2 = [$t; 2 * $lanes];

            lane_views!($t, $v, $lanes);

            // SAFETY contract: the level's features (the callers').
            #[inline]
            #[target_feature(enable = "avx2,fma")]
            unsafe fn zero() -> $v {
                $zero()
            }
            // SAFETY contract: the level's features (the callers').
            #[inline]
            #[target_feature(enable = "avx2,fma")]
            unsafe fn splat(x: $t) -> $v {
                $set1(x)
            }
            // SAFETY contract: the level's features; `LANES` elements readable at `p`.
            #[inline]
            #[target_feature(enable = "avx2,fma")]
            unsafe fn load(p: *const $t) -> $v {
                // SAFETY: the caller's: `LANES` readable elements at `p`.
                unsafe { $load(p) }
            }
            // SAFETY contract: the level's features; `LANES` elements writable at `p`.
            #[inline]
            #[target_feature(enable = "avx2,fma")]
            unsafe fn store(p: *mut $t, v: $v) {
                // SAFETY: the caller's: `LANES` writable elements at `p`.
                unsafe { $store(p, v) }
            }
            // SAFETY contract: the level's features; `LANES` elements writable at `p`, aligned
            // to the vector.
            #[inline]
            #[target_feature(enable = "avx2,fma")]
            unsafe fn stream(p: *mut $t, v: $v) {
                // SAFETY: the caller's: `LANES` writable elements at `p`, aligned to the vector.
                unsafe { $stream(p, v) }
            }
            // SAFETY contract: the level's features (the callers').
            #[inline]
            #[target_feature(enable = "avx2,fma")]
            unsafe fn fma(a: $v, b: $v, c: $v) -> $v {
                $fma(a, b, c)
            }
            // SAFETY contract: the level's features (the callers').
            #[inline]
            #[target_feature(enable = "avx2,fma")]
            unsafe fn mul(a: $v, b: $v) -> $v {
                $mul(a, b)
            }
            // SAFETY contract: the level's features (the callers').
            #[inline]
            #[target_feature(enable = "avx2,fma")]
            unsafe fn mask(n: usize) -> __m256i {
                let w = n.min($lanes) * $words;
                // SAFETY: `w ≤ 8`: the 8 words from index `8 - w` lie in the 16 of the table.
                unsafe { _mm256_loadu_si256(AVX2_MASK.as_ptr().add(8 - w).cast()) }
            }
            // SAFETY contract: the level's features; the mask's lanes readable at `p`.
            #[inline]
            #[target_feature(enable = "avx2,fma")]
            unsafe fn load_masked(p: *const $t, m: __m256i) -> $v {
                // SAFETY: the caller's; masked-off lanes are not accessed.
                unsafe { $mload(p, m) }
            }
            // SAFETY contract: the level's features; the mask's lanes writable at `p`.
            #[inline]
            #[target_feature(enable = "avx2,fma")]
            unsafe fn store_masked(p: *mut $t, m: __m256i, v: $v) {
                // SAFETY: the caller's; masked-off lanes are not accessed.
                unsafe { $mstore(p, m, v) }
            }
        }
    };
}

avx2!(
    f32,
    __m256,
    8,
    1,
    _mm256_setzero_ps,
    _mm256_set1_ps,
    _mm256_loadu_ps,
    _mm256_storeu_ps,
    _mm256_stream_ps,
    _mm256_fmadd_ps,
    _mm256_mul_ps,
    _mm256_maskload_ps,
    _mm256_maskstore_ps
);
avx2!(
    f64,
    __m256d,
    4,
    2,
    _mm256_setzero_pd,
    _mm256_set1_pd,
    _mm256_loadu_pd,
    _mm256_storeu_pd,
    _mm256_stream_pd,
    _mm256_fmadd_pd,
    _mm256_mul_pd,
    _mm256_maskload_pd,
    _mm256_maskstore_pd
);
