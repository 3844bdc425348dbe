//! The macro input as a model: the two forms, the items of the item form, and each
//! expression as text for layout-core's parser together with a map from byte ranges of that
//! text back to the tokens they came from, so that an error at a core span can be put on the
//! user's tokens.

use proc_macro2::{Delimiter, Group, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, Ident, Token, Visibility};

use crate::ctxt::Ctxt;

/// The input of one invocation.
pub enum Input {
    /// `layout! { /// docs  pub NAME = EXPR; ... }`
    Items(Vec<Item>),
    /// `layout!(EXPR)`: a value of a generated type.
    Expr(ExprTokens),
}

/// One item `#[attrs] vis NAME = EXPR;` or `#[attrs] vis fn NAME = KERNEL;`.
pub struct Item {
    /// The outer attributes (doc comments, `cfg`, lint levels).
    pub attrs: Vec<Attribute>,
    /// The visibility of the emitted items.
    pub vis: Visibility,
    /// `fn` before the name: a kernel item (`pub fn NAME = copy(SRC, DST);`).
    pub fn_token: Option<Token![fn]>,
    /// The item's name.
    pub name: Ident,
    /// The `=` token: where an empty expression is reported.
    pub eq_token: Token![=],
    /// The expression after `=`.
    pub expr: ExprTokens,
    /// `where FACT, FACT` after the expression (facts about the symbols of a dynamic
    /// layout): the `where` token and the facts' tokens.
    pub facts: Option<(proc_macro2::Ident, ExprTokens)>,
}

/// The tokens of one expression and their text.
pub struct ExprTokens {
    /// The text handed to layout-core (tokens separated by one space).
    pub text: String,
    /// Which byte range of `text` came from which token (group delimiters are their own
    /// segments, carried as an empty group with the delimiter's span).
    pub segments: Vec<Segment>,
    /// The original tokens, for errors about the whole expression.
    pub tokens: TokenStream,
    /// Tokens that cannot be part of the expression language (`4usize`, `1.5`, `"x"`):
    /// reported before parsing, each at its own token.
    pub bad_literals: Vec<(TokenTree, String)>,
}

/// A byte range of [`ExprTokens::text`] and the token it came from.
pub struct Segment {
    /// The first byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
    /// The token the range came from.
    pub token: TokenTree,
}

/// Parses the input of one invocation. Errors in the structure of an item (a missing `=`
/// or name) are collected in `cx` and that item is skipped; the others are kept.
pub fn parse_input(input: TokenStream, cx: &mut Ctxt) -> Option<Input> {
    let tokens: Vec<TokenTree> = input.clone().into_iter().collect();
    let empty = || {
        syn::Error::new(
            Span::call_site(),
            "`layout!` needs a layout expression, e.g. `layout!((4,8):(1,4))`, or items `pub NAME = EXPR;`",
        )
    };
    if tokens.is_empty() {
        cx.error(empty());
        return None;
    }
    if !is_item_form(&tokens) {
        return Some(Input::Expr(ExprTokens::new(input)));
    }
    let chunks = split_items(tokens);
    if chunks.is_empty() {
        cx.error(empty());
        return None;
    }
    let mut items = Vec::new();
    for chunk in chunks {
        match syn::parse2::<Item>(chunk) {
            Ok(item) => items.push(item),
            Err(e) => cx.error(e),
        }
    }
    Some(Input::Items(items))
}

/// The item form has a top-level `=`, `;` or `#` (none of which the expression language
/// uses), or starts with a visibility.
fn is_item_form(tokens: &[TokenTree]) -> bool {
    let starts_with_pub = matches!(tokens.first(), Some(TokenTree::Ident(i)) if i == "pub");
    starts_with_pub || tokens.iter().any(|t| matches!(t, TokenTree::Punct(p) if matches!(p.as_char(), '=' | ';' | '#')))
}

/// Splits at top-level `;`; a chunk keeps its `;` out. A trailing chunk without `;` is kept,
/// empty chunks (`;;`) are dropped.
fn split_items(tokens: Vec<TokenTree>) -> Vec<TokenStream> {
    let mut chunks = Vec::new();
    let mut current = TokenStream::new();
    for t in tokens {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ';' => {
                if !current.is_empty() {
                    chunks.push(std::mem::take(&mut current));
                }
            }
            _ => current.extend([t]),
        }
    }
    if !current.is_empty() {
        chunks.push(current);
    }
    chunks
}

