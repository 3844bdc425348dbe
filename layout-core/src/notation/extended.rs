//! The operations of the expression language on the values beyond integer layouts: swizzles
//! `Sw<B,M,S>`, swizzled layouts `Sw o off o L`, coordinate layouts (strides `a@i`) and F2
//! layouts (strides `fk`). Each operation runs on a layout of any kind ([`AnyLayout`]), whose
//! impl dispatches on the kind; where an operation is not defined for a kind, the error is a
//! type error at that operand.

use super::eval::{Args, ExprError};
use super::value::Value;
use crate::any_layout::AnyLayout;
use crate::checked;
use crate::composed::{self, Stage};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::stride::Stride;
use crate::swizzle::Swizzle;
use crate::tiler::Tiler;
use crate::*;

type Res = Result<Value, ExprError>;

impl Args<'_> {
    /// Operand i as a layout of any kind (a bare shape is column-major).
    pub(super) fn any(&self, i: usize) -> Result<AnyLayout, ExprError> {
        match &self.vals[i] {
            Value::Layout(l) => Ok(l.clone()),
            _ => self.layout(i).map(AnyLayout::Int),
        }
    }

    fn swizzle(&self, i: usize) -> Option<Swizzle> {
        match &self.vals[i] {
            Value::Swizzle(s) => Some(*s),
            _ => None,
        }
    }

    /// The error for an operation not defined on operand i's kind.
    fn undefined(&self, i: usize, why: &str) -> ExprError {
        let v = &self.vals[i];
        self.ty(i, format!("`{}` is not defined for {} (`{v}`){why}", self.op, v.kind()))
    }

    /// Operand 0 through an operation on its integer inner layout, or the type error.
    fn on_inner(&self, op: impl FnOnce(&Layout) -> crate::Result<Layout>, why: &str) -> Res {
        match self.any(0)?.map_inner(op) {
            Some(r) => self.lift(r).map(Value::Layout),
            None => Err(self.undefined(0, why)),
        }
    }
}

fn int(v: i64) -> Value {
    Value::Tuple(IntTuple::Int(v))
}

fn usize_int(v: usize) -> Value {
    int(i64::try_from(v).unwrap_or(i64::MAX))
}

pub(super) fn size(a: &Args) -> Res {
    if let Some(sw) = a.swizzle(0) {
        return Ok(int(sw.size()));
    }
    Ok(int(a.any(0)?.size()))
}

pub(super) fn cosize(a: &Args) -> Res {
    if let Some(sw) = a.swizzle(0) {
        return Ok(int(sw.size()));
    }
    a.lift(a.any(0)?.cosize()).map(Value::Tuple)
}

pub(super) fn rank(a: &Args) -> Res {
    Ok(usize_int(a.any(0)?.rank()))
}

pub(super) fn depth(a: &Args) -> Res {
    Ok(usize_int(a.any(0)?.depth()))
}

pub(super) fn shape(a: &Args) -> Res {
    Ok(Value::Tuple(a.any(0)?.shape().clone()))
}

pub(super) fn stride(a: &Args) -> Res {
    match a.any(0)? {
        AnyLayout::Int(l) => Ok(Value::Tuple(l.stride().clone())),
        AnyLayout::Coordinate(b) => Ok(Value::Stride(b.stride())),
        AnyLayout::F2(f) => Ok(Value::Stride(f.stride())),
        AnyLayout::Swizzled(_) => Err(a.undefined(0, ": a swizzled layout has no strides (CuTe C++ deletes them too)")),
        AnyLayout::Composed(_) => Err(a.undefined(0, ": a composed layout has no strides (CuTe C++ deletes them too)")),
    }
}

pub(super) fn coalesce(a: &Args) -> Res {
    if !a.opt(1) {
        return Ok(Value::Layout(a.any(0)?.coalesce()));
    }
    let profile = a.tuple(1)?;
    a.on_inner(|l| coalesce_by_mode(l, &profile), " with a profile")
}

pub(super) fn coalesce_z(a: &Args) -> Res {
    if matches!(a.vals[0], Value::Layout(AnyLayout::Swizzled(_))) {
        return a.on_inner(|l| Ok(coalesce_extended(l)), "");
    }
    Ok(Value::layout(coalesce_extended(&a.layout(0)?)))
}

pub(super) fn filter(a: &Args) -> Res {
    let profile = if a.opt(1) { Some(a.tuple(1)?) } else { None };
    let by_profile = |l: &Layout| match &profile {
        Some(p) => filter_by_mode(l, p),
        None => Ok(crate::filter(l)),
    };
    if matches!(a.vals[0], Value::Layout(AnyLayout::Swizzled(_))) {
        return a.on_inner(by_profile, "");
    }
    a.lift(by_profile(&a.layout(0)?)).map(Value::layout)
}

