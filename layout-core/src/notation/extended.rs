//! The operations of the expression language on the values beyond integer layouts: swizzles
//! `Sw<B,M,S>`, swizzled layouts `Sw o off o L`, coordinate layouts (strides `a@i`) and F2
//! layouts (strides `fk`). Each operation looks at the kind of its layout operand and runs
//! the integer operation for an integer layout; where an operation is not defined for a kind,
//! the error is a type error at that operand.

use super::eval::{Args, ExprError};
use super::value::Value;
use crate::checked;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::stride::Stride;
use crate::swizzle::{Swizzle, SwizzledLayout};
use crate::tiler::Tiler;
use crate::*;

type Res = Result<Value, ExprError>;

/// A layout operand of any kind.
pub(super) enum Any {
    Int(Layout),
    Swizzled(SwizzledLayout),
    Basis(BasisLayout),
    F2(F2Layout),
}

impl Any {
    fn shape(&self) -> &IntTuple {
        match self {
            Any::Int(l) => l.shape(),
            Any::Swizzled(s) => s.shape(),
            Any::Basis(b) => b.shape(),
            Any::F2(f) => f.shape(),
        }
    }
}

impl Args<'_> {
    /// Operand i as a layout of any kind (a bare shape is column-major).
    pub(super) fn any(&self, i: usize) -> Result<Any, ExprError> {
        Ok(match &self.vals[i] {
            Value::Swizzled(s) => Any::Swizzled(s.clone()),
            Value::BasisLayout(b) => Any::Basis(b.clone()),
            Value::F2Layout(f) => Any::F2(f.clone()),
            _ => Any::Int(self.layout(i)?),
        })
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
    Ok(int(match a.any(0)? {
        Any::Int(l) => l.size(),
        Any::Swizzled(s) => s.size(),
        Any::Basis(b) => b.size(),
        Any::F2(f) => f.size(),
    }))
}

pub(super) fn cosize(a: &Args) -> Res {
    if let Some(sw) = a.swizzle(0) {
        return Ok(int(sw.size()));
    }
    match a.any(0)? {
        Any::Int(l) => a.lift(l.cosize()).map(int),
        Any::Swizzled(s) => a.lift(s.cosize()).map(int),
        Any::Basis(b) => a.lift(b.cosize()).map(Value::Tuple),
        Any::F2(f) => a.lift(f.cosize()).map(int),
    }
}

pub(super) fn rank(a: &Args) -> Res {
    Ok(usize_int(a.any(0)?.shape().rank()))
}

pub(super) fn depth(a: &Args) -> Res {
    Ok(usize_int(a.any(0)?.shape().depth()))
}

pub(super) fn shape(a: &Args) -> Res {
    Ok(Value::Tuple(a.any(0)?.shape().clone()))
}

pub(super) fn stride(a: &Args) -> Res {
    match a.any(0)? {
        Any::Int(l) => Ok(Value::Tuple(l.stride().clone())),
        Any::Basis(b) => Ok(Value::Stride(b.stride())),
        Any::F2(f) => Ok(Value::Stride(f.stride_tuple())),
        Any::Swizzled(_) => Err(a.undefined(0, ": a swizzled layout has no strides (CuTe C++ deletes them too)")),
    }
}

pub(super) fn coalesce(a: &Args) -> Res {
    let profile = if a.opt(1) { Some(a.tuple(1)?) } else { None };
    let by_profile = |l: &Layout| match &profile {
        Some(p) => coalesce_by_mode(l, p),
        None => Ok(crate::coalesce(l)),
    };
    match a.any(0)? {
        Any::Int(l) => a.lift(by_profile(&l)).map(Value::Layout),
        Any::Swizzled(s) => a.lift(s.map_inner(by_profile)).map(Value::from_swizzled),
        _ if profile.is_some() => Err(a.undefined(0, " with a profile")),
        Any::Basis(b) => Ok(Value::from_basis(b.coalesce())),
        Any::F2(f) => Ok(Value::F2Layout(f.coalesce())),
    }
}

pub(super) fn coalesce_z(a: &Args) -> Res {
    match a.any(0)? {
        Any::Swizzled(s) => a.lift(s.map_inner(|l| Ok(coalesce_extended(l)))).map(Value::from_swizzled),
        _ => Ok(Value::Layout(coalesce_extended(&a.layout(0)?))),
    }
}