impl Parse for Item {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis: Visibility = input.parse()?;
        let fn_token: Option<Token![fn]> = input.parse()?;
        let name: Ident = input
            .parse()
            .map_err(|e| syn::Error::new(e.span(), "expected the name of a layout: `pub NAME = EXPR;`"))?;
        let eq_token: Token![=] = input
            .parse()
            .map_err(|e| syn::Error::new(e.span(), format!("expected `=` after `{name}`: `pub {name} = EXPR;`")))?;
        let rest: TokenStream = input.parse()?;
        // `EXPR where FACTS`: `where` is not a word of the expression language.
        let mut expr = TokenStream::new();
        let mut facts: Option<(proc_macro2::Ident, TokenStream)> = None;
        for t in rest {
            match (&mut facts, &t) {
                (None, TokenTree::Ident(i)) if i == "where" => facts = Some((i.clone(), TokenStream::new())),
                (None, _) => expr.extend([t]),
                (Some((_, f)), _) => f.extend([t]),
            }
        }
        let facts = facts.map(|(w, f)| (w, ExprTokens::new(f)));
        Ok(Item { attrs, vis, fn_token, name, eq_token, expr: ExprTokens::new(expr), facts })
    }
}

impl ExprTokens {
    /// The text and segments of an expression's tokens (and the literals the expression
    /// language cannot hold).
    pub fn new(tokens: TokenStream) -> ExprTokens {
        let mut e =
            ExprTokens { text: String::new(), segments: Vec::new(), tokens: tokens.clone(), bad_literals: Vec::new() };
        e.push_stream(tokens);
        e
    }

    fn push_text(&mut self, text: &str, token: TokenTree) {
        if !self.text.is_empty() {
            self.text.push(' ');
        }
        let start = self.text.len();
        self.text.push_str(text);
        self.segments.push(Segment { start, end: self.text.len(), token });
    }

    fn push_stream(&mut self, tokens: TokenStream) {
        for t in tokens {
            match &t {
                TokenTree::Group(g) => self.push_group(g),
                TokenTree::Ident(i) => self.push_text(&i.to_string(), t.clone()),
                TokenTree::Punct(p) => self.push_text(&p.as_char().to_string(), t.clone()),
                TokenTree::Literal(l) => {
                    let text = l.to_string();
                    if !text.bytes().all(|b| b.is_ascii_digit()) {
                        self.bad_literals.push((t.clone(), literal_message(&text)));
                    }
                    self.push_text(&text, t.clone());
                }
            }
        }
    }

    fn push_group(&mut self, g: &Group) {
        let (open, close) = match g.delimiter() {
            Delimiter::Parenthesis => ("(", ")"),
            Delimiter::Bracket => ("[", "]"),
            Delimiter::Brace => ("{", "}"),
            // An invisible group (from a `macro_rules!` fragment): its tokens count as written.
            Delimiter::None => ("", ""),
        };
        if !open.is_empty() {
            self.push_text(open, delimiter_token(g.delimiter(), g.span_open()));
        }
        self.push_stream(g.stream());
        if !close.is_empty() {
            self.push_text(close, delimiter_token(g.delimiter(), g.span_close()));
        }
    }

    /// The tokens that produced the byte range `start..end` of the text, as an error there.
    /// An empty range (the end of the expression) is put on the token before it.
    pub fn error_at(&self, start: usize, end: usize, message: impl std::fmt::Display) -> syn::Error {
        let mut hit: Vec<&Segment> = self.segments.iter().filter(|s| s.start < end && s.end > start).collect();
        if hit.is_empty() {
            hit.extend(self.segments.iter().rev().find(|s| s.end <= start).or(self.segments.first()));
        }
        let tokens: TokenStream = hit.iter().map(|s| s.token.clone()).collect();
        syn::Error::new_spanned(tokens, message)
    }

    /// An error on the whole expression.
    pub fn error_whole(&self, message: impl std::fmt::Display) -> syn::Error {
        syn::Error::new_spanned(&self.tokens, message)
    }
}

impl ToTokens for ExprTokens {
    fn to_tokens(&self, out: &mut TokenStream) {
        self.tokens.to_tokens(out);
    }
}

/// A stand-in token for one delimiter of a group: an empty group carrying that delimiter's
/// span (a `Punct` cannot be a bracket).
fn delimiter_token(delimiter: Delimiter, span: Span) -> TokenTree {
    let mut g = Group::new(delimiter, TokenStream::new());
    g.set_span(span);
    TokenTree::Group(g)
}

fn literal_message(text: &str) -> String {
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    if !digits.is_empty() && text.contains('_') && text.chars().all(|c| c.is_ascii_digit() || c == '_') {
        format!("integers are written without underscores: `{}`", text.replace('_', ""))
    } else if !digits.is_empty() && text[digits.len()..].chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        let suffix = &text[digits.len()..];
        if suffix.starts_with(|c: char| c.is_ascii_alphabetic()) && !text.starts_with("0x") {
            format!("integers in layout notation have no type suffix: write `{digits}` instead of `{text}`")
        } else {
            format!("expected a decimal integer, found `{text}`")
        }
    } else if text.starts_with('"') || text.starts_with("r\"") || text.starts_with("r#") {
        "layout notation is written as tokens, not as a string: remove the quotes".to_string()
    } else {
        format!("expected a decimal integer, found the literal `{text}`")
    }
}