/// `composition(A, B)`: B a layout or tiler (A of any kind), B producing coordinates
/// (coordinate reduction, A of any kind), or B a swizzle, a swizzled or a composed layout (A
/// with integer values): the composed layout `A o B` in normal form (docs/algebra.md §1.6).
pub(super) fn composition(a: &Args) -> Res {
    let lhs = a.any(0)?;
    let chained = match &a.vals[1] {
        Value::Layout(AnyLayout::Coordinate(b)) => return a.lift(lhs.compose_coordinates(b)).map(Value::Layout),
        Value::Layout(b @ (AnyLayout::Swizzled(_) | AnyLayout::Composed(_))) => compose_chains(&lhs, b),
        Value::Swizzle(sw) => compose_swizzle(&lhs, *sw),
        Value::Layout(AnyLayout::F2(_)) => {
            return Err(a.undefined(
                1,
                " on the right: B must be an integer layout, a tiler, a coordinate layout, a swizzle or a \
                 swizzled layout",
            ));
        }
        _ => {
            let t = a.tiler(1)?;
            return a.lift(lhs.compose(&t)).map(Value::Layout);
        }
    };
    match chained {
        Some(r) => a.lift(r).map(Value::Layout),
        None => Err(a.undefined(
            0,
            ": with a swizzle or a swizzled layout on the right, A is an integer, swizzled or composed layout",
        )),
    }
}

pub(super) fn complement(a: &Args) -> Res {
    if let Value::Layout(AnyLayout::Coordinate(b)) = &a.vals[0] {
        let cotarget = if a.opt(1) { Some(a.tuple(1)?) } else { None };
        return a.lift(b.complement(cotarget.as_ref())).map(Value::layout);
    }
    let l = a.layout(0)?;
    let r = if a.opt(1) {
        // An integer layout's cotarget is read as its size: `complement(2:1, (3,4))` is
        // `complement(2:1, 12) = 6:2`, so that `(L, L*)` tiles exactly the 12 elements. CuTe C++
        // divides the shape mode by mode (`ceil_div((3,4), 2) = (2,4)`) and answers `8:2`,
        // whose image [0,16) leaves the cotarget; we do not follow it (README, Policies).
        let cotarget = a.tuple(1)?;
        a.lift(cotarget.product()).and_then(|n| a.lift(crate::complement(&l, n)))
    } else {
        a.lift(complement_default(&l))
    };
    r.map(Value::layout)
}

pub(super) fn right_inverse(a: &Args) -> Res {
    if let Some(sw) = a.swizzle(0) {
        return Ok(Value::Swizzle(sw));
    }
    match a.any(0)?.right_inverse() {
        Some(r) => a.lift(r).map(Value::Layout),
        None => Err(a.undefined(0, "")),
    }
}

pub(super) fn left_inverse(a: &Args) -> Res {
    if let Some(sw) = a.swizzle(0) {
        return Ok(Value::Swizzle(sw));
    }
    match a.any(0)?.left_inverse() {
        Some(r) => a.lift(r).map(Value::Layout),
        None => Err(a.undefined(0, "")),
    }
}

