//! What the static parts of layouts with symbols decide at expansion, for kernel items over
//! them: a gemm whose operands have static shapes (a static tile of a dynamic tensor, CuTe's
//! `local_tile(mA, (8,8))` with a run-time `ldA`: `(8,8):(1,LDA)`) has its extents as
//! constants of the straight-line small kernel and only its strides read at run time (the
//! constant strides are literals, so the choice of the unit-stride operand folds at compile
//! time); there is no plan to keep and no layout to compare per call. A gemm whose operands
//! are rank-2 with one leaf per mode and extents that are plain symbols (`(M,K):(1,LDA)`) is
//! one product with no loops around it, decided here too: a call reads M, N, K and the
//! strides and runs the small kernel over run-time extents when they are small, without the
//! kept plan.

use layout_core::dynamic::{DynLayout, SymTuple};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::kernel::dynamic::{DynKernel, DynKind};

/// The largest extent of a static tile's GEMM (the facade's `SMALL_MAX`).
pub const TILE_MAX: usize = 32;

/// An extent of a flat mode: a constant or a plain symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ext {
    Const(usize),
    Symbol(String),
}

/// One mode of a flat layout: its extent, and its stride when that is a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileMode {
    pub extent: Ext,
    pub stride: Option<isize>,
}

impl TileMode {
    fn constant(&self) -> Option<usize> {
        match self.extent {
            Ext::Const(e) => Some(e),
            Ext::Symbol(_) => None,
        }
    }
}

/// The modes of `d` when each top-level mode is one leaf whose extent is a constant or a
/// plain symbol.
pub fn flat_modes(d: &DynLayout) -> Option<Vec<TileMode>> {
    let (SymTuple::Tuple(shape), SymTuple::Tuple(stride)) = (&d.shape, &d.stride) else { return None };
    shape
        .iter()
        .zip(stride)
        .map(|(e, s)| match (e, s) {
            (SymTuple::Leaf(e), SymTuple::Leaf(s)) => {
                let extent = match e.as_int() {
                    Some(v) => Ext::Const(usize::try_from(v).ok().filter(|&e| e > 0)?),
                    None => {
                        let name = e.to_string();
                        layout_core::dynamic::is_symbol_name(&name).then_some(Ext::Symbol(name))?
                    }
                };
                Some(TileMode { extent, stride: s.as_int().and_then(|s| isize::try_from(s).ok()) })
            }
            _ => None,
        })
        .collect()
}

/// The flat rank-2 modes of a gemm's A, B and C whose extents agree as written (A (M,K),
/// B (N,K), C (M,N)): M, N and K.
fn flat_gemm(k: &DynKernel) -> Option<[Ext; 3]> {
    if !matches!(k.kind, DynKind::Gemm(_)) {
        return None;
    }
    let [a, b, c] = [0, 1, 2].map(|i| k.operands[i].tile.as_deref());
    let (a, b, c) = (a?, b?, c?);
    if a.len() != 2 || b.len() != 2 || c.len() != 2 {
        return None;
    }
    let (m, n, kk) = (&a[0].extent, &b[0].extent, &a[1].extent);
    (b[1].extent == *kk && c[0].extent == *m && c[1].extent == *n).then(|| [m.clone(), n.clone(), kk.clone()])
}

/// M, N and K of a gemm over flat rank-2 operands whose extents are symbols (some of them):
/// a call reads them and runs the small kernel when they are small.
pub fn gemm_direct(k: &DynKernel) -> Option<[Ext; 3]> {
    flat_gemm(k).filter(|e| e.iter().any(|e| matches!(e, Ext::Symbol(_))))
}

/// M, N and K of a gemm whose three operands have static rank-2 shapes that agree (A (M,K),
/// B (N,K), C (M,N)), each at most [`TILE_MAX`] and some stride not a constant.
pub fn gemm_tile(k: &DynKernel) -> Option<[usize; 3]> {
    let [m, n, kk] = flat_gemm(k)?;
    let c = |e: &Ext| match e {
        Ext::Const(v) if *v <= TILE_MAX => Some(*v),
        _ => None,
    };
    Some([c(&m)?, c(&n)?, c(&kk)?])
}

