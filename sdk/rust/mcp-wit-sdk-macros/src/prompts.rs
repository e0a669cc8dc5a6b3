//! The generated `list_prompts` and `get_prompt`.

use proc_macro2::TokenStream as Tokens;
use quote::quote;

use crate::handler::Handler;
use crate::snippets::{cached, option_string};

pub(crate) fn list_prompts<'a>(prompts: impl Iterator<Item = &'a Handler>) -> syn::Result<Tokens> {
    let mut items = Vec::new();
    for prompt in prompts {
        let name = prompt.name();
        let description = option_string(prompt.description());
        let arguments = match (prompt.options.expr("arguments"), prompt.value_type()) {
            (Some(arguments), _) => quote!(::core::option::Option::Some(#arguments)),
            (None, Some(ty)) => {
                quote!(::core::option::Option::Some(::mcp_wit_sdk::__private::prompt_arguments::<#ty>()))
            }
            (None, None) => quote!(::core::option::Option::None),
        };
        items.push(quote! {
            ::mcp_wit_sdk::types::Prompt { name: ::std::string::String::from(#name), description: #description, arguments: #arguments }
        });
    }
    Ok(cached("list_prompts", quote!(::mcp_wit_sdk::types::Prompt), items))
}

pub(crate) fn get_prompt<'a>(prompts: impl Iterator<Item = &'a Handler>) -> Tokens {
    let arms: Vec<Tokens> = prompts
        .map(|prompt| {
            let name = prompt.name();
            let context = prompt.context();
            let decode = prompt
                .value_type()
                .map(|ty| quote!(let value: #ty = ::mcp_wit_sdk::__private::decode_prompt_arguments(arguments)?;));
            let description = match prompt.description() {
                Some(d) => quote!(::core::option::Option::Some(#d)),
                None => quote!(::core::option::Option::None),
            };
            let call = prompt.call();
            quote! {
                #name => {
                    #decode
                    #context
                    ::mcp_wit_sdk::IntoPromptResult::into_prompt_result(#call, #description)
                }
            }
        })
        .collect();
    if arms.is_empty() {
        return Tokens::new();
    }
    quote! {
        fn get_prompt(
            &self,
            name: &str,
            arguments: ::mcp_wit_sdk::__private::Map<::std::string::String, ::mcp_wit_sdk::__private::Value>,
        ) -> ::core::result::Result<::mcp_wit_sdk::types::GetPromptResult, ::mcp_wit_sdk::PromptError> {
            let _ = &arguments;
            match name {
                #(#arms)*
                _ => ::core::result::Result::Err(::mcp_wit_sdk::PromptError::NotFound(::std::string::String::from(name))),
            }
        }
    }
}
