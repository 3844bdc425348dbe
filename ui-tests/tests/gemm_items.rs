//! GEMM items (`pub fn NAME = gemm(T, A, B, C);`): small fully static ones (M, N, K ≤ 32,
//! the straight-line kernel) and larger ones (the facade's blocked GEMM inside the loops over
//! the leaves it does not take), against a naive f64 reference with the error bound
//! `k·ε·Σ|A||B|` per element, for the four transposition variants, strided C, sizes that are
//! not multiples of anything, alpha and beta including 0 (beta = 0 with NaN in C), f32 and
//! f64, at every dispatch level the CPU has.

use cute_layout::kernels::{Level, force_level, level};
use cute_layout::layout;
use layout_core::{Layout, parse_layout};

layout! {
    // NN: A (M,K) column-major, B (N,K) with k contiguous (B as K x N column-major).
    pub fn nn_4 = gemm(f32, (4,4):(1,4), (4,4):(4,1), (4,4):(1,4));
    pub fn nn_8 = gemm(f32, (8,8):(1,8), (8,8):(8,1), (8,8):(1,8));
    pub fn nn_16 = gemm(f64, (16,16):(1,16), (16,16):(16,1), (16,16):(1,16));
    pub fn nn_32 = gemm(f32, (32,32):(1,32), (32,32):(32,1), (32,32):(1,32));
    // Register tiles of balanced widths: 32 f64 columns as 5,5,6,5,5,6; 23 as 5,6,6,6.
    pub fn nn_32_f64 = gemm(f64, (32,32):(1,32), (32,32):(32,1), (32,32):(1,32));
    pub fn nn_29x23x31 = gemm(f64, (29,31):(1,29), (23,31):(31,1), (29,23):(1,29));
    // f32 with a partial last vector of rows (AVX2: 3 full ymm and 3 rows; 1 full and 5).
    pub fn nn_27x13x9 = gemm(f32, (27,9):(1,27), (13,9):(9,1), (27,13):(1,27));
    pub fn nn_13x32x7 = gemm(f32, (13,7):(1,13), (32,7):(7,1), (13,32):(1,13));
    // TN, NT, TT: A row-major (A's M stride K), B with n contiguous.
    pub fn tn_5x7x3 = gemm(f32, (5,3):(3,1), (7,3):(3,1), (5,7):(1,5));
    pub fn nt_5x7x3 = gemm(f64, (5,3):(1,5), (7,3):(1,7), (5,7):(1,5));
    pub fn tt_9x6x11 = gemm(f32, (9,11):(11,1), (6,11):(1,6), (9,6):(1,9));
    // Row-major C with a padded leading dimension.
    pub fn strided_c = gemm(f64, (7,13):(1,7), (10,13):(13,1), (7,10):(12,1));
    // Column vector times row vector (K = 1), and a dot product (M = N = 1).
    pub fn outer = gemm(f32, (17,1):(1,17), (19,1):(1,19), (17,19):(1,17));
    pub fn dot = gemm(f64, (1,31):(31,1), (1,31):(31,1), (1,1):(1,1));
    // 2-D convolution of a 6x6 input by two 3x3 filters through an im2col layout (no copy).
    pub fn conv = gemm(f32, ((4,4),(3,3)):((1,6),(1,6)), (2,(3,3)):(9,(1,3)), ((4,4),2):((1,4),16));
    // A tensor contraction C(a,b,c) = A(a,k,c)·B(k,b), M = (a,c) folded.
    pub fn contraction = gemm(f64, ((4,3),6):((1,24),4), (5,6):(6,1), ((4,3),5):((1,20),4));
    // A batch of 3 small products.
    pub fn batched = gemm(f32, (8,4,3):(1,8,32), (5,4,3):(4,1,20), (8,5,3):(1,10,50));
    // Larger than the small kernel: the blocked GEMM, NN and TT, and with K split over two
    // leaves (a convolution with 4 input channels of 10x10 and 5 3x3 filters: K = (3,3,4)).
    pub fn big_nn = gemm(f32, (100,70):(1,100), (80,70):(70,1), (100,80):(1,100));
    pub fn big_tt = gemm(f64, (67,45):(45,1), (53,45):(1,53), (67,53):(1,67));
    pub fn big_conv = gemm(f32, ((8,8),((3,3),4)):((1,10),((1,10),100)), (5,((3,3),4)):(36,((1,3),9)), ((8,8),5):((1,8),64));
}

