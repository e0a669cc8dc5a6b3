//! Pieces of generated code the handlers' methods share: optional values as
//! the tokens of an `Option`, and lists computed once.

use proc_macro2::{Span, TokenStream as Tokens};
use quote::{format_ident, quote};
use syn::{Expr, LitBool};

use crate::options::Flag;

pub(crate) fn option_string(value: Option<String>) -> Tokens {
    match value {
        Some(s) => quote!(::core::option::Option::Some(::std::string::String::from(#s))),
        None => quote!(::core::option::Option::None),
    }
}

pub(crate) fn option_expr(expr: Option<&Expr>) -> Tokens {
    match expr {
        Some(e) => quote!(::core::option::Option::Some(#e)),
        None => quote!(::core::option::Option::None),
    }
}

pub(crate) fn option_bool(flag: Option<Flag>) -> Tokens {
    match flag {
        Some(Flag { value, .. }) => {
            let value = LitBool::new(value, Span::call_site());
            quote!(::core::option::Option::Some(#value))
        }
        None => quote!(::core::option::Option::None),
    }
}

/// A list computed once: schemas do not change while the component runs.
/// Nothing for an empty list: the trait's default answers it.
pub(crate) fn cached(name: &str, ty: Tokens, items: Vec<Tokens>) -> Tokens {
    if items.is_empty() {
        return Tokens::new();
    }
    let function = format_ident!("{name}");
    quote! {
        fn #function() -> ::std::vec::Vec<#ty> {
            static LIST: ::mcp_wit_sdk::__private::OnceLock<::std::vec::Vec<#ty>> =
                ::mcp_wit_sdk::__private::OnceLock::new();
            ::core::clone::Clone::clone(LIST.get_or_init(|| ::std::vec![#(#items),*]))
        }
    }
}