/// `make_layout(shape, stride)` and `make_layout(L0, L1, …)`: concatenation (paper §3.1) needs one
/// codomain; an integer layout whose strides are all 0 joins any (0 is every semimodule's zero).
pub(super) fn make_layout(a: &Args) -> Res {
    if let (2, Value::Tuple(shape), Value::Stride(st)) = (a.vals.len(), &a.vals[0], a.vals.get(1).unwrap_or(&a.vals[0]))
    {
        return a.lift(st.layout(shape.clone())).map(Value::layout);
    }
    if a.vals.len() == 2 && a.vals.iter().all(|v| matches!(v, Value::Tuple(_))) {
        return a.lift(Layout::new(a.tuple(0)?, a.tuple(1)?)).map(Value::layout);
    }
    let modes = (0..a.vals.len()).map(|i| a.any(i)).collect::<Result<Vec<_>, _>>()?;
    if a.vals.len() == 1 {
        return Ok(a.vals[0].clone());
    }
    let zero = |m: &AnyLayout| matches!(m, AnyLayout::Int(l) if l.stride().leaves().iter().all(|&d| d == 0));
    let lead = modes.iter().find(|m| !zero(m)).unwrap_or(&modes[0]);
    let kind = std::mem::discriminant(lead);
    if let Some(m) = modes.iter().find(|m| !zero(m) && std::mem::discriminant(*m) != kind) {
        return a.lift(Err(LayoutError::CodomainMismatch {
            a: lead.to_string(),
            a_kind: lead.codomain(),
            b: m.to_string(),
            b_kind: m.codomain(),
        }));
    }
    match lead {
        AnyLayout::Int(_) => {
            let ls = modes.into_iter().filter_map(|m| if let AnyLayout::Int(l) = m { Some(l) } else { None });
            a.lift(Layout::concat(ls)).map(Value::layout)
        }
        AnyLayout::Coordinate(_) => {
            let parts = modes
                .into_iter()
                .map(|m| match m {
                    AnyLayout::Coordinate(b) => Ok(b),
                    other => CoordinateLayout::new(other.shape().clone(), vec![]),
                })
                .collect::<crate::Result<Vec<_>>>();
            a.lift(parts.and_then(CoordinateLayout::concat)).map(Value::layout)
        }
        AnyLayout::F2(_) => {
            let parts = modes
                .into_iter()
                .map(|m| match m {
                    AnyLayout::F2(f) => Ok(f),
                    other => F2Layout::new(other.shape().clone(), other.shape().map_leaves(&mut |_| 0)),
                })
                .collect::<crate::Result<Vec<_>>>();
            a.lift(parts.and_then(F2Layout::concat)).map(Value::layout)
        }
        AnyLayout::Swizzled(_) => Err(a.undefined(0, ": a swizzled layout cannot be a mode of another layout")),
        AnyLayout::Composed(_) => Err(a.undefined(0, ": a composed layout cannot be a mode of another layout")),
    }
}

/// A divide: on the inner layout of a swizzled layout (the swizzle stays outside), on the
/// domain of a coordinate or F2 layout (`A ∘ op(I, T)`).
pub(super) fn divide(a: &Args, op: fn(&Layout, &Tiler) -> crate::Result<Layout>) -> Res {
    let t = a.tiler(1)?;
    a.lift(a.any(0)?.map_domain(|l| op(l, &t))).map(Value::Layout)
}

/// A product with a tiler: on the inner layout of a swizzled layout; not defined for
/// coordinate and F2 layouts (their complements are not integer layouts).
pub(super) fn product(a: &Args, op: fn(&Layout, &Tiler) -> crate::Result<Layout>) -> Res {
    let t = a.tiler(1)?;
    a.on_inner(|l| op(l, &t), "")
}

/// `blocked_product` and `raked_product` (a layout on the right).
pub(super) fn product_layout(a: &Args, op: fn(&Layout, &Layout) -> crate::Result<Layout>) -> Res {
    let b = a.layout(1)?;
    a.on_inner(|l| op(l, &b), "")
}

pub(super) fn flatten(a: &Args) -> Res {
    Ok(Value::Layout(a.any(0)?.flatten()))
}

pub(super) fn get(a: &Args) -> Res {
    let mut l = a.any(0)?;
    for i in 1..a.vals.len() {
        l = a.lift(l.mode(a.index(i)?))?;
    }
    Ok(Value::Layout(l))
}

pub(super) fn eval(a: &Args) -> Res {
    if let Some(sw) = a.swizzle(0) {
        return Ok(int(sw.apply(a.int(1)?)));
    }
    let l = a.any(0)?;
    match a.tuple(1)? {
        IntTuple::Int(i) => a.lift(l.eval(i)).map(Value::Tuple),
        c => a.lift(l.eval_coord(&c)).map(Value::Tuple),
    }
}

/// The sub-layout and the offset of a slice.
fn sliced(a: &Args) -> Result<(Value, Value), ExprError> {
    let c = a.coord(1)?;
    let (l, off) = a.lift(a.any(0)?.slice(&c))?;
    Ok((Value::Layout(l), Value::Tuple(off)))
}

pub(super) fn slice_layout(a: &Args) -> Res {
    sliced(a).map(|(l, _)| l)
}

pub(super) fn slice_offset(a: &Args) -> Res {
    sliced(a).map(|(_, o)| o)
}

/// `make_swizzle(B, M, S)`, written `Sw<B,M,S>`.
pub(super) fn make_swizzle(a: &Args) -> Res {
    a.lift(Swizzle::new(a.int(0)?, a.int(1)?, a.int(2)?)).map(Value::Swizzle)
}