type Kernel<T> = fn(T, &[T], &[T], T, &mut [T]);

fn extent(l: &Layout) -> usize {
    l.cosize().unwrap() as usize
}

fn check<T>(a: &str, b: &str, c: &str, kernel: Kernel<T>, to: fn(f64) -> T, from: fn(T) -> f64, eps: f64)
where
    T: Copy,
{
    let (la, lb, lc) = (parse_layout(a).unwrap(), parse_layout(b).unwrap(), parse_layout(c).unwrap());
    let shape = |l: &Layout, i: usize| l.mode(i).unwrap().size() as usize;
    let (m, k, n) = (shape(&la, 0), shape(&la, 1), shape(&lb, 0));
    let crd = |l: &Layout, i: usize, j: usize| l.eval((i + j * shape(l, 0)) as i64).unwrap() as usize;
    let va: Vec<T> = (0..extent(&la)).map(|x| to(((x * 7 % 13) as f64 - 6.0) / 4.0)).collect();
    let vb: Vec<T> = (0..extent(&lb)).map(|x| to(((x * 5 % 11) as f64 - 5.0) / 3.0)).collect();
    for (alpha, beta) in [(1.0, 0.0), (-1.5, 0.0), (0.5, 2.0), (0.0, 1.5), (-1.25, -0.5)] {
        let mut vc: Vec<T> =
            (0..extent(&lc)).map(|x| if beta == 0.0 { to(f64::NAN) } else { to((x % 5) as f64 - 2.0) }).collect();
        let before: Vec<f64> = vc.iter().map(|&x| from(x)).collect();
        kernel(to(alpha), &va, &vb, to(beta), &mut vc);
        for i in 0..m {
            for j in 0..n {
                let (mut sum, mut mag) = (0.0, 0.0);
                for p in 0..k {
                    let (x, y) = (from(va[crd(&la, i, p)]), from(vb[crd(&lb, j, p)]));
                    sum += x * y;
                    mag += (x * y).abs();
                }
                let o = crd(&lc, i, j);
                let want = alpha * sum + if beta == 0.0 { 0.0 } else { beta * before[o] };
                let got = from(vc[o]);
                let bound =
                    (k as f64 + 2.0) * eps * (alpha.abs() * mag + beta.abs() * before[o].abs().min(1e300)) + 1e-30;
                assert!(
                    (got - want).abs() <= bound,
                    "gemm({a}, {b}, {c}) at level {:?}, alpha {alpha}, beta {beta}: C({i},{j}) = {got}, want {want}",
                    level()
                );
            }
        }
    }
}

fn check32(a: &str, b: &str, c: &str, kernel: Kernel<f32>) {
    check(a, b, c, kernel, |x| x as f32, |x| x as f64, f32::EPSILON as f64);
}

fn check64(a: &str, b: &str, c: &str, kernel: Kernel<f64>) {
    check(a, b, c, kernel, |x| x, |x| x, f64::EPSILON);
}

