//! Differential tests of the algebra over symbols: for every expression, and for exhaustive
//! small and random larger assignments of its symbols, the dynamic result with the numbers
//! substituted either fails with a condition and layout-core's computation on the
//! substituted expression fails too, or equals layout-core's result at every index (and in
//! size). Assignments that violate a stated fact are skipped: the fact is the user's claim.

use layout_core::dynamic::{CondKind, DynLayout, evaluate_dynamic, is_symbol_name};
use layout_core::{DynamicError, Layout, Value, evaluate};

/// The text with numbers for the symbols.
fn substitute(text: &str, value: &dyn Fn(&str) -> Option<i64>) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match value(word).filter(|_| is_symbol_name(word)) {
            Some(v) => out.push_str(&v.to_string()),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

fn static_layout(text: &str) -> Result<Layout, String> {
    match evaluate(text) {
        Ok(Value::Layout(layout_core::AnyLayout::Int(l))) => Ok(l),
        Ok(Value::Tuple(t)) => Layout::column_major(t).map_err(|e| e.to_string()),
        Ok(v) => Err(format!("not a layout: {v}")),
        Err(e) => Err(e.to_string()),
    }
}

#[derive(Default, Debug)]
struct Tally {
    equal: usize,
    both_fail: usize,
    fact_violated: usize,
    overflow: usize,
}

/// Compares the dynamic and static computations at one assignment.
fn check_one(text: &str, dynamic: &DynLayout, vals: &[(String, i64)], t: &mut Tally) {
    let value = |s: &str| vals.iter().find(|(n, _)| n == s).map(|(_, v)| *v);
    let (expr, _) = text.split_once(" where ").unwrap_or((text, ""));
    let concrete = substitute(expr, &value);
    let facts_hold =
        dynamic.conds.iter().filter(|c| c.kind == CondKind::Fact).all(|c| c.cond.holds(&value) == Some(true));
    if !facts_hold {
        t.fact_violated += 1;
        return;
    }
    let stat = static_layout(&concrete);
    match dynamic.substitute(&value) {
        Ok(l) => {
            let s = stat
                .unwrap_or_else(|e| panic!("{text} with {vals:?}: dynamic gives {l}, static `{concrete}` fails: {e}"));
            assert_eq!(l.size(), s.size(), "{text} with {vals:?}: {l} vs {s}");
            for i in 0..l.size().min(4096) {
                assert_eq!(l.eval(i).unwrap(), s.eval(i).unwrap(), "{text} with {vals:?} at {i}: {l} vs {s}");
            }
            t.equal += 1;
        }
        Err(DynamicError::Overflow { .. }) => t.overflow += 1,
        Err(e) => {
            assert!(
                stat.is_err(),
                "{text} with {vals:?}: dynamic fails ({e}) but static `{concrete}` gives {}",
                stat.unwrap()
            );
            t.both_fail += 1;
        }
    }
}

/// Every assignment of the symbols in `1..=max` (exhaustive), then random ones up to 4096.
fn differential(text: &str) -> Tally {
    let dynamic = evaluate_dynamic(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let syms = dynamic.symbols.clone();
    let max = [64, 64, 20, 10, 6][syms.len().min(4)];
    let mut t = Tally::default();
    let mut vals: Vec<i64> = vec![1; syms.len()];
    loop {
        let named: Vec<(String, i64)> = syms.iter().cloned().zip(vals.iter().copied()).collect();
        check_one(text, &dynamic, &named, &mut t);
        let mut k = 0;
        while k < vals.len() {
            vals[k] += 1;
            if vals[k] <= max {
                break;
            }
            vals[k] = 1;
            k += 1;
        }
        if k == vals.len() {
            break;
        }
    }
    let mut seed = 0x9e3779b97f4a7c15u64;
    for _ in 0..300 {
        let named: Vec<(String, i64)> = syms
            .iter()
            .map(|s| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Mostly multiples of small powers of two, so that conditions hold often.
                let v = (seed % 512 + 1) as i64;
                (s.clone(), if seed.is_multiple_of(3) { v } else { v * 8 })
            })
            .collect();
        check_one(text, &dynamic, &named, &mut t);
    }
    assert!(t.equal > 0, "{text}: no assignment succeeded: {t:?}");
    t
}

#[test]
fn divide_family_exhaustive() {
    for text in [
        "logical_divide((M,N):(1,LD), [8:1,8:1])",
        "logical_divide((M,N):(1,LD), [4:2,2:1])",
        "logical_divide((M,N):(N,1), [2:1,4:1])",
        "logical_divide((M,N), [2:3,_])",
        "logical_divide(((8,M),N):((1,8),LDA), [16:1,4:1])",
        "logical_divide(((8,M),N):((1,8),LDA), [(2,4):(1,16),_])",
        "zipped_divide((M,N):(1,LD), [4:1,2:1])",
        "tiled_divide((M,N):(1,LD), [4:1,_])",
        "tiled_divide((M,N,K):(1,LD,LD*N), [2:1,2:1,3:1])",
        "local_tile((M,N):(1,LD), [8:1,8:1])",
        "local_partition((M,N):(1,LD), [4:1,2:1])",
        "logical_divide(M:2, 4:1)",
        "logical_divide((M,N):(1,LD), 4:1) where M % 4 == 0, M > 4",
        "logical_divide((M,N):(1,LD), 8:1) where M % 8 == 0, M <= 8",
    ] {
        let t = differential(text);
        eprintln!("{text}: {t:?}");
    }
}

#[test]
fn composition_family_exhaustive() {
    for text in [
        "composition((M,N):(1,LD), [4:2,3:1])",
        "composition((M,N):(1,LD), [(2,2):(1,4),_])",
        "composition((M,N):(1,LD), 8:1) where M >= 8",
        "composition((M,N):(1,LD), 8:2) where M >= 16",
        "composition((M,N):(1,LD), (4,2):(1,4)) where M % 4 == 0, M > 4",
        "composition((4,M):(1,4), 8:1)",
        "composition((4,M):(1,4), 8:2)",
        "composition((4,M):(1,4), 6:1)",
        "composition((6,M):(1,LD), 4:3)",
        "composition((8,M):(1,16), (4,M/2):(2,8)) where M % 2 == 0",
        "coalesce(((8,M),N):((1,8),8*M))",
        "coalesce((M,4,N):(1,M,4*M))",
        "slice((M,N):(1,LD), (_,3))",
        "slice(((8,M),N):((1,8),LDA), ((_,2),_))",
    ] {
        let t = differential(text);
        eprintln!("{text}: {t:?}");
    }
}

#[test]
fn results_print_and_parse_back() {
    for (text, want, conds) in [
        (
            "logical_divide((M,N):(1,LD), [8:1,8:1])",
            "((8,M/8),(8,N/8)):((1,8),(LD,8*LD))",
            vec!["M % 8 == 0", "N % 8 == 0"],
        ),
        ("local_tile((M,N):(1,LD), [8:1,8:1])", "(8,8):(1,LD)", vec!["M % 8 == 0", "N % 8 == 0"]),
        (
            "zipped_divide((M,N):(1,LD), [4:1,2:1])",
            "((4,2),(M/4,N/2)):((1,LD),(4,2*LD))",
            vec!["M % 4 == 0", "N % 2 == 0"],
        ),
        ("coalesce(((8,M),N):((1,8),8*M))", "8*M*N:1", vec![]),
        ("(M,N)", "(M,N):(1,M)", vec![]),
        (
            "logical_divide((M,N):(1,LD), [8:1,8:1]) where M % 64 == 0",
            "((8,M/8),(8,N/8)):((1,8),(LD,8*LD))",
            vec!["M % 64 == 0", "N % 8 == 0"],
        ),
    ] {
        let l = evaluate_dynamic(text).unwrap();
        assert_eq!(l.to_string(), want, "{text}");
        let got: Vec<String> = l.conds.iter().map(|c| c.cond.to_string()).collect();
        assert_eq!(got, conds, "{text}");
        // The printed form parses back to an equal layout.
        let back = evaluate_dynamic(&l.to_string()).unwrap();
        assert_eq!((back.shape, back.stride), (l.shape.clone(), l.stride.clone()), "{text}");
    }
    let l = evaluate_dynamic("logical_divide((M,N):(1,LD), [3:1,_])").unwrap();
    assert_eq!(l.to_string(), "((3,M/3),N):((1,3),LD)");
    let back = evaluate_dynamic("(3*M/8/N,2):(-LD,1)").unwrap();
    assert_eq!(back.to_string(), "(3*M/8/N,2):(-LD,1)");
}

#[test]
fn errors_name_the_condition_and_the_numbers() {
    let l = evaluate_dynamic("logical_divide((M,N):(1,LD), [8:1,8:1])").unwrap();
    let v = |s: &str| match s {
        "M" => Some(12),
        "N" => Some(8),
        "LD" => Some(16),
        _ => None,
    };
    let e = l.substitute(&v).unwrap_err().to_string();
    assert!(e.contains("`M % 8 == 0`") && e.contains("M = 12"), "{e}");
    let zero = |s: &str| if s == "N" { Some(0) } else { Some(8) };
    assert_eq!(l.substitute(&zero).unwrap_err().to_string(), "`N` must be positive, but it is 0");
    let big = |s: &str| Some(if s == "LD" { i64::MAX / 2 } else { 64 });
    assert!(matches!(l.substitute(&big), Err(DynamicError::Overflow { .. })));
}

#[test]
fn expansion_time_decisions() {
    // Needs a fact to decide where the walk ends.
    let e = evaluate_dynamic("composition((M,N):(1,LD), 8:1)").unwrap_err().to_string();
    assert!(e.contains("where M > 7"), "{e}");
    // A condition false for every value (the static extent 6 is not a multiple of 4).
    let e = evaluate_dynamic("logical_divide((M,6):(1,LD), [_,4:1])").unwrap_err().to_string();
    assert!(e.contains("false for every value") && e.contains("6 % 4 == 0"), "{e}");
    // Facts discharge conditions.
    let l = evaluate_dynamic("logical_divide((M,N):(1,LD), [8:1,8:1]) where M % 16 == 0, N % 8 == 0").unwrap();
    assert!(l.conds.iter().all(|c| c.kind == CondKind::Fact), "{:?}", l.conds);
    // A tiler must be static.
    assert!(evaluate_dynamic("logical_divide((8,8):(1,8), [M:1,_])").is_err());
}

#[test]
fn facts_are_checked_at_expansion_time() {
    let e = |text: &str| evaluate_dynamic(text).expect_err(text).to_string();
    let tiled = "logical_divide((M,N):(1,LD), [8:1,8:1])";
    for modulus in ["0", "-1", "-8", "-N"] {
        let m = e(&format!("{tiled} where M % {modulus} == 0"));
        assert!(m.contains("the modulus must be positive"), "{m}");
    }
    let m = e(&format!("{tiled} where LD >= M, M > LD"));
    assert!(m.contains("the facts contradict each other: `M > LD` is false when `LD >= M`"), "{m}");
    let m = e(&format!("{tiled} where M > LD, LD >= M"));
    assert!(m.contains("contradict"), "{m}");
    let m = e(&format!("{tiled} where M >= 2*LD, LD > M"));
    assert!(m.contains("contradict"), "{m}");
    let m = e(&format!("{tiled} where M < 1"));
    assert!(m.contains("the fact `1 > M` is false for every value"), "{m}");
    // Facts that agree are fine; a condition a fact rules out names it.
    assert!(evaluate_dynamic(&format!("{tiled} where LD >= M, LD > M")).is_ok());
    let m = e(&format!("{tiled} where N >= 1, M <= 4"));
    assert!(m.contains("`M % 8 == 0` is false for every value of the symbols allowed by `4 >= M`"), "{m}");
    assert!(!m.contains("N >= 1"), "{m}");
    // A condition false without any fact names none.
    let m = e("logical_divide((M,6):(1,LD), [_,4:1]) where M <= 4");
    assert!(m.contains("symbols: logical_divide"), "{m}");
}

#[test]
fn edge_tiles_near_the_limits() {
    use layout_core::dynamic::local_tile_edge;
    let a = evaluate_dynamic("(M,N):(1,M)").unwrap();
    for t in [i64::MAX, i64::MAX - 3] {
        let e = local_tile_edge(&a, &layout_core::parse_tiler(&format!("[{t}:1,8:1]")).unwrap()).unwrap();
        let g = e.substitute(&|s| Some(if s == "M" { 16 } else { 8 })).unwrap();
        assert_eq!((g.grid(), g.count()), (vec![1, 1], 1));
        assert_eq!(g.tile_extent(0), [16, 8]);
        let s = evaluate_dynamic("(100,N):(1,100)").unwrap();
        let e = local_tile_edge(&s, &layout_core::parse_tiler(&format!("[{t}:1,8:1]")).unwrap()).unwrap();
        assert!(e.to_string().ends_with("1 x ceil(N/8) of them"), "{e}");
    }
}

/// Edges: `local_tile_edge` against brute force at every tile and every element of the full
/// tile (which exists exactly when its coordinate in A is inside A's extent), every element
/// of A in exactly one tile, and the static `zipped_divide` when the tiles divide A.
#[test]
fn edge_tiles_against_brute_force() {
    use layout_core::dynamic::local_tile_edge;
    use layout_core::{parse_tiler, zipped_divide};
    for (a_text, tiler, three) in [
        ("(M,N):(1,LD)", "[8:1,8:1]", true),
        ("(M,N):(1,LD)", "[4:1,3:1]", true),
        ("(M,N):(N,1)", "[3:1,_]", false),
        ("((8,M),N):((1,8),8*M)", "[16:1,4:1]", false),
        ("M:2", "5:1", false),
        ("(M,N,K):(1,M,M*N)", "[2:1,_,3:1]", true),
    ] {
        let dynamic = evaluate_dynamic(a_text).unwrap();
        let t = parse_tiler(tiler).unwrap();
        let edge = local_tile_edge(&dynamic, &t).unwrap_or_else(|e| panic!("{a_text}: {e}"));
        let syms = dynamic.symbols.clone();
        let max = if syms.len() >= 3 { 7 } else { 19 };
        let mut vals = vec![1i64; syms.len()];
        let mut checked = 0;
        loop {
            let value =
                |s: &str| syms.iter().position(|x| x == s).map(|k| vals[k] + if three && k == 2 { 20 } else { 0 });
            let a = static_layout(&substitute(a_text, &value)).unwrap();
            let g = edge.substitute(&value).unwrap_or_else(|e| panic!("{a_text} with {vals:?}: {e}"));
            let modes = a.modes();
            let mut hit = vec![0u32; a.size() as usize];
            for k in 0..g.count() {
                let kc = g.tile_coord(k);
                let ext = g.tile_extent(k);
                let tile = g.tile(k);
                assert_eq!(tile.size(), ext.iter().product::<i64>(), "{a_text} {vals:?} tile {k}");
                // Every element of the full tile, colexicographic over the tile extents.
                let full: Vec<i64> = g.modes.iter().map(|m| m.2).collect();
                let mut j = vec![0i64; full.len()];
                let mut existing = 0;
                loop {
                    let x: Vec<i64> = (0..full.len()).map(|i| g.modes[i].2 * kc[i] + j[i]).collect();
                    let inside = x.iter().zip(&modes).all(|(&x, m)| x < m.size());
                    assert_eq!(inside, j.iter().zip(&ext).all(|(&j, &e)| j < e), "{a_text} {vals:?} tile {k} at {j:?}");
                    if inside {
                        let want: i64 = x.iter().zip(&modes).map(|(&x, m)| m.eval(x).unwrap()).sum();
                        // Position of j in the existing part (colexicographic over ext).
                        let (mut idx, mut mul) = (0, 1);
                        for (&ji, &e) in j.iter().zip(&ext) {
                            idx += ji * mul;
                            mul *= e;
                        }
                        assert_eq!(
                            g.tile_base(k) + tile.eval(idx).unwrap(),
                            want,
                            "{a_text} {vals:?} tile {k} at {j:?}"
                        );
                        // The index of x in A (colexicographic over the modes).
                        let (mut ai, mut mul) = (0, 1);
                        for (&xi, m) in x.iter().zip(&modes) {
                            ai += xi * mul;
                            mul *= m.size();
                        }
                        hit[ai as usize] += 1;
                        existing += 1;
                    }
                    let mut i = 0;
                    while i < j.len() {
                        j[i] += 1;
                        if j[i] < full[i] {
                            break;
                        }
                        j[i] = 0;
                        i += 1;
                    }
                    if i == j.len() {
                        break;
                    }
                }
                assert_eq!(existing, tile.size(), "{a_text} {vals:?} tile {k}");
            }
            assert!(hit.iter().all(|&h| h == 1), "{a_text} {vals:?}: every element in exactly one tile");
            // Where the tiles divide A: the static zipped divide.
            if g.modes.iter().all(|&(n, _, t)| n % t == 0)
                && let Ok(z) = zipped_divide(&a, &t)
            {
                assert_eq!(g.tile(0).table().unwrap(), z.mode(0).unwrap().table().unwrap(), "{a_text} {vals:?}");
                let rest = z.mode(1).unwrap();
                for k in 0..g.count() {
                    assert_eq!(g.tile_base(k), rest.eval(k).unwrap(), "{a_text} {vals:?} tile {k}");
                }
            }
            checked += 1;
            let mut i = 0;
            while i < vals.len() {
                vals[i] += 1;
                if vals[i] <= max {
                    break;
                }
                vals[i] = 1;
                i += 1;
            }
            if i == vals.len() {
                break;
            }
        }
        eprintln!("{a_text} by {tiler}: {checked} assignments");
    }
    // Tilers the edge tiling does not take.
    let a = evaluate_dynamic("(M,N):(1,LD)").unwrap();
    for bad in ["[4:2,_]", "[(2,2):(1,2),_]", "8:1"] {
        assert!(local_tile_edge(&a, &parse_tiler(bad).unwrap()).is_err(), "{bad}");
    }
}

/// Products and complement over symbols, with static and dynamic operands.
#[test]
fn product_and_complement_family() {
    for text in [
        "logical_product((2,2):(1,2), (M,N):(1,M))",
        "logical_product((4,M):(1,4), (N,2))",
        "logical_product(4:1, M:1)",
        "logical_product((2,2):(1,4), M:1) where M > 2",
        "logical_product((M,N):(1,M), 4:1)",
        "logical_product((M,N):(1,M), [2:1,_])",
        "logical_product(M:2, 2:1)",
        "blocked_product((2,2):(1,2), (M,N))",
        "raked_product((2,2):(1,2), (M,N))",
        "blocked_product((M,N):(1,M), (2,3):(1,2))",
        "raked_product((4,2):(2,1), (M,N):(N,1))",
        "complement((M,N):(1,M))",
        "complement(M:2, 4*M)",
        "complement((4,M):(1,8), 16*M)",
        "complement((M,N):(1,M), 2*M*N)",
        "complement((M,N):(N,1))",
        "complement((2,M):(M,1)) where M > 1",
        "complement((M,N):(1,LD), 4*LD*N) where LD % M == 0",
    ] {
        let t = differential(text);
        eprintln!("{text}: {t:?}");
    }
    // Undecidable branches name the fact; weak complements are refused.
    let e = evaluate_dynamic("complement((M,N):(1,LD))").unwrap_err().to_string();
    assert!(e.contains("cotarget"), "{e}");
    let e = evaluate_dynamic("complement((M,N):(1,LD), 4*LD*N)").unwrap_err().to_string();
    assert!(e.contains("where LD % M == 0"), "{e}");
    let e = evaluate_dynamic("complement((M,N):(K,L), 4*K*L*M*N)").unwrap_err().to_string();
    assert!(e.contains("state it"), "{e}");
    let l = evaluate_dynamic("complement((M,N):(1,LD), 4*LD*N) where LD % M == 0").unwrap();
    assert_eq!(l.to_string(), "(LD/M,4):(M,LD*N)");
    let l = evaluate_dynamic("blocked_product((2,2):(1,2), (M,N))").unwrap();
    assert_eq!(l.to_string(), "((2,M),(2,N)):((1,4),(2,4*M))");
    assert!(evaluate_dynamic("complement((4,M):(1,5), 20*M) where M > 1").is_err());
}

/// Inverses, the zipped / tiled / flat products, `flat_divide` and weak complements over
/// symbols, against layout-core at every assignment.
#[test]
fn inverse_product_variants_and_weak_complement() {
    for text in [
        "right_inverse((M,N):(1,M))",
        "right_inverse((M,N):(N,1))",
        "right_inverse((M,N):(1,LD)) where LD > M",
        "right_inverse((4,M):(M,1))",
        "right_inverse((M,2,N):(2,1,2*M)) where N > 1",
        "right_inverse((M,N):(0,1))",
        "right_inverse(((8,M),N):((1,8),LDA)) where LDA > 8*M",
        "left_inverse((M,N):(1,M)) where M > 1, N > 1",
        "left_inverse((M,N):(1,LD)) where M > 1, N > 1",
        "left_inverse((M,N):(N,1)) where M > 1, N > 1",
        "left_inverse((4,M):(2,16)) where M > 1",
        "left_inverse((4,M):(LD,1)) where M > 1",
        "left_inverse((M,3):(0,LD)) where M > 1",
        "zipped_product((M,N):(1,M), [2:1,3:1]) where M > 2",
        "tiled_product((M,N):(1,M), [2:1,_])",
        "flat_product((M,N):(1,LD), [2:1,2:1]) where LD > 1",
        "zipped_product(M:1, 4:1)",
        "flat_divide((M,N):(1,LD), [4:1,2:1]) where M % 4 == 0, N % 2 == 0",
        "flat_divide((M,N):(1,LD), [4:1,_]) where M % 8 == 0",
        "flat_divide(((8,M),N):((1,8),LDA), [16:1,4:1]) where M % 2 == 0, N % 4 == 0",
        "complement((4,M):(1,5), 19*M) where M > 1",
        "complement((4,M):(1,5), 11*M) where M > 1",
        "complement((4,M,N):(1,5,5*M), 6*M*N) where M > 1, N > 1",
        "complement((2,M):(1,3), 7*M) where M > 1",
    ] {
        let t = differential(text);
        eprintln!("{text}: {t:?}");
    }
    // Results and the conditions they carry.
    let show = |text: &str| evaluate_dynamic(text).unwrap().to_string();
    assert_eq!(show("right_inverse((M,N):(N,1))"), "(N,M):(M,1)");
    assert_eq!(show("right_inverse((M,N):(1,LD)) where LD > M"), "M:1");
    assert_eq!(show("left_inverse((M,N):(1,LD)) where M > 1, N > 1"), "(LD,N):(1,M)");
    assert_eq!(show("complement((4,M):(1,5), 19*M) where M > 1"), "4:5*M");
    // `_` is the whole mode as its block, repeated once.
    assert_eq!(show("tiled_product((M,N):(1,M), [2:1,_])"), "((M,N),2,1):((1,M),M,0)");
    assert_eq!(show("flat_product(M:1, 4:1)"), "(M,4):(1,M)");
    let l = evaluate_dynamic("left_inverse((M,N):(1,LD)) where M > 1, N > 1").unwrap();
    let conds: Vec<String> = l.conds.iter().map(|c| c.cond.to_string()).collect();
    assert_eq!(conds, ["M > 1", "N > 1", "LD >= M"]);
    // What cannot be decided names the fact; what has no form over symbols says so.
    let e = evaluate_dynamic("right_inverse((M,N):(1,LD))").unwrap_err().to_string();
    assert!(e.contains("where LD > M"), "{e}");
    let e = evaluate_dynamic("left_inverse((M,N):(1,LD))").unwrap_err().to_string();
    assert!(e.contains("where M > 1"), "{e}");
    let e = evaluate_dynamic("right_inverse((M,N):(1,1))").unwrap_err().to_string();
    assert!(e.contains("overlap"), "{e}");
    assert!(evaluate_dynamic("left_inverse((M,N):(-1,LD)) where M > 1, N > 1").is_err());
    let e = evaluate_dynamic("flat_divide((M,N):(1,LD), [4:1,_])").unwrap_err().to_string();
    assert!(e.contains("where M % 4 == 0"), "{e}");
    let e = evaluate_dynamic("complement((4,M):(1,5), 10*M) where M > 1").unwrap_err().to_string();
    assert!(e.contains("falls short"), "{e}");
    // A weak tiler never divides (layout-core refuses it for every A).
    let e = evaluate_dynamic("logical_divide((M,N):(1,LD), [(2,2):(1,3),_])").unwrap_err().to_string();
    assert!(e.contains("weak"), "{e}");
    // Products with a weak complement need disjoint copies, not checked over symbols.
    assert!(evaluate_dynamic("logical_product((4,M):(1,5), 2:1)").is_err());
}

/// Integer-valued operations over symbols are integers (`M*N`, not `M*N:1`), and parse back.
#[test]
fn integer_valued_operations() {
    use layout_core::dynamic::{DynOutput, evaluate_dynamic_value};
    let int = |text: &str| match evaluate_dynamic_value(text).unwrap() {
        DynOutput::Int(i) => i,
        other => panic!("{text}: not an integer: {other:?}"),
    };
    assert_eq!(int("size((M,N))").to_string(), "M*N");
    assert_eq!(int("cosize((M,N):(1,M))").to_string(), "M*N");
    assert_eq!(int("cosize((8,M):(M,1))").to_string(), "8*M");
    assert_eq!(int("rank(((8,M),N):((1,8),LDA))").to_string(), "2");
    assert_eq!(int("depth(((8,M),N):((1,8),LDA))").to_string(), "2");
    let s = int("size(logical_divide((M,N):(1,LD), [8:1,_]))");
    assert_eq!(s.to_string(), "M*N");
    assert_eq!(s.conds.len(), 1, "the divide's condition stays: {:?}", s.conds);
    let v = |m: i64| move |x: &str| Some(if x == "M" { m } else { 3 });
    assert_eq!(s.substitute(&v(16)).unwrap(), 48);
    assert!(s.substitute(&v(12)).unwrap_err().to_string().contains("M % 8 == 0"));
    // The printed integer parses back as the same integer.
    for text in ["size((M,N))", "size(logical_divide((M,N):(1,LD), [8:1,_]))", "cosize((8,M):(M,1))"] {
        let i = int(text);
        assert_eq!(int(&format!("size({})", i)).value, i.value, "{text}");
    }
    // A cosize that is a sum prints as one, parses back, and with numbers is the cosize of
    // the layout with the numbers in.
    let c = int("cosize((M,N):(1,LD))");
    assert_eq!(c.to_string(), "LD*N+M-LD");
    assert_eq!(int(&format!("size({c})")).value, c.value);
    let v = |x: &str| {
        Some(match x {
            "M" => 5,
            "N" => 3,
            _ => 7,
        })
    };
    assert_eq!(c.substitute(&v).unwrap(), 5 + 7 * 3 - 7);
    assert_eq!(int("cosize(((W-2,H-2),(3,3)):((1,W),(1,W)))").to_string(), "H*W");
    // A layout-valued expression is a layout.
    assert!(matches!(evaluate_dynamic_value("(M,N)").unwrap(), DynOutput::Layout(_)));
}
