//! The expression language: parse errors carry the byte span of the offending text, algebra
//! errors the span of the operand they blame, and printed values parse back.

use layout_core::notation::{ExprError, Span, Value, evaluate, parse};
use layout_core::{LayoutError, Tiler, parse_layout, parse_tiler};

/// The source text an error points at.
fn at(text: &str) -> (String, String) {
    let e = evaluate(text).expect_err(text);
    let Span { start, end } = e.span();
    (text[start..end].to_string(), e.to_string())
}

#[test]
fn parse_errors_point_at_the_token() {
    assert_eq!(at("(4,8):(1,4").0, "(");
    assert!(at("(4,8):(1,4").1.contains("unclosed"));
    assert_eq!(at("(4,8) $ 2").0, "$");
    assert_eq!(at("(4,8):(1,4) 7").0, "7");
    assert_eq!(at("(4,,8)").0, ",");
    assert_eq!(at("99999999999999999999").0, "99999999999999999999");
    assert!(at("99999999999999999999").1.contains("64 bits"));
    assert_eq!(at("-x").0, "-");
    assert!(at("").1.contains("empty"));
    assert!(matches!(parse("[]"), Err(ExprError::Parse { .. })));
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let text = "(".repeat(10_000) + &")".repeat(10_000);
    assert!(at(&text).1.contains("nested deeper"));
    // A chain of operators nests the tree as deeply as brackets do.
    for factor in ["1", "M", "8"] {
        for op in ["*", "/", "+", "-"] {
            let text = vec![factor; 20_000].join(op);
            let (token, message) = at(&text);
            assert_eq!(token, op, "{message}");
            assert!(message.contains("nested deeper than 128"), "{message}");
            let e = layout_core::dynamic::evaluate_dynamic(&text).expect_err(&text).to_string();
            assert!(e.contains("nested deeper"), "{e}");
        }
    }
    // Brackets and operators count together.
    let text = "(".repeat(100) + &vec!["2"; 60].join("*") + &")".repeat(100);
    assert!(at(&text).1.contains("nested deeper"));
    assert_eq!(evaluate(&vec!["2"; 60].join("*")).map(|v| v.to_string()), Ok((1i64 << 60).to_string()));
}

#[test]
fn type_errors_point_at_the_argument() {
    assert_eq!(at("composition(4:1, 2:1, 3:1)").0, "composition(4:1, 2:1, 3:1)");
    assert!(at("composition(4:1)").1.contains("takes 2 arguments"));
    assert_eq!(at("cmposition(4:1, 2:1)").0, "cmposition");
    assert!(at("cmposition(4:1, 2:1)").1.contains("unknown operation"));
    assert_eq!(at("upcast((4,8):(1,4), (2,2))").0, "(2,2)");
    assert_eq!(at("size([4:1,_])").0, "[4:1,_]");
    assert_eq!(at("(4,[2:1])").0, "[2:1]");
    assert_eq!(at("Foo").1, "unknown name `Foo`");
    assert!(at("composition").1.contains("call it as"));
    assert_eq!(at("(4,-8):(1,4)").0, "(4,-8)");
    assert_eq!(at("(4,8):(1,(4,2))").0, "(4,8):(1,(4,2))");
}

#[test]
fn algebra_errors_point_at_the_blamed_operand() {
    let text = "composition((4,6):(2,3), 6:3)";
    let e = evaluate(text).unwrap_err();
    assert_eq!(&text[e.span().start..e.span().end], "6:3");
    assert!(matches!(e, ExprError::Layout { error: LayoutError::StrideDivisibility { .. }, .. }));
    assert!(e.help().is_some());
    let text = "complement((2,2):(1,1), 8)";
    let e = evaluate(text).unwrap_err();
    assert_eq!(&text[e.span().start..e.span().end], "(2,2):(1,1)");
    let text = "logical_divide((6,4):(1,6), 5:1)";
    let e = evaluate(text).unwrap_err();
    assert_eq!(&text[e.span().start..e.span().end], "5:1");
    assert!(e.to_string().contains("overrun the 24 elements by 1"), "{e}");
}

