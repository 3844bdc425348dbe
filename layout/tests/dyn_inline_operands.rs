//! Kernel items over layouts with symbols whose operands are written inline
//! (`copy((M,N):(1,M), RowMajor)`): the function takes a tensor of any trusted layout for an
//! inline operand (a `RuntimeLayout`, a dynamic item, a sub-tensor), reads the symbols from its
//! leaves and checks that the pattern with those values is its layout. Copies and GEMMs
//! (batched, a contraction over a multi-leaf K) on random sizes against scalar references;
//! a shared symbol with two values, and a layout that is not the pattern, are errors naming
//! the symbol or the pattern and the numbers.

use cute_layout::{PlanError, RuntimeLayout, Tensor, TensorMut, layout, parse_tiler};

layout! {
    pub ColMajor = (M,N):(1,LDS) where LDS >= M;
    pub RowMajor = (M,N):(LDD,1) where LDD >= N;
    pub Odd = (2,(M,N)):(1,(2,LDS)) where LDS >= 2*M;
    pub fn to_rm = copy((M,N):(1,M), RowMajor);
    pub fn strided = copy((M,N):(2,LDS), (M,N):(N,1));
    pub fn multi = copy(((2,M),N):((1,2),LDS), ((2,M),N):((N,2*N),1));
    pub fn from_cm = copy(ColMajor, (M,N):(N,1));
    pub fn line = copy(M:1, M:1);
    pub fn unpack = copy((4,6):(6,1), (M,N):(1,LD));
    pub fn regroup = copy((2*M,N):(1,2*M), ((2,M),N):((1,2),LDT));
    pub fn sg = gemm(f32, (M,K):(1,LDA), (N,K):(LDB,1), (M,N):(1,LDC));
    pub fn bg = gemm(f64, (M,K,L):(1,LDA,SA), (N,K,L):(K,1,SB), (M,N,L):(1,M,SC));
    pub fn contract = gemm(f64, (M,(K1,K2)):(1,(LDA,LDA*K1)), (N,(K1,K2)):(K1*K2,(1,K1)), (M,N):(1,M));
}

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// In `1..=n`.
    fn upto(&mut self, n: usize) -> usize {
        1 + (self.next() % n as u64) as usize
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

fn flat<const R: usize>(modes: &[(usize, isize)]) -> RuntimeLayout<R> {
    RuntimeLayout::new(modes).unwrap()
}

/// `dst[D(i)] == src[S(i)]` for every index, the other places of `dst` untouched (-1).
fn check_copy(src: &[f32], dst: &[f32], pairs: impl Iterator<Item = (usize, usize)>) {
    let mut written = vec![false; dst.len()];
    for (s, d) in pairs {
        assert_eq!(dst[d], src[s], "offset {d} from {s}");
        written[d] = true;
    }
    for (k, w) in written.iter().enumerate() {
        assert!(*w || dst[k] == -1.0, "offset {k} written");
    }
}

#[test]
fn transposes_from_any_layout_of_the_pattern() {
    let mut r = Rng(1);
    for round in 0..40 {
        let (m, n) = (r.upto(if round % 4 == 0 { 3 } else { 70 }), r.upto(70));
        let ldd = n + r.upto(3) - 1;
        let src: Vec<f32> = (0..m * n).map(|x| x as f32).collect();
        let mut dst = vec![-1f32; m * ldd];
        // A run-time layout, a dynamic item and a sub-tensor of a wider matrix.
        match round % 3 {
            0 => {
                let s = Tensor::new(&src, flat::<2>(&[(m, 1), (n, m as isize)])).unwrap();
                to_rm(&s, &mut TensorMut::new(&mut dst, RowMajor::new(m, n, ldd).unwrap()).unwrap());
            }
            1 => {
                let s = Tensor::new(&src, ColMajor::new(m, n, m).unwrap()).unwrap();
                to_rm(&s, &mut TensorMut::new(&mut dst, RowMajor::new(m, n, ldd).unwrap()).unwrap());
            }
            _ => {
                let s = Tensor::new(&src, ColMajor::new(m, n, m).unwrap()).unwrap();
                let whole = s.local_tile(&parse_tiler(&format!("[{m}:1,{n}:1]")).unwrap(), 0).unwrap();
                to_rm(&whole, &mut TensorMut::new(&mut dst, RowMajor::new(m, n, ldd).unwrap()).unwrap());
            }
        }
        check_copy(&src, &dst, (0..m * n).map(|i| (i, (i % m) * ldd + i / m)));
    }
}

#[test]
fn strided_and_multi_leaf_copies() {
    let mut r = Rng(2);
    for _ in 0..40 {
        let (m, n) = (r.upto(40), r.upto(40));
        let lds = 2 * m + r.upto(4) - 1;
        let src: Vec<f32> = (0..lds * n).map(|x| x as f32).collect();
        let mut dst = vec![-1f32; m * n];
        let s = Tensor::new(&src, flat::<2>(&[(m, 2), (n, lds as isize)])).unwrap();
        let mut d = TensorMut::new(&mut dst, flat::<2>(&[(m, n as isize), (n, 1)])).unwrap();
        strided(&s, &mut d);
        check_copy(&src, &dst, (0..m * n).map(|i| (2 * (i % m) + lds * (i / m), (i % m) * n + i / m)));

        // ((2,M),N):((1,2),LDS) into ((2,M),N):((N,2N),1), the source flat (a run-time
        // layout of three modes), the destination a dynamic item of the same nesting.
        let lds = 2 * m + r.upto(3) - 1;
        let src: Vec<f32> = (0..lds * n).map(|x| x as f32).collect();
        let mut dst = vec![-1f32; 2 * m * n];
        let s = Tensor::new(&src, flat::<3>(&[(2, 1), (m, 2), (n, lds as isize)])).unwrap();
        let mut d = TensorMut::new(&mut dst, flat::<3>(&[(2, n as isize), (m, 2 * n as isize), (n, 1)])).unwrap();
        multi(&s, &mut d);
        let pairs = (0..2 * m * n).map(|i| {
            let (a, b, c) = (i % 2, (i / 2) % m, i / (2 * m));
            (a + 2 * b + lds * c, a * n + b * 2 * n + c)
        });
        check_copy(&src, &dst, pairs);
    }
}

#[test]
fn a_symbol_only_inside_a_computed_extent_is_read_from_the_other_operand() {
    let mut r = Rng(7);
    for _ in 0..20 {
        let (m, n) = (r.upto(30), r.upto(30));
        let ldt = 2 * m + r.upto(3) - 1;
        let src: Vec<f32> = (0..2 * m * n).map(|x| x as f32).collect();
        let mut dst = vec![-1f32; ldt * n];
        let s = Tensor::new(&src, flat::<2>(&[(2 * m, 1), (n, 2 * m as isize)])).unwrap();
        let mut d = TensorMut::new(&mut dst, flat::<3>(&[(2, 1), (m, 2), (n, ldt as isize)])).unwrap();
        regroup(&s, &mut d);
        check_copy(&src, &dst, (0..2 * m * n).map(|i| (i, (i % (2 * m)) + ldt * (i / (2 * m)))));
    }
    // An odd extent is not 2*M for any M.
    let src = vec![0f32; 64];
    let mut dst = vec![0f32; 64];
    let s = Tensor::new(&src, flat::<2>(&[(5, 1), (2, 5)])).unwrap();
    let mut d = TensorMut::new(&mut dst, flat::<3>(&[(2, 1), (2, 2), (2, 6)])).unwrap();
    let e = try_regroup(&s, &mut d).unwrap_err();
    assert!(matches!(e, PlanError::Pattern { operand: "source", .. }), "{e}");
}

#[test]
fn named_and_inline_operands_share_symbols() {
    let mut r = Rng(3);
    for _ in 0..20 {
        let (m, n) = (r.upto(50), r.upto(50));
        let lds = m + r.upto(3) - 1;
        let src: Vec<f32> = (0..lds * n).map(|x| x as f32).collect();
        let mut dst = vec![-1f32; m * n];
        let s = Tensor::new(&src, ColMajor::new(m, n, lds).unwrap()).unwrap();
        from_cm(&s, &mut TensorMut::new(&mut dst, RowMajor::new(m, n, n).unwrap()).unwrap());
        check_copy(&src, &dst, (0..m * n).map(|i| ((i % m) + lds * (i / m), (i % m) * n + i / m)));
    }
    // A static inline operand: the tensor's layout must be it.
    let src: Vec<f32> = (0..24).map(|x| x as f32).collect();
    let mut dst = vec![-1f32; 4 * 7];
    let s = Tensor::new(&src, flat::<2>(&[(4, 6), (6, 1)])).unwrap();
    unpack(&s, &mut TensorMut::new(&mut dst, ColMajor::new(4, 6, 4).unwrap()).unwrap());
    check_copy(&src, &dst, (0..24).map(|i| ((i % 4) * 6 + i / 4, (i % 4) + 4 * (i / 4))));
    let other = Tensor::new(&src, flat::<2>(&[(4, 1), (6, 4)])).unwrap();
    let e = try_unpack(&other, &mut TensorMut::new(&mut dst, ColMajor::new(4, 6, 4).unwrap()).unwrap()).unwrap_err();
    assert!(matches!(e, PlanError::Pattern { operand: "source", pattern: "(4,6):(6,1)", .. }), "{e}");
}

fn gemm_ref(
    m: usize,
    n: usize,
    k: usize,
    a: impl Fn(usize, usize) -> f64,
    b: impl Fn(usize, usize) -> f64,
) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i + j * m] = (0..k).map(|p| a(i, p) * b(j, p)).sum();
        }
    }
    c
}

