//! The options of an attribute: `key = "text"`, `key = EXPR`, `key` or
//! `key = true | false`.

use proc_macro2::{Span, TokenStream};
use syn::parse::Parser;
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Lit};

/// A flag's value and where it was written.
#[derive(Clone, Copy)]
pub struct Flag {
    pub value: bool,
    #[allow(dead_code, reason = "for messages about a flag")]
    pub span: Span,
}

#[derive(Default)]
pub struct Options {
    entries: Vec<(String, Option<Expr>, Span)>,
}

/// Options MCP has and the 25.3.26 contract cannot carry: say so rather than
/// drop them silently.
const NOT_CARRIED: &[(&str, &str)] = &[
    ("title", "the wasix:mcp/router@25.3.26 contract carries no tool title; say it in the description"),
    ("idempotent", "the wasix:mcp/router@25.3.26 contract carries no idempotent hint"),
    ("open_world", "the wasix:mcp/router@25.3.26 contract carries no open-world hint"),
];

impl Options {
    pub fn parse(tokens: TokenStream, allowed: &[&str]) -> syn::Result<Options> {
        let mut options = Options::default();
        let parser = syn::meta::parser(|meta| {
            let key = meta.path.get_ident().map(ToString::to_string).unwrap_or_default();
            if !allowed.contains(&key.as_str()) {
                if let Some((_, why)) = NOT_CARRIED.iter().find(|(name, _)| *name == key) {
                    return Err(meta.error(why));
                }
                return Err(meta.error(format!("unknown option `{key}`; the options here: {}", allowed.join(", "))));
            }
            if options.entries.iter().any(|(k, _, _)| *k == key) {
                return Err(meta.error(format!("`{key}` is given twice")));
            }
            let value = if meta.input.peek(syn::Token![=]) { Some(meta.value()?.parse::<Expr>()?) } else { None };
            options.entries.push((key, value, meta.path.span()));
            Ok(())
        });
        parser.parse2(tokens)?;
        Ok(options)
    }

    fn get(&self, key: &str) -> Option<(&Option<Expr>, Span)> {
        self.entries.iter().find(|(k, _, _)| k == key).map(|(_, v, span)| (v, *span))
    }

    /// A string literal option (checked by `check_strings`).
    pub fn string(&self, key: &str) -> Option<String> {
        match self.get(key)? {
            (Some(Expr::Lit(ExprLit { lit: Lit::Str(s), .. })), _) => Some(s.value()),
            _ => None,
        }
    }

    /// An expression option.
    pub fn expr(&self, key: &str) -> Option<&Expr> {
        self.get(key)?.0.as_ref()
    }

    /// A flag: present alone (`true`) or with a boolean literal.
    pub fn flag(&self, key: &str) -> Option<Flag> {
        let (value, span) = self.get(key)?;
        let value = match value {
            None => true,
            Some(Expr::Lit(ExprLit { lit: Lit::Bool(b), .. })) => b.value,
            Some(_) => true,
        };
        Some(Flag { value, span })
    }

    /// Checks the kinds of values: `strings` take a string literal, `flags`
    /// nothing or a boolean literal; the rest any expression.
    pub fn check(&self, strings: &[&str], flags: &[&str]) -> syn::Result<()> {
        for (key, value, span) in &self.entries {
            let is_string = matches!(value, Some(Expr::Lit(ExprLit { lit: Lit::Str(_), .. })));
            let is_flag = matches!(value, None | Some(Expr::Lit(ExprLit { lit: Lit::Bool(_), .. })));
            if strings.contains(&key.as_str()) && !is_string {
                return Err(syn::Error::new(*span, format!("`{key}` takes a string: {key} = \"…\"")));
            }
            if flags.contains(&key.as_str()) && !is_flag {
                return Err(syn::Error::new(*span, format!("`{key}` is a flag: `{key}` or `{key} = false`")));
            }
            if !strings.contains(&key.as_str()) && !flags.contains(&key.as_str()) && value.is_none() {
                return Err(syn::Error::new(*span, format!("`{key}` takes a value: {key} = …")));
            }
        }
        Ok(())
    }
}
