//! The judge of the CuTe C++ records: a port of the reference tools' `cpp_oracle_check.py`.
//!
//! Every answer is validated by brute force ([`super::bf`]); C++ answers that failed
//! validation (`cpp_valid: false`) must not be reproduced; a rejection is right where C++
//! rejected or was wrong, an over-rejection where C++'s valid answer exists.

use super::bf::{self, Check};
use super::notation::{Lay, parse_layout};
use super::{Answer, Expect, Judgement, Record, Verdict};

/// Brute-force validation of a result (`text`, canonical) for the record's operation.
pub fn validate(rec: &Record, text: &str) -> Check {
    if rec.op == "max_common_vector" {
        let n: i64 = text.parse().map_err(|_| format!("{text:?} is not an integer"))?;
        return bf::v_max_common_vector(rec.layout_arg(0)?, rec.layout_arg(1)?, n);
    }
    let r = parse_layout(text).map_err(|e| format!("unparseable ({e})"))?;
    if !r.extents_positive() {
        return Err("zero-extent mode".to_string());
    }
    if rec.op == "make_ordered_layout" {
        return bf::v_make_ordered_layout(rec.tuple_arg(0)?, rec.tuple_arg(1)?, &r);
    }
    let a = rec.layout_arg(0)?;
    match rec.op.as_str() {
        "coalesce" => bf::v_coalesce(a, &r),
        "complement" => bf::v_complement(a, rec.int_arg(1)?, &r),
        "right_inverse" => bf::v_right_inverse(a, &r),
        "left_inverse" => bf::v_left_inverse(a, &r),
        "max_common_layout" => bf::v_max_common_layout(a, rec.layout_arg(1)?, &r),
        "nullspace" => bf::v_nullspace(a, &r),
        "upcast" => bf::v_upcast(a, rec.int_arg(1)?, &r),
        "downcast" => bf::v_downcast(a, rec.int_arg(1)?, &r),
        "composition" => bf::v_composition(a, &rec.tiler_arg(1)?, &r),
        "logical_product" => bf::v_logical_product(a, rec.layout_arg(1)?, &r),
        "blocked_product" => bf::v_blocked_raked(a, rec.layout_arg(1)?, &r, false),
        "raked_product" => bf::v_blocked_raked(a, rec.layout_arg(1)?, &r, true),
        "flat_product" => bf::v_flat_product(a, &rec.tiler_arg(1)?, &r),
        "flat_divide" => bf::v_flat_divide(a, &rec.tiler_arg(1)?, &r),
        "tile_to_shape" => bf::v_tile_to_shape(a, rec.tuple_arg(1)?, &r),
        op => Err(format!("no validator for `{op}`")),
    }
}

/// Classifies one answer to a C++ record.
pub fn judge(rec: &Record, answer: &Answer) -> Judgement {
    let expect_error = rec.expect == Expect::Error;
    let text = match answer {
        Answer::Panic(msg) => return Judgement::new(Verdict::Wrong, format!("layout-core panicked: {msg}")),
        Answer::Table(_) => return Judgement::new(Verdict::Wrong, "a table where a value was expected"),
        Answer::Rejected(_) if expect_error || !rec.cpp_valid => return Judgement::new(Verdict::RejectedOk, ""),
        Answer::Rejected(_) => return Judgement::new(Verdict::OverRejected, format!("C++: {}", rec.expect)),
        Answer::Value(v) => v.split_whitespace().collect::<String>(),
    };
    let mut checked = validate(rec, &text);
    if checked.is_ok()
        && rec.op == "right_inverse"
        && rec.cpp_valid
        && let Expect::Layout(e) = &rec.expect
    {
        let size = |s: &str| parse_layout(s).as_ref().map(Lay::size).unwrap_or(0);
        if size(&text) < size(e) {
            checked = Err(format!("not the largest right inverse (C++: {e})"));
        }
    }
    match checked {
        Err(why) => Judgement::new(Verdict::Wrong, why),
        Ok(()) if expect_error || !rec.cpp_valid => Judgement::new(Verdict::AcceptedByPolicy, ""),
        Ok(()) if rec.expect.to_string() == text => Judgement::new(Verdict::Exact, ""),
        Ok(()) => Judgement::new(Verdict::FormDiffers, format!("C++: {}", rec.expect)),
    }
}