#[test]
fn sgemm_over_inline_operands() {
    let mut r = Rng(4);
    for round in 0..40 {
        let big = if round % 2 == 0 { 20 } else { 90 };
        let (m, n, k) = (r.upto(big), r.upto(big), r.upto(big));
        let (lda, ldb, ldc) = (m + r.upto(3) - 1, k + r.upto(3) - 1, m + r.upto(3) - 1);
        let a: Vec<f32> = (0..lda * k).map(|_| r.unit() as f32).collect();
        let b: Vec<f32> = (0..n * ldb).map(|_| r.unit() as f32).collect();
        let c0: Vec<f32> = (0..ldc * n).map(|_| r.unit() as f32).collect();
        let mut c = c0.clone();
        let (alpha, beta) = (1.5f32, if round % 3 == 0 { 0.0 } else { -0.5 });
        let ta = Tensor::new(&a, flat::<2>(&[(m, 1), (k, lda as isize)])).unwrap();
        let tb = Tensor::new(&b, flat::<2>(&[(n, ldb as isize), (k, 1)])).unwrap();
        let mut tc = TensorMut::new(&mut c, ColMajor::new(m, n, ldc).unwrap()).unwrap();
        sg(alpha, &ta, &tb, beta, &mut tc);
        let want = gemm_ref(m, n, k, |i, p| f64::from(a[i + p * lda]), |j, p| f64::from(b[j * ldb + p]));
        for j in 0..n {
            for i in 0..ldc {
                let got = f64::from(c[i + j * ldc]);
                let expect = if i < m {
                    f64::from(alpha) * want[i + j * m] + f64::from(beta) * f64::from(c0[i + j * ldc])
                } else {
                    f64::from(c0[i + j * ldc])
                };
                assert!((got - expect).abs() <= 1e-4 * (k as f64 + 1.0), "({i},{j}) of {m}x{n}x{k}: {got} vs {expect}");
            }
        }
        // The fused form over the same tensors: f(x, m, n) stored.
        let mut c2 = c0.clone();
        let mut tc = TensorMut::new(&mut c2, ColMajor::new(m, n, ldc).unwrap()).unwrap();
        sg_with(alpha, &ta, &tb, 0.0, &mut tc, |x, i, j| x + (i * 1000 + j) as f32);
        for j in 0..n {
            for i in 0..m {
                let expect = f64::from(alpha) * want[i + j * m] + (i * 1000 + j) as f64;
                let got = f64::from(c2[i + j * ldc]);
                assert!((got - expect).abs() <= 1e-3 * (k as f64 + 1.0), "with ({i},{j}): {got} vs {expect}");
            }
        }
    }
}

