//! Near the limits of `i64` (issue 25): an answer that fits is given, computed without an
//! intermediate value that does not; one that does not fit is an overflow error.

use layout_core::notation::evaluate;
use layout_core::{LayoutError, complement, complement_exact, parse_layout};

#[test]
fn a_complement_that_fits_is_given_at_the_largest_cotarget() {
    let l = parse_layout("4:1").unwrap();
    // cosize((L, L*)) = 4 + (2^61 - 1)·4 = 2^63 overflows, but the complement itself fits.
    assert_eq!(complement(&l, i64::MAX).unwrap().to_string(), "2305843009213693952:4");
    assert_eq!(complement_exact(&l, i64::MAX).unwrap().to_string(), "2305843009213693952:4");
    let v = evaluate("complement(4:1, 9223372036854775807)").unwrap();
    assert_eq!(v.to_string(), "2305843009213693952:4");
    for (text, want) in [
        ("(2,4):(1,2)", "1152921504606846976:8"),
        ("3:1", "3074457345618258603:3"),
        ("(2,2):(1,4)", "(2,1152921504606846976):(2,8)"),
    ] {
        let c = complement(&parse_layout(text).unwrap(), i64::MAX).unwrap();
        assert_eq!(c.to_string(), want, "{text}");
        // The rest mode reaches the cotarget (in i128: `(L, L*)` has 2^63 or more elements).
        let (s, d) = *c.flat_modes().last().unwrap();
        assert!(i128::from(s) * i128::from(d) >= i128::from(i64::MAX), "{text}: {c}");
    }
}

#[test]
fn the_post_condition_still_rejects_a_weak_complement_that_falls_short() {
    let e = complement(&parse_layout("(3,2):(1,4)").unwrap(), 24).unwrap_err();
    assert!(matches!(e, LayoutError::ComplementShort { last: 22, .. }), "{e}");
}

#[test]
fn a_complement_that_does_not_fit_is_an_overflow_error() {
    // The stride 2^62 of the second mode covers 2·2^62 = 2^63: no extent is left for the rest.
    let e = complement(&parse_layout("(2,2):(1,4611686018427387904)").unwrap(), i64::MAX).unwrap_err();
    assert!(matches!(e, LayoutError::Overflow { .. }), "{e}");
}