pub(super) fn filter(a: &Args) -> Res {
    let profile = if a.opt(1) { Some(a.tuple(1)?) } else { None };
    let by_profile = |l: &Layout| match &profile {
        Some(p) => filter_by_mode(l, p),
        None => Ok(crate::filter(l)),
    };
    match a.any(0)? {
        Any::Swizzled(s) => a.lift(s.map_inner(by_profile)).map(Value::from_swizzled),
        _ => a.lift(by_profile(&a.layout(0)?)).map(Value::Layout),
    }
}

/// `composition(A, B)`: B a layout or tiler (A of any kind), or B producing coordinates
/// (coordinate reduction, A of any kind).
pub(super) fn composition(a: &Args) -> Res {
    let lhs = a.any(0)?;
    if let Value::BasisLayout(b) = &a.vals[1] {
        return match lhs {
            Any::Int(l) => a.lift(compose_coordinates(&l, b)).map(Value::Layout),
            Any::Swizzled(s) => a.lift(s.compose_coordinates(b)).map(Value::from_swizzled),
            Any::Basis(x) => a.lift(x.compose_coordinates(b)).map(Value::from_basis),
            Any::F2(f) => a.lift(f.compose_coordinates(b)).map(Value::F2Layout),
        };
    }
    if matches!(a.vals[1], Value::Swizzled(_) | Value::F2Layout(_) | Value::Swizzle(_)) {
        return Err(a.undefined(1, " on the right: B must be an integer layout, a tiler or a coordinate layout"));
    }
    let t = a.tiler(1)?;
    match lhs {
        Any::Int(l) => a.lift(composition_tiler(&l, &t)).map(Value::Layout),
        Any::Swizzled(s) => a.lift(s.compose(&t)).map(Value::from_swizzled),
        Any::Basis(b) => a.lift(b.compose(&t)).map(Value::from_basis),
        Any::F2(f) => a.lift(f.compose(&t)).map(Value::F2Layout),
    }
}

pub(super) fn complement(a: &Args) -> Res {
    if let Value::BasisLayout(b) = &a.vals[0] {
        let cotarget = if a.opt(1) { Some(a.tuple(1)?) } else { None };
        return a.lift(b.complement(cotarget.as_ref())).map(Value::from_basis);
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
    r.map(Value::Layout)
}

pub(super) fn right_inverse(a: &Args) -> Res {
    if let Some(sw) = a.swizzle(0) {
        return Ok(Value::Swizzle(sw));
    }
    match a.any(0)? {
        Any::Int(l) => a.lift(crate::right_inverse(&l)).map(Value::Layout),
        Any::Swizzled(s) => a.lift(s.right_inverse()).map(Value::from_swizzled),
        Any::Basis(b) => a.lift(b.right_inverse()).map(Value::Layout),
        Any::F2(f) => a.lift(f.right_inverse()).map(Value::F2Layout),
    }
}

pub(super) fn left_inverse(a: &Args) -> Res {
    if let Some(sw) = a.swizzle(0) {
        return Ok(Value::Swizzle(sw));
    }
    match a.any(0)? {
        Any::Int(l) => a.lift(crate::left_inverse(&l)).map(Value::Layout),
        Any::Swizzled(s) => a.lift(s.left_inverse()).map(Value::from_swizzled),
        Any::Basis(b) => a.lift(b.left_inverse()).map(Value::Layout),
        Any::F2(f) => a.lift(f.left_inverse()).map(Value::F2Layout),
    }
}

/// What a layout maps to, for the concatenation error (A27).
fn codomain(l: &Any) -> &'static str {
    match l {
        Any::Int(_) => "integer offsets",
        Any::Swizzled(_) => "swizzled offsets",
        Any::Basis(_) => "coordinates",
        Any::F2(_) => "F2 bit vectors",
    }
}

fn any_text(l: &Any) -> String {
    match l {
        Any::Int(l) => l.to_string(),
        Any::Swizzled(s) => s.to_string(),
        Any::Basis(b) => b.to_string(),
        Any::F2(f) => f.to_string(),
    }
}

