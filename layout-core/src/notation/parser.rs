//! Recursive-descent parser: tokens to an [`Expr`] tree with spans.

use super::ast::{Expr, ExprKind, Span};
use super::eval::ExprError;
use super::lexer::{Tok, Token, lex};

/// Parses one expression that must span the whole text.
pub fn parse(text: &str) -> Result<Expr, ExprError> {
    let tokens = lex(text)?;
    let mut p = Parser { tokens: &tokens, pos: 0, end: text.len(), depth: 0 };
    if tokens.is_empty() {
        return Err(ExprError::Parse { span: Span::new(0, text.len()), message: "empty expression".into() });
    }
    let e = p.expr()?;
    if let Some(t) = p.peek() {
        return Err(ExprError::Parse {
            span: t.span,
            message: format!("unexpected {} after the end of the expression", describe(&t.tok)),
        });
    }
    Ok(e)
}

/// `fk` (an F2 stride): `Some(Ok(k))`, `Some(Err(_))` when k does not fit, `None` for other names.
fn f2_literal(name: &str) -> Option<Result<i64, String>> {
    let digits = name.strip_prefix('f')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse::<i64>().map_err(|_| format!("F2 stride `{name}` does not fit in 64 bits")))
}

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    end: usize,
    depth: usize,
}

/// The most `o` in one composed layout.
const MAX_CHAIN: usize = 16;

/// Deeper nesting than this is an error rather than a stack overflow.
const MAX_DEPTH: usize = 128;

/// `-v`, an error for `-(-9223372036854775808)`.
fn negate(v: i64, span: Span) -> Result<i64, ExprError> {
    v.checked_neg().ok_or_else(|| ExprError::Parse { span, message: format!("`-({v})` does not fit in 64 bits") })
}

