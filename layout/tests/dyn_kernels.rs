//! Kernel items over layouts with symbols (issue 22's form): copies and GEMMs over dynamic
//! items, called with tensors, against scalar references; shared symbols checked at each call
//! (a panic naming the symbol and both values at the caller's line, or `try_NAME`'s error);
//! static items mixed in; a plan kept across calls and made again when the sizes change.

use cute_layout::{PlanError, Tensor, TensorMut, layout};

layout! {
    pub ColMajor = (M,N):(1,LDS) where LDS >= M;
    pub RowMajor = (M,N):(LDD,1) where LDD >= N;
    pub fn to_row_major = copy(ColMajor, RowMajor);
    pub A = (M,K):(1,LDA) where LDA >= M;
    pub B = (N,K):(LDB,1) where LDB >= K;
    pub C = (M,N):(1,LDC) where LDC >= M;
    pub fn sgemm = gemm(f32, A, B, C);
    pub fn dgemm = gemm(f64, A, B, C);
    pub Tile = (8,4):(1,8);
    pub Packed = (M2,N2):(N2,1);
    pub fn pack = copy(Tile, Packed);
    pub fn small = gemm(f32, (4,4):(1,4), (4,4):(4,1), (4,4):(1,4));
    pub fn transpose = copy((4,4):(1,4), (4,4):(4,1));
}

/// The file and message of the panic `f` raises.
fn panic_at(f: impl FnOnce() + std::panic::UnwindSafe) -> (String, String) {
    static WHERE: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        *WHERE.lock().unwrap_or_else(|e| e.into_inner()) =
            info.location().map(|l| format!("{}:{}", l.file(), l.line()));
    }));
    let err = std::panic::catch_unwind(f).unwrap_err();
    std::panic::set_hook(hook);
    let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
    (WHERE.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default(), msg)
}

#[test]
fn kernel_items_panic_at_the_callers_line_naming_their_kernel() {
    let (at, msg) = panic_at(|| {
        let mut c = [0f32; 16];
        small(1.0, &[1.0; 15], &[1.0; 16], 0.0, &mut c);
    });
    // A static gemm item has no `#[track_caller]` (its cost on a 4x4x4 call): the panic
    // points at the item in this file.
    assert!(at.contains("dyn_kernels.rs"), "{at}: {msg}");
    assert!(msg.starts_with("gemm: the A slice has 15 elements"), "{msg}");
    let (at, msg) = panic_at(|| {
        let mut d = [0u8; 15];
        transpose(&[0u8; 16], &mut d);
    });
    assert!(at.contains("dyn_kernels.rs"), "{at}: {msg}");
    assert!(msg.starts_with("copy: the destination slice has 15 elements"), "{msg}");
    let (at, msg) = panic_at(|| {
        let src = [0f32; 64];
        let mut dst = [0f32; 64];
        let s = Tensor::new(&src, ColMajor::new(4, 4, 4).unwrap()).unwrap();
        let mut d = TensorMut::new(&mut dst, RowMajor::new(4, 5, 5).unwrap()).unwrap();
        to_row_major(&s, &mut d);
    });
    assert!(at.contains("dyn_kernels.rs"), "{at}: {msg}");
    assert!(msg.contains("`N` is 4"), "{msg}");
}

#[test]
fn a_run_time_transpose_through_the_item() {
    for (m, n, lds, ldd) in [(3, 5, 3, 5), (37, 64, 40, 70), (130, 129, 131, 129), (1, 1, 1, 1)] {
        let src: Vec<f32> = (0..lds * n).map(|i| i as f32).collect();
        let mut dst = vec![-1.0f32; m * ldd];
        let s = Tensor::new(&src, ColMajor::new(m, n, lds).unwrap()).unwrap();
        let mut d = TensorMut::new(&mut dst, RowMajor::new(m, n, ldd).unwrap()).unwrap();
        to_row_major(&s, &mut d);
        for i in 0..m {
            for j in 0..ldd {
                let want = if j < n { src[i + j * lds] } else { -1.0 };
                assert_eq!(dst[i * ldd + j], want, "({i},{j}) of {m}x{n}");
            }
        }
    }
}

#[test]
fn a_shared_symbol_with_two_values_is_an_error_naming_both() {
    let src = vec![0u8; 64];
    let mut dst = vec![0u8; 64];
    let s = Tensor::new(&src, ColMajor::new(4, 5, 4).unwrap()).unwrap();
    let mut d = TensorMut::new(&mut dst, RowMajor::new(5, 4, 4).unwrap()).unwrap();
    let e = try_to_row_major(&s, &mut d).unwrap_err();
    assert!(matches!(e, PlanError::Symbol { symbol: "M", .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "to_row_major: the symbol `M` is 4 in the source (`ColMajor`) but 5 in the destination (`RowMajor`); the \
         same symbol in two operands must have one value"
    );
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| to_row_major(&s, &mut d)));
    let msg = caught.unwrap_err().downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.starts_with("to_row_major: the symbol `M` is 4"), "{msg}");
}

