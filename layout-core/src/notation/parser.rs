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

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    end: usize,
    depth: usize,
}

/// Deeper nesting than this is an error rather than a stack overflow.
const MAX_DEPTH: usize = 128;

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
            let span = self.peek().map_or(self.eof_span(), |t| t.span);
            return Err(ExprError::Parse {
                span,
                message: format!("expression nested deeper than {MAX_DEPTH} levels"),
            });
        }
        let lhs = self.atom()?;
        if self.at(':') {
            self.pos += 1;
            let rhs = self.atom()?;
            let span = lhs.span.join(rhs.span);
            return Ok(Expr { kind: ExprKind::Layout(Box::new(lhs), Box::new(rhs)), span });
        }
        Ok(lhs)
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
            Tok::Int(v) => kind_span(ExprKind::Int(v), t.span),
            Tok::Underscore => kind_span(ExprKind::Underscore, t.span),
            Tok::Punct('-') => match self.peek().cloned() {
                Some(Token { tok: Tok::Int(v), span }) => {
                    self.pos += 1;
                    kind_span(ExprKind::Int(-v), t.span.join(span))
                }
                _ => Err(ExprError::Parse { span: t.span, message: "expected an integer after `-`".into() }),
            },
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