/// The error past [`MAX_DEPTH`]: every pass over the tree recurses at most that deep.
fn too_deep(span: Span) -> ExprError {
    ExprError::Parse {
        span,
        message: format!(
            "expression nested deeper than {MAX_DEPTH} levels (each bracket and each operator of a chain is a level)"
        ),
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Int(v) => format!("integer `{v}`"),
        Tok::Ident(s) => format!("name `{s}`"),
        Tok::Underscore => "`_`".into(),
        Tok::Punct(c) => format!("`{c}`"),
    }
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn at(&self, c: char) -> bool {
        matches!(self.peek(), Some(Token { tok: Tok::Punct(p), .. }) if *p == c)
    }

    fn eof_span(&self) -> Span {
        Span::new(self.end, self.end)
    }

    fn expect(&mut self, c: char, opened: Option<Span>) -> Result<Span, ExprError> {
        match self.peek() {
            Some(t) if t.tok == Tok::Punct(c) => {
                let span = t.span;
                self.pos += 1;
                Ok(span)
            }
            Some(t) => {
                Err(ExprError::Parse { span: t.span, message: format!("expected `{c}`, found {}", describe(&t.tok)) })
            }
            None => Err(ExprError::Parse {
                span: opened.unwrap_or(self.eof_span()),
                message: match opened {
                    Some(_) => format!("unclosed delimiter: expected `{c}` before the end of the expression"),
                    None => format!("expected `{c}` at the end of the expression"),
                },
            }),
        }
    }

    fn expr(&mut self) -> Result<Expr, ExprError> {
        self.depth += 1;
        let e = self.expr_inner();
        self.depth -= 1;
        e
    }

    fn expr_inner(&mut self) -> Result<Expr, ExprError> {
        if self.depth > MAX_DEPTH {
            return Err(too_deep(self.peek().map_or(self.eof_span(), |t| t.span)));
        }
        let first = self.term()?;
        if !self.at_word("o") {
            return Ok(first);
        }
        // `F o L`, `F o offset o L` and longer chains `A o Sw o off o B` (CuTe's composed
        // layouts) are calls of `make_composed_layout(F, offset, L)`, `make_composed_layout(A, Sw, off, B)`.
        let mut terms = vec![first];
        let mut ops = Vec::new();
        while let Some(t) = self.peek().filter(|t| t.tok == Tok::Ident("o".into())).cloned() {
            ops.push(t.span);
            self.pos += 1;
            if ops.len() > MAX_CHAIN {
                return Err(ExprError::Parse {
                    span: t.span,
                    message: format!(
                        "a composed layout (`Sw<B,M,S> o offset o L`, `A o Sw o offset o B`) has at most {MAX_CHAIN} `o`"
                    ),
                });
            }
            terms.push(self.term()?);
        }
        let span = terms[0].span.join(terms[terms.len() - 1].span);
        if terms.len() == 2 {
            terms.insert(1, Expr { kind: ExprKind::Int(0), span: ops[0] });
        }
        Ok(Expr { kind: ExprKind::Call { name: "make_composed_layout".into(), name_span: ops[0], args: terms }, span })
    }

    /// `sum [":" sum]`.
    fn term(&mut self) -> Result<Expr, ExprError> {
        let lhs = self.sum()?;
        if self.at(':') {
            self.pos += 1;
            let rhs = self.sum()?;
            let span = lhs.span.join(rhs.span);
            return Ok(Expr { kind: ExprKind::Layout(Box::new(lhs), Box::new(rhs)), span });
        }
        Ok(lhs)
    }

    /// `product (("+" | "-") product)*` with `product = atom (("*" | "/") atom)*`, both
    /// left-associative, `*` and `/` binding tighter: `W-2`, `Q+2`, `M*N-LD`, `3*M/8/N`. Each
    /// operator nests the tree one level deeper and counts against [`MAX_DEPTH`]. One frame
    /// for both levels: brackets recurse through here, and the stack is the limit.
    fn sum(&mut self) -> Result<Expr, ExprError> {
        let depth = self.depth;
        let (mut sum_ops, mut product_ops) = (0, 0);
        let arith = |lhs: Expr, op: char, rhs: Expr| {
            let span = lhs.span.join(rhs.span);
            Expr { kind: ExprKind::Arith { lhs: Box::new(lhs), op, rhs: Box::new(rhs) }, span }
        };
        // The sum so far and the operator after it; the product being read.
        let mut pending: Option<(Expr, char)> = None;
        let mut product = self.atom()?;
        while let Some(t) = self.peek().cloned() {
            let Tok::Punct(op @ ('+' | '-' | '*' | '/')) = t.tok else { break };
            if matches!(op, '+' | '-') {
                (sum_ops, product_ops) = (sum_ops + 1, 0);
            } else {
                product_ops += 1;
            }
            self.depth = depth + sum_ops + product_ops;
            if self.depth > MAX_DEPTH {
                return Err(too_deep(t.span));
            }
            self.pos += 1;
            let rhs = self.atom()?;
            if matches!(op, '+' | '-') {
                let lhs = match pending.take() {
                    Some((sum, o)) => arith(sum, o, product),
                    None => product,
                };
                pending = Some((lhs, op));
                product = rhs;
            } else {
                product = arith(product, op, rhs);
            }
        }
        self.depth = depth;
        Ok(match pending {
            Some((sum, op)) => arith(sum, op, product),
            None => product,
        })
    }

    fn at_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Token { tok: Tok::Ident(x), .. }) if x == w)
    }

    /// An optionally negative integer and its span.
    fn signed_int(&mut self, what: &str) -> Result<(i64, Span), ExprError> {
        let start = self.peek().map(|t| t.span);
        let negative = self.at('-');
        if negative {
            self.pos += 1;
        }
        match self.peek().cloned() {
            Some(Token { tok: Tok::Int(v), span }) => {
                self.pos += 1;
                let span = start.map_or(span, |s| s.join(span));
                let v = if negative { negate(v, span)? } else { v };
                Ok((v, span))
            }
            Some(t) => {
                Err(ExprError::Parse { span: t.span, message: format!("expected {what}, found {}", describe(&t.tok)) })
            }
            None => Err(ExprError::Parse { span: self.eof_span(), message: format!("expected {what}, found the end") }),
        }
    }

    /// After the coefficient `a` of `a@i`: `@i`, then `+b@j` terms. A call of
    /// `scaled_basis(a, i, b, j, …)`.
    fn basis(&mut self, a: i64, a_span: Span) -> Result<Expr, ExprError> {
        let int = |v, span| Expr { kind: ExprKind::Int(v), span };
        let name_span = self.expect('@', None)?;
        let mut args = vec![int(a, a_span)];
        loop {
            let (i, i_span) = self.signed_int("a basis index after `@`")?;
            args.push(int(i, i_span));
            if !self.at('+') {
                break;
            }
            self.pos += 1;
            let (b, b_span) = self.signed_int("a coefficient `b@j` after `+`")?;
            args.push(int(b, b_span));
            self.expect('@', None)?;
        }
        let span = a_span.join(args[args.len() - 1].span);
        Ok(Expr { kind: ExprKind::Call { name: "scaled_basis".into(), name_span, args }, span })
    }

    /// After `Sw`: `<B,M,S>`, a call of `make_swizzle(B, M, S)`.
    fn swizzle(&mut self, sw: Span) -> Result<Expr, ExprError> {
        let open = self.expect('<', None)?;
        let mut args = Vec::with_capacity(3);
        for k in 0..3 {
            if k > 0 {
                self.expect(',', Some(open))?;
            }
            let (v, span) = self.signed_int("an integer of `Sw<B,M,S>`")?;
            args.push(Expr { kind: ExprKind::Int(v), span });
        }
        let close = self.expect('>', Some(open))?;
        Ok(Expr { kind: ExprKind::Call { name: "make_swizzle".into(), name_span: sw, args }, span: sw.join(close) })
    }

    /// `e, e, …` up to the closing delimiter (consumed); returns the items and closing span.
    fn list(&mut self, close: char, open: Span) -> Result<(Vec<Expr>, Span), ExprError> {
        let mut items = Vec::new();
        if self.at(close) {
            let s = self.expect(close, Some(open))?;
            return Ok((items, s));
        }
        loop {
            items.push(self.expr()?);
            if self.at(',') {
                self.pos += 1;
                continue;
            }
            let s = self.expect(close, Some(open))?;
            return Ok((items, s));
        }
    }

    /// After a `-` at `minus`: `-M` or `-(W-2)`, the product of `-1` and the atom.
    fn negated(&mut self, minus: Span) -> Result<Expr, ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(too_deep(minus));
        }
        let rhs = self.atom();
        self.depth -= 1;
        let rhs = rhs?;
        let span = minus.join(rhs.span);
        let minus = Expr { kind: ExprKind::Int(-1), span: minus };
        Ok(Expr { kind: ExprKind::Arith { lhs: Box::new(minus), op: '*', rhs: Box::new(rhs) }, span })
    }

    fn atom(&mut self) -> Result<Expr, ExprError> {
        let Some(t) = self.peek().cloned() else {
            return Err(ExprError::Parse {
                span: self.eof_span(),
                message: "expected an expression, found the end".into(),
            });
        };
        self.pos += 1;
        let kind_span = |kind, span| Ok(Expr { kind, span });
        match t.tok {
            Tok::Int(v) if self.at('@') => self.basis(v, t.span),
            Tok::Int(v) => kind_span(ExprKind::Int(v), t.span),
            Tok::Underscore => kind_span(ExprKind::Underscore, t.span),
            Tok::Punct('-') => match self.peek().cloned() {
                Some(Token { tok: Tok::Int(v), span }) => {
                    self.pos += 1;
                    let v = negate(v, span)?;
                    if self.at('@') {
                        return self.basis(v, t.span.join(span));
                    }
                    kind_span(ExprKind::Int(v), t.span.join(span))
                }
                Some(Token { tok: Tok::Ident(name), .. }) if crate::dynamic::is_symbol_name(&name) => {
                    self.negated(t.span)
                }
                // `-(W-2)`: the product `-1*(W-2)`.
                Some(Token { tok: Tok::Punct('('), .. }) => self.negated(t.span),
                _ => Err(ExprError::Parse {
                    span: t.span,
                    message: "expected an integer, a symbol or `(` after `-`".into(),
                }),
            },
            Tok::Ident(name) if name == "Sw" && self.at('<') => self.swizzle(t.span),
            Tok::Ident(name) if f2_literal(&name).is_some() && !self.at('(') => {
                let k =
                    f2_literal(&name).unwrap_or(Ok(0)).map_err(|message| ExprError::Parse { span: t.span, message })?;
                let args = vec![Expr { kind: ExprKind::Int(k), span: t.span }];
                kind_span(ExprKind::Call { name: "f2_stride".into(), name_span: t.span, args }, t.span)
            }
            Tok::Punct('(') => {
                let (items, close) = self.list(')', t.span)?;
                kind_span(ExprKind::Tuple(items), t.span.join(close))
            }
            Tok::Punct('[') => {
                let (items, close) = self.list(']', t.span)?;
                if items.is_empty() {
                    return Err(ExprError::Parse {
                        span: t.span.join(close),
                        message: "a tiler needs at least one mode".into(),
                    });
                }
                kind_span(ExprKind::Tiler(items), t.span.join(close))
            }
            Tok::Ident(name) => {
                if self.at('(') {
                    let open = self.expect('(', None)?;
                    let (args, close) = self.list(')', open)?;
                    return kind_span(ExprKind::Call { name, name_span: t.span, args }, t.span.join(close));
                }
                kind_span(ExprKind::Name(name), t.span)
            }
            tok => Err(ExprError::Parse {
                span: t.span,
                message: format!("expected an expression, found {}", describe(&tok)),
            }),
        }
    }
}
