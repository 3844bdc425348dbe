//! docs/algebra.md §4.L: COPY and GEMM application layouts (paper §2.6, Tables 2–3).
//!
//! The layouts must be valid and of matching sizes; each is run through a COPY
//! (`dst[D(i)] = src[S(i)]`) or GEMM (`C(m,n) += A(m,k)·B(n,k)`) over plain buffers, every
//! offset computed by the library (`Layout::eval`, `Layout::cosize`; the test's own
//! evaluation helper is not used, so these test layout-core), and the result compared with
//! the intended element-wise meaning. GEMM instances follow
//! tensor-layouts' `test_table3_gemm_applications`; the CONV case is a real 2-D convolution
//! through im2col-style layouts, checked against a direct loop.

mod common;

use common::*;
use layout_core::Layout;

/// `L(i)` by the library (the last mode unbounded past the size).
fn off(l: &Layout, i: i64) -> i64 {
    l.eval(i).unwrap_or_else(|e| panic!("`{l}`({i}): {e}"))
}

/// `dst[D(i)] = src[S(i)]` for `i < |S|` (sizes must be equal).
fn copy(src: &Layout, src_buf: &[i64], dst: &Layout, dst_buf: &mut [i64]) {
    assert_eq!(src.size(), dst.size(), "COPY needs equal sizes: `{src}` vs `{dst}`");
    for i in 0..src.size() {
        dst_buf[off(dst, i) as usize] = src_buf[off(src, i) as usize];
    }
}

/// A buffer of `cosize(l)` elements, filled with `fill(i)` at `l(i)` and -1 elsewhere.
fn filled(l: &Layout, fill: impl Fn(i64) -> i64) -> Vec<i64> {
    let mut buf = vec![-1; l.cosize().unwrap() as usize];
    (0..l.size()).for_each(|i| buf[off(l, i) as usize] = fill(i));
    buf
}

#[test]
fn l_copy_1d_arrays() {
    let l = lay("8:1");
    let src = filled(&l, |i| i);
    let mut dst = vec![-1; 8];
    copy(&l, &src, &l, &mut dst);
    assert_eq!(dst, (0..8).collect::<Vec<_>>());
}

#[test]
fn l_copy_nd_arrays() {
    let l = lay("(8,2,3):(1,16,32)");
    let src = filled(&l, |i| i);
    let mut dst = vec![-1; l.cosize().unwrap() as usize];
    copy(&l, &src, &l, &mut dst);
    assert_eq!(dst, src);
    assert_eq!(dst.iter().filter(|&&v| v >= 0).count(), 48);
    // The contiguous runs of 8 are the common vector a vectorized COPY would use.
    assert_eq!(show("max_common_vector((8,2,3):(1,16,32), (8,2,3):(1,16,32))"), "8");
}

#[test]
fn l_copy_gather() {
    let (s, d) = (lay("(2,3,2):(42,1,128)"), lay("12:1"));
    let src = filled(&s, |i| 100 + i);
    let mut dst = vec![-1; 12];
    copy(&s, &src, &d, &mut dst);
    assert_eq!(dst, (100..112).collect::<Vec<_>>());
}

#[test]
fn l_copy_scatter() {
    let (s, d) = (lay("12:1"), lay("(2,3,2):(42,1,128)"));
    let src: Vec<i64> = (100..112).collect();
    let mut dst = vec![-1; d.cosize().unwrap() as usize];
    copy(&s, &src, &d, &mut dst);
    assert_eq!(dst.iter().filter(|&&v| v >= 0).count(), 12);
    for i in 0..12 {
        assert_eq!(dst[off(&d, i) as usize], 100 + i);
    }
}

#[test]
fn l_copy_broadcast() {
    let (s, d) = (lay("7:0"), lay("7:1"));
    let mut dst = vec![-1; 7];
    copy(&s, &[42], &d, &mut dst);
    assert_eq!(dst, [42; 7]);
}

#[test]
fn l_copy_constant() {
    let l = lay("7:0");
    let mut dst = vec![-1];
    copy(&l, &[17], &l, &mut dst);
    assert_eq!(dst, [17]);
    assert!((0..7).all(|i| dst[off(&l, i) as usize] == 17));
}