/// `make_composed_layout(F_1, …, F_k, L)`, written `F_1 o … o F_k o L`: `Sw o offset o L`
/// (`Sw o L` for offset 0), and chains of layouts, swizzles and integer offsets with at least
/// one swizzle, `A o Sw o off o B` (docs/algebra.md §1.6), in normal form.
pub(super) fn make_composed_layout(a: &Args) -> Res {
    let last = a.vals.len() - 1;
    let has_swizzle = a.vals[..last]
        .iter()
        .any(|v| matches!(v, Value::Swizzle(_) | Value::Layout(AnyLayout::Swizzled(_) | AnyLayout::Composed(_))));
    if !has_swizzle {
        let hint = match &a.vals[0] {
            Value::Layout(AnyLayout::Int(_)) | Value::Tuple(_) => "; compose two layouts with `composition(A, B)`",
            _ => "",
        };
        return Err(a.ty(
            0,
            format!(
                "`o` composes a swizzle with a layout (`Sw<B,M,S> o L` or `Sw<B,M,S> o offset o L`), but its left \
                 operand is {}{hint}",
                a.vals[0].kind()
            ),
        ));
    }
    let mut stages = Vec::with_capacity(a.vals.len());
    for (i, v) in a.vals[..last].iter().enumerate() {
        match v {
            Value::Swizzle(sw) => stages.push(Stage::Swizzle(*sw)),
            Value::Tuple(IntTuple::Int(o)) => stages.push(Stage::Offset(*o)),
            Value::Tuple(_) | Value::Layout(_) => {
                let Some((chain, l)) = composed::chain_of(&a.any(i)?) else {
                    return Err(a.ty(i, format!("a stage of a composed layout has integer values, found {}", v.kind())));
                };
                stages.extend(chain);
                stages.push(Stage::Layout(l));
            }
            v => {
                return Err(a.ty(
                    i,
                    format!(
                        "a composed layout chains layouts, swizzles and integer offsets, found {} (`{v}`)",
                        v.kind()
                    ),
                ));
            }
        }
    }
    let inner = match &a.vals[last] {
        Value::Layout(AnyLayout::Int(_) | AnyLayout::Swizzled(_) | AnyLayout::Composed(_)) | Value::Tuple(_) => {
            match composed::chain_of(&a.any(last)?) {
                Some((chain, l)) => {
                    stages.extend(chain);
                    l
                }
                None => a.layout(last)?,
            }
        }
        v => {
            return Err(a.ty(last, format!("a swizzle composes with an integer layout, found {} (`{v}`)", v.kind())));
        }
    };
    a.lift(ComposedLayout::build(stages, inner)).map(Value::Layout)
}

/// The largest basis index accepted (coordinates of higher rank are not meaningful here).
const MAX_BASIS: usize = 63;

/// `scaled_basis(a, i, b, j, …)`, written `a@i+b@j+…`.
pub(super) fn scaled_basis(a: &Args) -> Res {
    if !a.vals.len().is_multiple_of(2) {
        return Err(a.ty(a.vals.len() - 1, "`scaled_basis` takes pairs `a, i` (written `a@i`)".into()));
    }
    let mut coefs: Vec<i64> = Vec::new();
    for k in (0..a.vals.len()).step_by(2) {
        let coef = a.int(k)?;
        let i = a.index(k + 1)?;
        if i > MAX_BASIS {
            return Err(a.ty(k + 1, format!("basis element {i} is past the largest one supported, {MAX_BASIS}")));
        }
        if coefs.len() <= i {
            coefs.resize(i + 1, 0);
        }
        coefs[i] = a.lift(checked::add(coefs[i], coef))?;
    }
    Ok(match Stride::basis_sum(coefs) {
        Stride::Basis(c) if c.is_empty() => int(0),
        s => Value::Stride(s),
    })
}

/// `f2_stride(k)`, written `fk`.
pub(super) fn f2_stride(a: &Args) -> Res {
    let k = a.int(0)?;
    if k < 0 {
        return Err(a.ty(0, format!("an F2 stride is a bit vector k ≥ 0, found {k}")));
    }
    Ok(Value::Stride(Stride::F2(k)))
}

/// `f2_matrix(L)`: the F2 matrix of an F2 layout, one int tuple per row.
pub(super) fn f2_matrix(a: &Args) -> Res {
    let Value::Layout(AnyLayout::F2(f)) = &a.vals[0] else {
        return Err(a.undefined(0, ": it needs an F2 layout (strides `fk`)"));
    };
    let rows = a.lift(f.matrix())?;
    Ok(Value::Tuple(IntTuple::Tuple(
        rows.into_iter()
            .map(|r| IntTuple::Tuple(r.into_iter().map(|b| IntTuple::Int(i64::from(b))).collect()))
            .collect(),
    )))
}