#[test]
fn gemm_items_match_the_reference_at_every_level() {
    let detected = level();
    for l in [Level::Portable, Level::Avx2, Level::Avx512].into_iter().filter(|&l| l <= detected) {
        force_level(l);
        check32("(4,4):(1,4)", "(4,4):(4,1)", "(4,4):(1,4)", |al, a, b, be, c| nn_4(al, a, b, be, c));
        check32("(8,8):(1,8)", "(8,8):(8,1)", "(8,8):(1,8)", |al, a, b, be, c| nn_8(al, a, b, be, c));
        check64("(16,16):(1,16)", "(16,16):(16,1)", "(16,16):(1,16)", |al, a, b, be, c| nn_16(al, a, b, be, c));
        check32("(32,32):(1,32)", "(32,32):(32,1)", "(32,32):(1,32)", |al, a, b, be, c| nn_32(al, a, b, be, c));
        check64("(32,32):(1,32)", "(32,32):(32,1)", "(32,32):(1,32)", |al, a, b, be, c| nn_32_f64(al, a, b, be, c));
        check64("(29,31):(1,29)", "(23,31):(31,1)", "(29,23):(1,29)", |al, a, b, be, c| nn_29x23x31(al, a, b, be, c));
        check32("(27,9):(1,27)", "(13,9):(9,1)", "(27,13):(1,27)", |al, a, b, be, c| nn_27x13x9(al, a, b, be, c));
        check32("(13,7):(1,13)", "(32,7):(7,1)", "(13,32):(1,13)", |al, a, b, be, c| nn_13x32x7(al, a, b, be, c));
        check32("(5,3):(3,1)", "(7,3):(3,1)", "(5,7):(1,5)", |al, a, b, be, c| tn_5x7x3(al, a, b, be, c));
        check64("(5,3):(1,5)", "(7,3):(1,7)", "(5,7):(1,5)", |al, a, b, be, c| nt_5x7x3(al, a, b, be, c));
        check32("(9,11):(11,1)", "(6,11):(1,6)", "(9,6):(1,9)", |al, a, b, be, c| tt_9x6x11(al, a, b, be, c));
        check64("(7,13):(1,7)", "(10,13):(13,1)", "(7,10):(12,1)", |al, a, b, be, c| strided_c(al, a, b, be, c));
        check32("(17,1):(1,17)", "(19,1):(1,19)", "(17,19):(1,17)", |al, a, b, be, c| outer(al, a, b, be, c));
        check64("(1,31):(31,1)", "(1,31):(31,1)", "(1,1):(1,1)", |al, a, b, be, c| dot(al, a, b, be, c));
        check32("((4,4),(3,3)):((1,6),(1,6))", "(2,(3,3)):(9,(1,3))", "((4,4),2):((1,4),16)", |al, a, b, be, c| {
            conv(al, a, b, be, c)
        });
        check64("((4,3),6):((1,24),4)", "(5,6):(6,1)", "((4,3),5):((1,20),4)", |al, a, b, be, c| {
            contraction(al, a, b, be, c)
        });
        check_batched(|al, a, b, be, c| batched(al, a, b, be, c));
        check32("(100,70):(1,100)", "(80,70):(70,1)", "(100,80):(1,100)", |al, a, b, be, c| big_nn(al, a, b, be, c));
        check64("(67,45):(45,1)", "(53,45):(1,53)", "(67,53):(1,67)", |al, a, b, be, c| big_tt(al, a, b, be, c));
        check32(
            "((8,8),((3,3),4)):((1,10),((1,10),100))",
            "(5,((3,3),4)):(36,((1,3),9))",
            "((8,8),5):((1,8),64)",
            |al, a, b, be, c| big_conv(al, a, b, be, c),
        );
        eprintln!("level {l:?}: 20 gemms agree");
    }
    force_level(detected);
}

/// The batched case: each batch is a GEMM over the rank-2 slices.
fn check_batched(kernel: Kernel<f32>) {
    let (la, lb, lc) = (
        parse_layout("(8,4,3):(1,8,32)").unwrap(),
        parse_layout("(5,4,3):(4,1,20)").unwrap(),
        parse_layout("(8,5,3):(1,10,50)").unwrap(),
    );
    let a: Vec<f32> = (0..extent(&la)).map(|x| (x % 7) as f32 - 3.0).collect();
    let b: Vec<f32> = (0..extent(&lb)).map(|x| (x % 5) as f32 - 2.0).collect();
    let mut c = vec![f32::NAN; extent(&lc)];
    kernel(1.0, &a, &b, 0.0, &mut c);
    for l in 0..3i64 {
        for i in 0..8i64 {
            for j in 0..5i64 {
                let want: f32 =
                    (0..4i64).map(|p| a[(i + 8 * p + 32 * l) as usize] * b[(4 * j + p + 20 * l) as usize]).sum();
                let got = c[(i + 10 * j + 50 * l) as usize];
                assert_eq!(got, want, "batched at level {:?}: C({i},{j},{l})", level());
            }
        }
    }
}