/// `make_layout(shape, stride)` and `make_layout(L0, L1, …)`: concatenation (§3.1) needs one
/// codomain; an integer layout whose strides are all 0 joins any (0 is every semimodule's zero).
pub(super) fn make_layout(a: &Args) -> Res {
    if let (2, Value::Tuple(shape), Value::Stride(st)) = (a.vals.len(), &a.vals[0], a.vals.get(1).unwrap_or(&a.vals[0]))
    {
        return a.lift(st.layout(shape.clone())).map(Value::from_strided);
    }
    if a.vals.len() == 2 && a.vals.iter().all(|v| matches!(v, Value::Tuple(_))) {
        return a.lift(Layout::new(a.tuple(0)?, a.tuple(1)?)).map(Value::Layout);
    }
    let modes = (0..a.vals.len()).map(|i| a.any(i)).collect::<Result<Vec<_>, _>>()?;
    if a.vals.len() == 1 {
        return Ok(a.vals[0].clone());
    }
    let zero = |m: &Any| matches!(m, Any::Int(l) if l.stride().leaves().iter().all(|&d| d == 0));
    let lead = modes.iter().find(|m| !zero(m)).unwrap_or(&modes[0]);
    let kind = std::mem::discriminant(lead);
    if let Some(m) = modes.iter().find(|m| !zero(m) && std::mem::discriminant(*m) != kind) {
        return a.lift(Err(LayoutError::CodomainMismatch {
            a: any_text(lead),
            a_kind: codomain(lead),
            b: any_text(m),
            b_kind: codomain(m),
        }));
    }
    match lead {
        Any::Int(_) => {
            let ls = modes.into_iter().filter_map(|m| if let Any::Int(l) = m { Some(l) } else { None });
            a.lift(Layout::concat(ls)).map(Value::Layout)
        }
        Any::Basis(_) => {
            let parts = modes
                .into_iter()
                .map(|m| match m {
                    Any::Basis(b) => Ok(b),
                    other => BasisLayout::new(other.shape().clone(), vec![]),
                })
                .collect::<crate::Result<Vec<_>>>();
            a.lift(parts.and_then(BasisLayout::concat)).map(Value::from_basis)
        }
        Any::F2(_) => {
            let parts = modes
                .into_iter()
                .map(|m| match m {
                    Any::F2(f) => Ok(f),
                    other => F2Layout::new(other.shape().clone(), other.shape().map_leaves(&mut |_| 0)),
                })
                .collect::<crate::Result<Vec<_>>>();
            a.lift(parts.and_then(F2Layout::concat)).map(Value::F2Layout)
        }
        Any::Swizzled(_) => Err(a.undefined(0, ": a swizzled layout cannot be a mode of another layout")),
    }
}

/// A divide: on the inner layout of a swizzled layout (the swizzle stays outside), on the
/// domain of a coordinate or F2 layout (`A ∘ op(I, T)`).
pub(super) fn divide(a: &Args, op: fn(&Layout, &Tiler) -> crate::Result<Layout>) -> Res {
    let t = a.tiler(1)?;
    match a.any(0)? {
        Any::Int(l) => a.lift(op(&l, &t)).map(Value::Layout),
        Any::Swizzled(s) => a.lift(s.map_inner(|l| op(l, &t))).map(Value::from_swizzled),
        Any::Basis(b) => a.lift(b.map_domain(|i| op(i, &t))).map(Value::from_basis),
        Any::F2(f) => a.lift(f.map_domain(|i| op(i, &t))).map(Value::F2Layout),
    }
}

/// A product with a tiler: on the inner layout of a swizzled layout; not defined for
/// coordinate and F2 layouts (their complements are not integer layouts).
pub(super) fn product(a: &Args, op: fn(&Layout, &Tiler) -> crate::Result<Layout>) -> Res {
    let t = a.tiler(1)?;
    match a.any(0)? {
        Any::Int(l) => a.lift(op(&l, &t)).map(Value::Layout),
        Any::Swizzled(s) => a.lift(s.map_inner(|l| op(l, &t))).map(Value::from_swizzled),
        _ => Err(a.undefined(0, "")),
    }
}

/// `blocked_product` and `raked_product` (a layout on the right).
pub(super) fn product_layout(a: &Args, op: fn(&Layout, &Layout) -> crate::Result<Layout>) -> Res {
    let b = a.layout(1)?;
    match a.any(0)? {
        Any::Int(l) => a.lift(op(&l, &b)).map(Value::Layout),
        Any::Swizzled(s) => a.lift(s.map_inner(|l| op(l, &b))).map(Value::from_swizzled),
        _ => Err(a.undefined(0, "")),
    }
}