#[test]
fn sgemm_over_sub_tensors() {
    // CuTe's local_tile: 8x4 tiles of a run-time A, passed for `(M,K):(1,LDA)`.
    let mut r = Rng(5);
    let (m, k, lda) = (24, 12, 27);
    let a: Vec<f32> = (0..lda * k).map(|_| r.unit() as f32).collect();
    let b: Vec<f32> = (0..5 * 4).map(|_| r.unit() as f32).collect();
    let ta = Tensor::new(&a, ColMajor::new(m, k, lda).unwrap()).unwrap();
    let tiler = parse_tiler("[8:1,4:1]").unwrap();
    for t in 0..9 {
        let tile = ta.local_tile(&tiler, t).unwrap();
        let (ti, tp) = (t % 3, t / 3);
        let mut c = vec![0f32; 8 * 5];
        let tb = Tensor::new(&b, flat::<2>(&[(5, 4), (4, 1)])).unwrap();
        sg(1.0, &tile, &tb, 0.0, &mut TensorMut::new(&mut c, ColMajor::new(8, 5, 8).unwrap()).unwrap());
        let want =
            gemm_ref(8, 5, 4, |i, p| f64::from(a[(ti * 8 + i) + (tp * 4 + p) * lda]), |j, p| f64::from(b[j * 4 + p]));
        for (x, y) in c.iter().zip(&want) {
            assert!((f64::from(*x) - y).abs() < 1e-4, "tile {t}: {x} vs {y}");
        }
    }
}

