//! Tokens of the expression language, with byte spans.

use super::ast::Span;
use super::eval::ExprError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Int(i64),
    Ident(String),
    Underscore,
    Punct(char),
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// Splits `text` into tokens; whitespace is insignificant.
pub fn lex(text: &str) -> Result<Vec<Token>, ExprError> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // A `-` directly before digits is part of the literal, so `-9223372036854775808` reads,
        // except after an operand, where it subtracts (`W-2` is `W`, `-`, `2`).
        let after_operand =
            matches!(out.last(), Some(Token { tok: Tok::Int(_) | Tok::Ident(_) | Tok::Punct(')'), .. }));
        let negative_literal = c == b'-' && !after_operand && bytes.get(i + 1).is_some_and(u8::is_ascii_digit);
        if c.is_ascii_digit() || negative_literal {
            i += usize::from(negative_literal);
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let digits = &text[start..i];
            let value = digits.parse::<i64>().map_err(|_| ExprError::Parse {
                span: Span::new(start, i),
                message: format!("integer `{digits}` does not fit in 64 bits"),
            })?;
            out.push(Token { tok: Tok::Int(value), span: Span::new(start, i) });
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            let tok = if word == "_" { Tok::Underscore } else { Tok::Ident(word.to_string()) };
            out.push(Token { tok, span: Span::new(start, i) });
            continue;
        }
        if "()[],:-<>@+*/".contains(c as char) {
            out.push(Token { tok: Tok::Punct(c as char), span: Span::new(start, start + 1) });
            i += 1;
            continue;
        }
        let ch = text[start..].chars().next().unwrap_or('?');
        return Err(ExprError::Parse {
            span: Span::new(start, start + ch.len_utf8()),
            message: format!("unexpected character `{ch}`"),
        });
    }
    Ok(out)
}