#[allow(clippy::too_many_arguments)]
fn reference(
    m: usize,
    n: usize,
    k: usize,
    a: &[f64],
    lda: usize,
    b: &[f64],
    ldb: usize,
    c: &mut [f64],
    ldc: usize,
    beta: f64,
) {
    for j in 0..n {
        for i in 0..m {
            let s: f64 = (0..k).map(|p| a[i + p * lda] * b[j * ldb + p]).sum();
            c[i + j * ldc] = 0.5 * s + beta * c[i + j * ldc];
        }
    }
}

#[test]
fn sgemm_and_dgemm_through_items_over_symbols() {
    for (m, n, k) in [(1, 1, 1), (8, 8, 8), (33, 17, 70), (130, 64, 129), (200, 190, 180)] {
        let (lda, ldb, ldc) = (m + 3, k + 1, m + 2);
        let a: Vec<f64> = (0..lda * k).map(|i| ((i * 7) % 13) as f64 - 6.0).collect();
        let b: Vec<f64> = (0..ldb * n).map(|i| ((i * 5) % 11) as f64 - 5.0).collect();
        let c0: Vec<f64> = (0..ldc * n).map(|i| (i % 9) as f64).collect();
        let mut want = c0.clone();
        reference(m, n, k, &a, lda, &b, ldb, &mut want, ldc, 2.0);
        let (la, lb, lc) = (A::new(m, k, lda).unwrap(), B::new(n, k, ldb).unwrap(), C::new(m, n, ldc).unwrap());
        let mut c = c0.clone();
        dgemm(
            0.5,
            &Tensor::new(&a, la).unwrap(),
            &Tensor::new(&b, lb).unwrap(),
            2.0,
            &mut TensorMut::new(&mut c, lc).unwrap(),
        );
        for (x, y) in c.iter().zip(&want) {
            assert!((x - y).abs() <= 1e-9 * (1.0 + y.abs()), "{m}x{n}x{k}: {x} vs {y}");
        }
        // The same through f32 (small integers: exact).
        let (af, bf): (Vec<f32>, Vec<f32>) =
            (a.iter().map(|&x| x as f32).collect(), b.iter().map(|&x| x as f32).collect());
        let mut cf: Vec<f32> = c0.iter().map(|&x| x as f32).collect();
        sgemm(
            0.5,
            &Tensor::new(&af, la).unwrap(),
            &Tensor::new(&bf, lb).unwrap(),
            2.0,
            &mut TensorMut::new(&mut cf, lc).unwrap(),
        );
        for (x, y) in cf.iter().zip(&want) {
            assert!((*x as f64 - y).abs() <= 1e-3 * (1.0 + y.abs()), "{m}x{n}x{k}: {x} vs {y}");
        }
    }
}

#[test]
fn gemm_symbols_are_checked_per_operand_pair() {
    let x = vec![0f32; 256];
    let mut y = vec![0f32; 256];
    let (la, lb) = (A::new(4, 3, 4).unwrap(), B::new(5, 2, 2).unwrap()); // K: 3 in A, 2 in B
    let lc = C::new(4, 5, 4).unwrap();
    let e = try_sgemm(
        1.0,
        &Tensor::new(&x, la).unwrap(),
        &Tensor::new(&x, lb).unwrap(),
        0.0,
        &mut TensorMut::new(&mut y, lc).unwrap(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "sgemm: the symbol `K` is 3 in the A (`A`) but 2 in the B (`B`); the same symbol in two operands must have one \
         value"
    );
}

#[test]
fn a_static_tile_into_a_dynamic_layout_and_new_sizes_replan() {
    let src: Vec<u16> = (0..32).collect();
    let t = Tensor::new(&src, Tile).unwrap();
    for (m2, n2) in [(8, 4), (4, 8), (32, 1), (8, 4)] {
        let mut dst = vec![0u16; 32];
        pack(&t, &mut TensorMut::new(&mut dst, Packed::new(m2, n2).unwrap()).unwrap());
        // Index i: Tile's offset i (column-major 8x4 = i) lands at Packed's offset of i.
        for (i, &x) in src.iter().enumerate() {
            let (r, c) = (i % m2, i / m2);
            assert_eq!(dst[r * n2 + c], x, "{m2}x{n2} at {i}");
        }
    }
    // Sizes that differ: the planner's error.
    let mut dst = vec![0u16; 64];
    let e = try_pack(&t, &mut TensorMut::new(&mut dst, Packed::new(8, 8).unwrap()).unwrap()).unwrap_err();
    assert!(matches!(e, PlanError::Layout { kernel: "copy", .. }), "{e}");
}