#[test]
fn batched_and_contraction_gemms() {
    let mut r = Rng(6);
    for _ in 0..15 {
        let (m, n, k, l) = (r.upto(40), r.upto(40), r.upto(40), r.upto(4));
        let lda = m + r.upto(3) - 1;
        let (sa, sb, sc) = (lda * k + r.upto(3) - 1, n * k + r.upto(3) - 1, m * n + r.upto(3) - 1);
        let a: Vec<f64> = (0..sa * l).map(|_| r.unit()).collect();
        let b: Vec<f64> = (0..sb * l).map(|_| r.unit()).collect();
        let mut c = vec![7.0f64; sc * l];
        let ta = Tensor::new(&a, flat::<3>(&[(m, 1), (k, lda as isize), (l, sa as isize)])).unwrap();
        let tb = Tensor::new(&b, flat::<3>(&[(n, k as isize), (k, 1), (l, sb as isize)])).unwrap();
        let mut tc = TensorMut::new(&mut c, flat::<3>(&[(m, 1), (n, m as isize), (l, sc as isize)])).unwrap();
        bg(1.0, &ta, &tb, 0.0, &mut tc);
        for q in 0..l {
            let want = gemm_ref(m, n, k, |i, p| a[q * sa + i + p * lda], |j, p| b[q * sb + j * k + p]);
            for j in 0..n {
                for i in 0..m {
                    let got = c[q * sc + i + j * m];
                    assert!((got - want[i + j * m]).abs() < 1e-9 * (k as f64 + 1.0), "batch {q} ({i},{j})");
                }
            }
            // Padding between the batches is untouched.
            assert!(c[q * sc + m * n..(q + 1) * sc].iter().all(|&x| x == 7.0));
        }
    }
    for _ in 0..15 {
        // C(m,n) = Σ_{k1,k2} A(m,(k1,k2)) B(n,(k1,k2)), K a mode of two leaves.
        let (m, n, k1, k2) = (r.upto(30), r.upto(30), 1 + r.upto(6), r.upto(6));
        let lda = m + r.upto(3) - 1;
        let a: Vec<f64> = (0..lda * k1 * k2).map(|_| r.unit()).collect();
        let b: Vec<f64> = (0..n * k1 * k2).map(|_| r.unit()).collect();
        let mut c = vec![0.0f64; m * n];
        let ta = Tensor::new(&a, flat::<3>(&[(m, 1), (k1, lda as isize), (k2, (lda * k1) as isize)])).unwrap();
        let tb = Tensor::new(&b, flat::<3>(&[(n, (k1 * k2) as isize), (k1, 1), (k2, k1 as isize)])).unwrap();
        contract(1.0, &ta, &tb, 0.0, &mut TensorMut::new(&mut c, flat::<2>(&[(m, 1), (n, m as isize)])).unwrap());
        let want = gemm_ref(m, n, k1 * k2, |i, p| a[i + p * lda], |j, p| b[j * k1 * k2 + p]);
        for (x, y) in c.iter().zip(&want) {
            assert!((x - y).abs() < 1e-9 * (k1 * k2) as f64, "{x} vs {y}");
        }
    }
}

