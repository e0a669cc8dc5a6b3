//! The attributes of `mcp-wit-sdk`: `#[router]` reads an `impl` block's
//! `#[tool]`, `#[resource]`, `#[resource_template]`, `#[prompt]`,
//! `#[complete]` and `#[roots_changed]` methods and implements
//! `mcp_wit_sdk::Router` from them. Use them through `mcp-wit-sdk`, whose
//! documentation describes them.

use proc_macro::TokenStream;
use proc_macro2::Span;
use syn::ItemImpl;

mod expand;
mod handler;
mod options;
mod prompts;
mod resources;
mod snippets;
mod tools;

use expand::expand;

/// Implements `mcp_wit_sdk::Router` for the type of an `impl` block from its
/// handler methods, and exports it as the component's router.
#[proc_macro_attribute]
pub fn router(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = syn::parse_macro_input!(item as ItemImpl);
    match expand(attr.into(), item) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

macro_rules! handler_attributes {
    ($($name:ident),*) => {$(
        #[doc = concat!("Marks a method of a `#[router]` impl block (see `mcp-wit-sdk`); `#[router]` reads and removes it.")]
        #[proc_macro_attribute]
        pub fn $name(_: TokenStream, item: TokenStream) -> TokenStream {
            let message = concat!("#[", stringify!($name), "] marks a method of an impl block under #[router]");
            let mut tokens: TokenStream = syn::Error::new(Span::call_site(), message).to_compile_error().into();
            tokens.extend(item);
            tokens
        }
    )*};
}

handler_attributes!(tool, resource, resource_template, prompt, complete, roots_changed);