#[test]
fn printed_values_parse_back() {
    for text in [
        "8:3",
        "(8):(3)",
        "((2,4),3):((1,6),2)",
        "(4,8):(-1,0)",
        "():()",
        "((2),((3,4))):((1),((2,6)))",
        "[4:1,_,[2:1,2:2]]",
        "((2,3),(4,(5)))",
        "(1,_,(_,2))",
        "-7",
    ] {
        let v = evaluate(text).unwrap();
        assert_eq!(v.to_string(), text);
        assert_eq!(evaluate(&v.to_string()).unwrap(), v);
    }
}

#[test]
fn bare_shapes_are_column_major_layouts_and_shape_tilers() {
    assert_eq!(parse_layout("(4,8)").unwrap().to_string(), "(4,8):(1,4)");
    assert_eq!(parse_layout("((2,3),4)").unwrap().to_string(), "((2,3),4):((1,2),6)");
    assert_eq!(parse_tiler("(4,8)").unwrap().to_string(), "[4:1,8:1]");
    assert!(matches!(parse_tiler("3:2").unwrap(), Tiler::Layout(_)));
    assert_eq!(evaluate("size((4,8))").unwrap(), Value::Tuple(32.into()));
}

#[test]
fn whitespace_is_insignificant() {
    let a = evaluate(" composition ( ( 6 , 2 ) : ( 8 , 2 ) ,\n\t(4,3):(3,1) ) ").unwrap();
    assert_eq!(a.to_string(), "((2,2),3):((24,2),8)");
}

#[test]
fn the_operations_of_the_language_all_evaluate() {
    for (text, want) in [
        ("rank(((2,4),3):((1,6),2))", "2"),
        ("depth(((2,4),3):((1,6),2))", "2"),
        ("cosize((4,8):(1,5))", "39"),
        ("shape((4,8):(1,5))", "(4,8)"),
        ("stride((4,8):(1,5))", "(1,5)"),
        ("coalesce_z((2,1,6,1):(1,7,8,0))", "(2,6,1):(1,8,0)"),
        ("filter((2,1,6,1):(1,7,0,0))", "2:1"),
        ("make_layout(4:1, (2,3):(4,8))", "(4,(2,3)):(1,(4,8))"),
        ("make_layout((4,8), (8,1))", "(4,8):(8,1)"),
        ("flatten(((2,4),3):((1,6),2))", "(2,4,3):(1,6,2)"),
        ("group((2,3,4):(1,2,6), 1, 3)", "(2,(3,4)):(1,(2,6))"),
        ("append(4:1, 2:4)", "(4,2):(1,4)"),
        ("prepend((4,2):(1,4), 3:8)", "(3,4,2):(8,1,4)"),
        ("get(((2,4),3):((1,6),2), 0, 1)", "4:6"),
        ("eval(((2,2),(4,2)):((1,8),(2,16)), (2,5))", "26"),
        ("eval(((2,2),(4,2)):((1,8),(2,16)), ((0,1),(1,1)))", "26"),
        ("eval(8:3, 10)", "30"),
        ("idx2crd(11, ((2,3),2))", "((1,2),1)"),
        ("crd2idx(((1,2),1), ((2,3),2))", "11"),
        ("crd2crd((1,5), (2,6), ((2,3),2))", "((1,2),1)"),
        ("congruent((4,8), (5,7))", "true"),
        ("weakly_congruent(30, ((0,0),0,0))", "true"),
        ("compatible((2,(3,5)), ((3,2),5))", "false"),
        ("compatible(30, (2,(3,5)))", "true"),
        ("make_layout_like((2,3,4):(12,1,3))", "(2,3,4):(12,1,3)"),
        ("with_shape(16:1, (4,4))", "(4,4):(1,4)"),
    ] {
        assert_eq!(evaluate(text).map(|v| v.to_string()).map_err(|e| e.to_string()), Ok(want.to_string()), "{text}");
    }
}