#[test]
fn l_copy_transpose() {
    let (s, d) = (lay("(8,3):(1,8)"), lay("(8,3):(3,1)"));
    let src = filled(&s, |i| 10 * (i % 8) + i / 8);
    let mut dst = vec![-1; d.cosize().unwrap() as usize];
    copy(&s, &src, &d, &mut dst);
    // dst is row-major: element (row, col) at 3·row + col.
    let want: Vec<i64> = (0..8).flat_map(|row| (0..3).map(move |col| 10 * row + col)).collect();
    assert_eq!(dst, want);
}

#[test]
fn l_copy_tensor_transpose() {
    let (s, d) = (lay("(8,(3,5)):(1,(57,8))"), lay("(8,15):(1,8)"));
    assert!(d.shape().compatible(s.shape()));
    // Element (row, (c0, c1)) holds 100·row + 10·c0 + c1.
    let src = filled(&s, |i| {
        let (row, col) = (i % 8, i / 8);
        100 * row + 10 * (col % 3) + col / 3
    });
    let mut dst = vec![-1; d.cosize().unwrap() as usize];
    copy(&s, &src, &d, &mut dst);
    for row in 0..8 {
        for c0 in 0..3 {
            for c1 in 0..5 {
                let o = off(&d, index_of(&[8, 15], &[row, c0 + 3 * c1]));
                assert_eq!(dst[o as usize], 100 * row + 10 * c0 + c1);
            }
        }
    }
}

/// `C(m,n) += A(m,k)·B(n,k)` through the layouts, with `A(m,k) = 10(m+1) + (k+1)` and
/// `B(n,k) = 100(n+1) + 3(k+1)`, compared with the plain sum over k.
fn check_gemm(a: &str, b: &str, c: &str) {
    let (a, b, c) = (lay(a), lay(b), lay(c));
    let (sa, sb, sc) = (mode_sizes(&a), mode_sizes(&b), mode_sizes(&c));
    let (m_, k_, n_) = (sa[0], sa[1], sb[0]);
    assert_eq!((sb[1], sc[0], sc[1]), (k_, m_, n_), "GEMM modes must agree: `{a}`, `{b}`, `{c}`");
    assert!(is_injective(&a) && is_injective(&b) && is_injective(&c));
    let av = |m: i64, k: i64| 10 * (m + 1) + (k + 1);
    let bv = |n: i64, k: i64| 100 * (n + 1) + 3 * (k + 1);
    let abuf = filled(&a, |i| av(i % m_, i / m_));
    let bbuf = filled(&b, |i| bv(i % n_, i / n_));
    let mut cbuf = filled(&c, |_| 0);
    for m in 0..m_ {
        for n in 0..n_ {
            for k in 0..k_ {
                let (ia, ib, ic) = (off(&a, m + m_ * k), off(&b, n + n_ * k), off(&c, m + m_ * n));
                cbuf[ic as usize] += abuf[ia as usize] * bbuf[ib as usize];
            }
        }
    }
    for m in 0..m_ {
        for n in 0..n_ {
            let want: i64 = (0..k_).map(|k| av(m, k) * bv(n, k)).sum();
            assert_eq!(cbuf[off(&c, m + m_ * n) as usize], want, "C({m},{n})");
        }
    }
}

#[test]
fn l_gemm_nt() {
    check_gemm("(3,4):(1,5)", "(2,4):(1,4)", "(3,2):(1,3)");
}

#[test]
fn l_gemm_tn() {
    check_gemm("(3,4):(6,1)", "(2,4):(5,1)", "(3,2):(1,4)");
}

#[test]
fn l_gemm_ntt_swaps_roles() {
    check_gemm("(2,4):(1,4)", "(3,4):(1,5)", "(2,3):(1,3)");
}

#[test]
fn l_gemm_blis_arbitrary_strides() {
    check_gemm("(3,4):(2,7)", "(2,4):(3,11)", "(3,2):(5,13)");
}

#[test]
fn l_gett_grouped_row_modes() {
    check_gemm("((2,3),2):((1,4),17)", "(4,2):(2,1)", "((2,3),4):((1,5),23)");
}