/// The strides of a static tile's operand `v` (a tensor parameter): a literal for a constant
/// stride (0 for an extent-1 mode, whose stride is never used), else the offset of the
/// mode's first step, read from the layout value.
pub fn strides(modes: &[TileMode], v: &TokenStream, facade: &TokenStream) -> Vec<TokenStream> {
    let rank = modes.len();
    modes
        .iter()
        .enumerate()
        .map(|(i, m)| match m.stride {
            _ if m.constant() == Some(1) => quote!(0),
            Some(s) => {
                let s = Literal::isize_unsuffixed(s);
                quote!(#s)
            }
            None => {
                let coord = (0..rank).map(|j| Literal::usize_unsuffixed(usize::from(j == i)));
                quote!(#facade::Offset::to_isize(#facade::LayoutFn::offset_of(#v.layout(), (#(#coord),*))))
            }
        })
        .collect()
}

/// The body of a static tile's gemm item: the strides read once, then the facade's checked
/// small kernel with the extents `[M, N, K]` as constants. `args` are the parameters alpha,
/// A, B, beta, C; `items` the operands' item names.
pub fn tile_call(
    k: &DynKernel,
    [m, n, kk]: [usize; 3],
    t: &TokenStream,
    items: [&proc_macro2::Ident; 3],
    args: [&proc_macro2::Ident; 5],
    facade: &TokenStream,
    p: &TokenStream,
) -> TokenStream {
    let [alpha, a, b, beta, c] = args;
    let [la, lb, lc] = items;
    let modes = |i: usize| k.operands[i].tile.as_deref().unwrap_or_default();
    let of = |i: usize, v: &proc_macro2::Ident| strides(modes(i), &quote!(#v), facade);
    let (sa, sb, sc) = (of(0, a), of(1, b), of(2, c));
    let (ars, acs, bcs, brs, crs, ccs) = (&sa[0], &sa[1], &sb[0], &sb[1], &sc[0], &sc[1]);
    let (m, n, kk) = (Literal::usize_unsuffixed(m), Literal::usize_unsuffixed(n), Literal::usize_unsuffixed(kk));
    quote! {
        let strides = #p::Strides { ars: #ars, acs: #acs, brs: #brs, bcs: #bcs, crs: #crs, ccs: #ccs };
        #p::gemm_tile::<#t, #la, #lb, #lc, #m, #n, #kk>(#alpha, #a, #b, #beta, #c, strides)
    }
}

/// The body of a gemm item over flat operands with symbolic extents: M, N and K read from the
/// layouts, and when each is at most [`TILE_MAX`] the facade's small kernel over run-time
/// extents with the strides read as for a static tile; `planned` (the kept plan's call) for
/// larger problems.
#[allow(clippy::too_many_arguments)]
pub fn direct_call(
    k: &DynKernel,
    [m, n, kk]: &[Ext; 3],
    args: [&proc_macro2::Ident; 5],
    facade: &TokenStream,
    p: &TokenStream,
    planned: TokenStream,
) -> TokenStream {
    let [alpha, a, b, beta, c] = args;
    let modes = |i: usize| k.operands[i].tile.as_deref().unwrap_or_default();
    let of = |i: usize, v: &proc_macro2::Ident| strides(modes(i), &quote!(#v), facade);
    let (sa, sb, sc) = (of(0, a), of(1, b), of(2, c));
    let (ars, acs, bcs, brs, crs, ccs) = (&sa[0], &sa[1], &sb[0], &sb[1], &sc[0], &sc[1]);
    let ext = |e: &Ext, v: &proc_macro2::Ident| match e {
        Ext::Const(x) => {
            let x = Literal::usize_unsuffixed(*x);
            quote!(#x)
        }
        Ext::Symbol(s) => {
            let getter = quote::format_ident!("{}", s.to_lowercase());
            quote!(#v.layout().#getter())
        }
    };
    let (m, n, kk) = (ext(m, a), ext(n, b), ext(kk, a));
    let max = Literal::usize_unsuffixed(TILE_MAX);
    quote! {
        let extents = (#m, #n, #kk);
        if extents.0 <= #max && extents.1 <= #max && extents.2 <= #max {
            let strides = #p::Strides { ars: #ars, acs: #acs, brs: #brs, bcs: #bcs, crs: #crs, ccs: #ccs };
            return #p::gemm_small(#alpha, #a, #b, #beta, #c, extents, strides);
        }
        #planned
    }
}