#[test]
fn local_tile_and_local_partition_are_the_modes_of_the_zipped_divide() {
    let show = |t: &str| evaluate(t).unwrap().to_string();
    assert_eq!(show("zipped_divide((8,8):(1,8), [4:1,2:1])"), "((4,2),(2,4)):((1,8),(4,16))");
    assert_eq!(show("local_tile((8,8):(1,8), [4:1,2:1])"), "(4,2):(1,8)");
    assert_eq!(show("local_partition((8,8):(1,8), [4:1,2:1])"), "(2,4):(4,16)");
    assert_eq!(show("local_tile((8,8), (2,4))"), show("get(zipped_divide((8,8), (2,4)), 0)"));
    assert_eq!(show("local_partition((8,8), (2,4))"), show("get(zipped_divide((8,8), (2,4)), 1)"));
    // An inadmissible tiler is blamed as in the divide.
    let text = "local_tile((6,4):(1,6), [4:1,_])";
    let e = evaluate(text).unwrap_err();
    assert!(e.to_string().contains("local") || e.to_string().contains("divide"), "{e}");
    assert!(evaluate("local_tile(Sw<1,1,1> o (4,4):(4,1), [2:1,2:1])").is_err());
}

#[test]
fn slice_fixed_is_the_layout_of_the_fixed_modes() {
    use layout_core::{SliceCoord, slice, slice_fixed};
    let l = parse_layout("((3,2),((2,3),2)):((4,1),((2,15),100))").unwrap();
    let Value::Coord(c) = evaluate("((1,_),((_,0),_))").unwrap() else { panic!() };
    let (free, _) = slice(&l, &c).unwrap();
    let fixed = slice_fixed(&l, &c).unwrap();
    assert_eq!(free.to_string(), "(2,(2,2)):(1,(2,100))");
    assert_eq!(fixed.to_string(), "(3,3):(4,15)");
    // Every offset of L is a fixed offset plus a free offset, once each.
    let mut sums: Vec<i64> = (0..fixed.size())
        .flat_map(|k| (0..free.size()).map(move |i| (k, i)))
        .map(|(k, i)| fixed.eval(k).unwrap() + free.eval(i).unwrap())
        .collect();
    let mut all = l.table().unwrap();
    sums.sort_unstable();
    all.sort_unstable();
    assert_eq!(sums, all);
    let col = parse_layout("(4,8):(1,4)").unwrap();
    let c = SliceCoord::Tuple(vec![SliceCoord::Free, SliceCoord::Int(3)]);
    assert_eq!(slice_fixed(&col, &c).unwrap().to_string(), "8:4");
    assert_eq!(slice_fixed(&col, &SliceCoord::Free).unwrap().to_string(), "1:0");
    assert_eq!(slice_fixed(&col, &SliceCoord::Int(5)).unwrap().to_string(), "(4,8):(1,4)");
}

/// Found by the fuzzer (tests/tests/fuzz.rs, issue 12): a zero or negative extent in the
/// shape argument of idx2crd / crd2idx / crd2crd divided by zero (a panic); now an error.
#[test]
fn coordinate_functions_reject_non_positive_extents() {
    for text in [
        "idx2crd(22, ((2,2),(4,7,8,0,2)))",
        "idx2crd(3, (6,(8,4,2)))",
        "composition(8:14, idx2crd(9223372036854775807, (9,(0),(1))))",
        "crd2idx((1,2), (0,8))",
        "crd2crd((1,2), (4,8), (0,3))",
        "idx2crd(5, (2,-3,4))",
    ] {
        let r = std::panic::catch_unwind(|| evaluate(text).map(|v| v.to_string()).map_err(|e| e.to_string()));
        match r {
            Ok(Err(e)) => assert!(e.contains("must be positive") || e.contains("expected"), "{text}: {e}"),
            Ok(Ok(v)) => assert!(!text.contains(",0") && !text.contains("(0") && !text.contains("-3"), "{text} = {v}"),
            Err(_) => panic!("{text} panicked"),
        }
    }
}