#[test]
fn l_gett_grouped_k_modes() {
    check_gemm("((2,3),(2,2)):((5,19),(1,2))", "((2,2),(2,2)):((7,23),(1,2))", "((2,3),(2,2)):((1,2),(6,12))");
}

/// 2-D convolution `Y[k][n][p][q] = Σ_{c,r,s} W[k][c][r][s] · X[n][c][p+r][q+s]` (T = Z = 1)
/// as one GEMM: filter `(K,(C,T,R,S))`, activations read im2col-style as
/// `((N,Z,P,Q),(C,T,R,S))` (p and r share the row stride, q and s the column stride, so
/// offsets repeat), output `(K,(N,Z,P,Q))`.
#[test]
fn l_conv_as_gemm_through_im2col_layouts() {
    let (kk, n_, p_, q_, c_, r_, s_) = (3i64, 2i64, 3i64, 2i64, 2i64, 2i64, 2i64);
    let (h, w) = (p_ + r_ - 1, q_ + s_ - 1);
    // X column-major over (w, h, d=1, c, n): strides 1, w, w·h, w·h, w·h·c.
    let (xw, xh, xc) = (1, w, w * h);
    let xn = w * h * c_;
    let filter = lay(&format!("({kk},({c_},1,{r_},{s_})):(1,({kk},{},{},{}))", kk * c_, kk * c_, kk * c_ * r_));
    let act = lay(&format!("(({n_},1,{p_},{q_}),({c_},1,{r_},{s_})):(({xn},{xc},{xh},{xw}),({xc},{xc},{xh},{xw}))"));
    let out = lay(&format!("({kk},({n_},1,{p_},{q_})):(1,({kk},{},{},{}))", kk * n_, kk * n_, kk * n_ * p_));
    let (sa, sb, sc) = (mode_sizes(&filter), mode_sizes(&act), mode_sizes(&out));
    assert_eq!((sa[1], sb[1]), (c_ * r_ * s_, c_ * r_ * s_), "reduction modes agree");
    assert_eq!((sa[0], sc[0], sb[0], sc[1]), (kk, kk, n_ * p_ * q_, n_ * p_ * q_));
    assert!(!is_injective(&act), "im2col reads activations more than once");

    let xval = |n: i64, c: i64, y: i64, x: i64| 1000 * n + 100 * c + 10 * y + x + 1;
    let wval = |k: i64, c: i64, r: i64, s: i64| 7 * k - 3 * c + 2 * r - s + 1;
    let mut xbuf = vec![0; (xn * n_) as usize];
    for n in 0..n_ {
        for c in 0..c_ {
            for y in 0..h {
                for x in 0..w {
                    xbuf[(n * xn + c * xc + y * xh + x * xw) as usize] = xval(n, c, y, x);
                }
            }
        }
    }
    let wbuf = filled(&filter, |i| {
        let (k, crs) = (i % kk, i / kk);
        wval(k, crs % c_, (crs / c_) % r_, crs / (c_ * r_))
    });
    let mut ybuf = vec![0; out.cosize().unwrap() as usize];
    let (m_, red, cols) = (kk, c_ * r_ * s_, n_ * p_ * q_);
    for m in 0..m_ {
        for col in 0..cols {
            for k in 0..red {
                let (ia, ib, ic) = (off(&filter, m + m_ * k), off(&act, col + cols * k), off(&out, m + m_ * col));
                ybuf[ic as usize] += wbuf[ia as usize] * xbuf[ib as usize];
            }
        }
    }
    for k in 0..kk {
        for n in 0..n_ {
            for p in 0..p_ {
                for q in 0..q_ {
                    let mut want = 0;
                    for c in 0..c_ {
                        for r in 0..r_ {
                            for s in 0..s_ {
                                want += wval(k, c, r, s) * xval(n, c, p + r, q + s);
                            }
                        }
                    }
                    let col = n + n_ * (p + p_ * q);
                    assert_eq!(ybuf[off(&out, k + kk * col) as usize], want, "Y[{k}][{n}][{p}][{q}]");
                }
            }
        }
    }
}