pub(super) fn flatten(a: &Args) -> Res {
    Ok(match a.any(0)? {
        Any::Int(l) => Value::Layout(l.flatten()),
        Any::Swizzled(s) => Value::from_swizzled(s.flatten()),
        Any::Basis(b) => Value::from_basis(b.flatten()),
        Any::F2(f) => Value::F2Layout(f.flatten()),
    })
}

pub(super) fn get(a: &Args) -> Res {
    let mut l = a.any(0)?;
    for i in 1..a.vals.len() {
        let k = a.index(i)?;
        l = match l {
            Any::Int(l) => Any::Int(a.lift(l.mode(k))?),
            Any::Swizzled(s) => Any::Swizzled(a.lift(s.mode(k))?),
            Any::Basis(b) => Any::Basis(a.lift(b.mode(k))?),
            Any::F2(f) => Any::F2(a.lift(f.mode(k))?),
        };
    }
    Ok(match l {
        Any::Int(l) => Value::Layout(l),
        Any::Swizzled(s) => Value::from_swizzled(s),
        Any::Basis(b) => Value::from_basis(b),
        Any::F2(f) => Value::F2Layout(f),
    })
}

pub(super) fn eval(a: &Args) -> Res {
    if let Some(sw) = a.swizzle(0) {
        return Ok(int(sw.apply(a.int(1)?)));
    }
    let l = a.any(0)?;
    let c = a.tuple(1)?;
    match (l, c) {
        (Any::Int(l), IntTuple::Int(i)) => a.lift(l.eval(i)).map(int),
        (Any::Int(l), c) => a.lift(l.eval_coord(&c)).map(int),
        (Any::Swizzled(s), IntTuple::Int(i)) => a.lift(s.eval(i)).map(int),
        (Any::Swizzled(s), c) => a.lift(s.eval_coord(&c)).map(int),
        (Any::Basis(b), IntTuple::Int(i)) => a.lift(b.eval(i)).map(Value::Tuple),
        (Any::Basis(b), c) => a.lift(b.eval_coord(&c)).map(Value::Tuple),
        (Any::F2(f), IntTuple::Int(i)) => a.lift(f.eval(i)).map(int),
        (Any::F2(f), c) => a.lift(f.eval_coord(&c)).map(int),
    }
}

/// The sub-layout and the offset of a slice (for a swizzled layout the offset is folded
/// into the composed offset, so the returned offset is 0, as in CuTe C++).
fn sliced(a: &Args) -> Result<(Value, Value), ExprError> {
    let c = a.coord(1)?;
    Ok(match a.any(0)? {
        Any::Int(l) => a.lift(slice(&l, &c)).map(|(l, o)| (Value::Layout(l), int(o)))?,
        Any::Swizzled(s) => a.lift(s.slice(&c)).map(|s| (Value::from_swizzled(s), int(0)))?,
        Any::Basis(b) => a.lift(b.slice(&c)).map(|(b, o)| (Value::from_basis(b), Value::Tuple(o)))?,
        Any::F2(f) => a.lift(f.slice(&c)).map(|(f, o)| (Value::F2Layout(f), int(o)))?,
    })
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

/// `make_composed_layout(Sw, offset, L)`, written `Sw o offset o L` (`Sw o L` for offset 0).
pub(super) fn make_composed_layout(a: &Args) -> Res {
    let Some(sw) = a.swizzle(0) else {
        let hint = match &a.vals[0] {
            Value::Layout(_) | Value::Tuple(_) => "; compose two layouts with `composition(A, B)`",
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
    };
    let offset = a.int(1)?;
    let l = match &a.vals[2] {
        Value::Layout(_) | Value::Tuple(_) => a.layout(2)?,
        v => {
            return Err(a.ty(2, format!("a swizzle composes with an integer layout, found {} (`{v}`)", v.kind())));
        }
    };
    Ok(Value::from_swizzled(SwizzledLayout::new(sw, offset, l)))
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
    let Value::F2Layout(f) = &a.vals[0] else {
        return Err(a.undefined(0, ": it needs an F2 layout (strides `fk`)"));
    };
    let rows = a.lift(f.matrix())?;
    Ok(Value::Tuple(IntTuple::Tuple(
        rows.into_iter()
            .map(|r| IntTuple::Tuple(r.into_iter().map(|b| IntTuple::Int(i64::from(b))).collect()))
            .collect(),
    )))
}
