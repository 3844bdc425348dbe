//! One place for each idea: the function table and [`Operation`] list the same operations,
//! errors name the operation that was called, and the by-mode error reads the same whichever
//! operation and layout kind reports it.

use layout_core::notation::{ExprError, FUNCTIONS, Span, evaluate};
use layout_core::{Blame, LayoutError, Operation};

#[test]
fn the_function_table_has_one_entry_per_operation_in_order() {
    let table: Vec<Operation> = FUNCTIONS.iter().map(|f| f.op).collect();
    assert_eq!(table, Operation::ALL);
    for f in FUNCTIONS {
        assert!(f.signature.starts_with(&format!("{}(", f.name())), "{}: signature `{}`", f.op, f.signature);
        assert_eq!(Operation::from_name(f.name()), Some(f.op));
        // A bare operation name is recognised as one, by the table and the enum alike.
        let e = evaluate(f.name()).expect_err(f.name());
        assert!(e.to_string().contains("is an operation"), "{}: {e}", f.op);
    }
}

fn layout_error(text: &str) -> (LayoutError, String) {
    match evaluate(text) {
        Err(ExprError::Layout { error, span }) => {
            let Span { start, end } = span;
            (error, text[start..end].to_string())
        }
        other => panic!("{text}: expected an error of the algebra, got {other:?}"),
    }
}

/// The operation an error names, for the variants that carry one.
fn named(e: &LayoutError) -> Option<Operation> {
    use LayoutError::*;
    match e {
        NegativeStride { op, .. } | TilerOverrun { op, .. } | TilerNotBijective { op, .. } => Some(*op),
        CastStride { op, .. } | CastShape { op, .. } | FactorNotPositive { op, .. } => Some(*op),
        SwizzleNotCommuting { op, .. } | SwizzledOffset { op, .. } | BasisSum { op, .. } => Some(*op),
        InComponent { op, .. } | F2NotAligned { op, .. } | F2Tail { op, .. } => Some(*op),
        _ => None,
    }
}

#[test]
fn errors_name_the_operation_called_and_blame_its_operand() {
    for (text, op, blamed) in [
        ("upcast(4:1, 0)", Operation::Upcast, "0"),
        ("downcast(4:1, 0)", Operation::Downcast, "0"),
        ("upcast(4:3, 2)", Operation::Upcast, "4:3"),
        ("complement((4,8):(1,-5), 40)", Operation::Complement, "(4,8):(1,-5)"),
        ("left_inverse(4:-1)", Operation::LeftInverse, "4:-1"),
        ("nullspace(4:-1)", Operation::Nullspace, "4:-1"),
        ("composition(8:1, 2:-1)", Operation::Composition, "2:-1"),
        ("logical_product(4:1, 2:-1)", Operation::LogicalProduct, "2:-1"),
        ("logical_divide(24:1, 5:1)", Operation::LogicalDivide, "5:1"),
        ("flat_divide(24:1, [(2,2):(1,1)])", Operation::FlatDivide, "[(2,2):(1,1)]"),
        ("complement((4,2):(1@0,1@0+1@1))", Operation::Complement, "(4,2):(1@0,1@0+1@1)"),
        ("f2_matrix((3,2):(f1,f4))", Operation::F2Matrix, "(3,2):(f1,f4)"),
    ] {
        let (e, at) = layout_error(text);
        assert_eq!(named(&e), Some(op), "{text}: {e}");
        assert!(e.to_string().starts_with(op.name()), "{text}: {e}");
        assert_eq!(at, blamed, "{text}: {e} ({:?})", e.blame());
    }
    let (right, _) = layout_error("composition(8:1, 2:-1)");
    assert!(right.to_string().starts_with("composition (right operand) needs non-negative strides"));
    assert_eq!(right.blame(), Blame::Rhs);
}

#[test]
fn too_many_modes_reads_the_same_for_every_operation_and_kind() {
    let message = |layout: &str| format!("tiler `[1:0,1:0,1:0]` has 3 modes but `{layout}` has only 2");
    for (text, layout) in [
        ("composition((2,2):(1,2), [1:0,1:0,1:0])", "(2,2):(1,2)"),
        ("logical_divide((2,2):(1,2), [1:0,1:0,1:0])", "(2,2):(1,2)"),
        ("zipped_divide((2,2):(1,2), [1:0,1:0,1:0])", "(2,2):(1,2)"),
        ("flat_divide((2,2):(1,2), [1:0,1:0,1:0])", "(2,2):(1,2)"),
        ("logical_product((2,2):(1,2), [1:0,1:0,1:0])", "(2,2):(1,2)"),
        ("tiled_product((2,2):(1,2), [1:0,1:0,1:0])", "(2,2):(1,2)"),
        ("composition((2,2):(1@0,1@1), [1:0,1:0,1:0])", "(2,2):(1@0,1@1)"),
        ("composition((2,2):(f1,f2), [1:0,1:0,1:0])", "(2,2):(f1,f2)"),
    ] {
        let (e, at) = layout_error(text);
        assert!(matches!(e, LayoutError::TooManyModes { .. }), "{text}: {e:?}");
        assert_eq!(e.to_string(), message(layout), "{text}");
        assert_eq!(at, "[1:0,1:0,1:0]", "{text}");
    }
    let (e, _) = layout_error("coalesce((2,2):(1,2), (1,1,1))");
    assert_eq!(e.to_string(), "profile `(1,1,1)` has 3 modes but `(2,2):(1,2)` has only 2");
}