#[test]
fn mismatches_name_the_symbol_or_the_pattern() {
    let src = vec![0f32; 64];
    let mut dst = vec![0f32; 64];
    // A shared symbol with two values: N is 5 in the named source, 6 in the inline destination.
    let s = Tensor::new(&src, ColMajor::new(4, 5, 4).unwrap()).unwrap();
    let mut d = TensorMut::new(&mut dst, flat::<2>(&[(4, 6), (6, 1)])).unwrap();
    let e = try_from_cm(&s, &mut d).unwrap_err();
    assert!(matches!(e, PlanError::Symbol { symbol: "N", first: (_, _, 5), second: (_, _, 6), .. }), "{e}");
    let msg = e.to_string();
    assert!(msg.contains("`N` is 5 in the source (`ColMajor`) but 6 in the destination (`(M,N):(N,1)`)"), "{msg}");
    let err = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| from_cm(&s, &mut d))).unwrap_err();
    assert_eq!(err.downcast_ref::<String>().map(String::as_str), Some(msg.as_str()));

    // A stride that is not the pattern's: (M,N):(1,M) with M = 4 has column stride 4.
    let s = Tensor::new(&src, flat::<2>(&[(4, 1), (5, 5)])).unwrap();
    let mut d = TensorMut::new(&mut dst, RowMajor::new(4, 5, 5).unwrap()).unwrap();
    let e = try_to_rm(&s, &mut d).unwrap_err();
    assert!(matches!(e, PlanError::Pattern { operand: "source", pattern: "(M,N):(1,M)", .. }), "{e}");
    let msg = e.to_string();
    assert!(msg.contains("(4,5):(1,5)") && msg.contains("M = 4, N = 5") && msg.contains("(4,5):(1,4)"), "{msg}");
    // Three leaves for a pattern of two.
    let s = Tensor::new(&src, flat::<3>(&[(2, 1), (2, 2), (5, 4)])).unwrap();
    let e = try_to_rm(&s, &mut d).unwrap_err();
    assert!(e.to_string().contains("it has 3 leaves, the pattern 2"), "{e}");
    // The same leaves nested otherwise: (2,(M,N)) for ((2,M),N).
    let s = Tensor::new(&src, Odd::new(3, 4, 6).unwrap()).unwrap();
    let mut d = TensorMut::new(&mut dst, flat::<3>(&[(2, 4), (3, 8), (4, 1)])).unwrap();
    let e = try_multi(&s, &mut d).unwrap_err();
    assert!(matches!(e, PlanError::Pattern { operand: "source", .. }), "{e}");
    // A flat layout of those leaves is accepted.
    let s = Tensor::new(&src, flat::<3>(&[(2, 1), (3, 2), (4, 6)])).unwrap();
    try_multi(&s, &mut d).unwrap();
    // N read from the inline source (5) against the named destination's (6).
    let s = Tensor::new(&src, flat::<2>(&[(4, 1), (5, 4)])).unwrap();
    let mut d = TensorMut::new(&mut dst, RowMajor::new(4, 6, 6).unwrap()).unwrap();
    let e = try_to_rm(&s, &mut d).unwrap_err();
    assert!(matches!(e, PlanError::Symbol { symbol: "N", first: (_, _, 5), second: (_, _, 6), .. }), "{e}");
}

/// An empty tensor (an extent 0) is no pattern's layout: its `1:0` layout-core value must not
/// make it a view of one element.
#[test]
fn empty_operands_match_no_pattern() {
    let (src, mut dst) = ([1.0f32], [0.0f32]);
    let empty = flat::<1>(&[(0, 1)]);
    let e = try_line(&Tensor::new(&src, empty).unwrap(), &mut TensorMut::new(&mut dst, empty).unwrap()).unwrap_err();
    assert!(matches!(e, PlanError::Pattern { operand: "source", pattern: "M:1", .. }), "{e}");
    assert!(e.to_string().contains("`0 (empty)`: it is empty"), "{e}");
    assert_eq!(dst, [0.0]);
    let one = flat::<1>(&[(1, 1)]);
    try_line(&Tensor::new(&src, one).unwrap(), &mut TensorMut::new(&mut dst, one).unwrap()).unwrap();
    assert_eq!(dst, [1.0]);
}
