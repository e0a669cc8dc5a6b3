//! The generated `list_tools` and `call_tool`.

use proc_macro2::TokenStream as Tokens;
use quote::quote;

use crate::handler::Handler;
use crate::snippets::{cached, option_bool, option_expr};

pub(crate) fn list_tools<'a>(tools: impl Iterator<Item = &'a Handler>) -> syn::Result<Tokens> {
    let mut items = Vec::new();
    for tool in tools {
        if tool.options.flag("unlisted").is_some_and(|f| f.value) {
            continue;
        }
        let name = tool.name();
        let description = tool.description().unwrap_or_default();
        let input_schema = match (tool.options.expr("input_schema"), tool.value_type()) {
            (Some(schema), _) => quote!(::std::string::String::from(#schema)),
            (None, Some(ty)) => quote!(::mcp_wit_sdk::__private::input_schema::<#ty>()),
            (None, None) => quote!(::std::string::String::from(::mcp_wit_sdk::__private::EMPTY_INPUT_SCHEMA)),
        };
        let output = &tool.output;
        let output_schema = match tool.options.expr("output_schema") {
            Some(schema) => quote!(::core::option::Option::Some(::std::string::String::from(#schema))),
            None => quote!(<#output as ::mcp_wit_sdk::IntoToolResult>::output_schema()),
        };
        let hints = ["read_only", "destructive", "streaming", "experimental"].map(|h| tool.options.flag(h));
        let annotations = if hints.iter().any(Option::is_some) {
            let [read_only, destructive, streaming, experimental] = hints.map(option_bool);
            quote!(::core::option::Option::Some(::mcp_wit_sdk::types::ToolAnnotations {
                read_only: #read_only,
                destructive: #destructive,
                streaming: #streaming,
                experimental: #experimental,
            }))
        } else {
            quote!(::core::option::Option::None)
        };
        let meta = option_expr(tool.options.expr("meta"));
        items.push(quote! {
            ::mcp_wit_sdk::types::Tool {
                name: ::std::string::String::from(#name),
                description: ::std::string::String::from(#description),
                input_schema: ::mcp_wit_sdk::types::Value { json: #input_schema },
                output_schema: ::core::option::Option::map(#output_schema, |json| ::mcp_wit_sdk::types::Value { json }),
                annotations: #annotations,
                meta: #meta,
            }
        });
    }
    Ok(cached("list_tools", quote!(::mcp_wit_sdk::types::Tool), items))
}

pub(crate) fn call_tool<'a>(tools: impl Iterator<Item = &'a Handler>) -> Tokens {
    let arms: Vec<Tokens> = tools
        .map(|tool| {
            let name = tool.name();
            let context = tool.context();
            let decode = match tool.value_type() {
                Some(ty) => quote!(let value: #ty = ::mcp_wit_sdk::__private::decode_arguments(arguments)?;),
                None => quote!(::mcp_wit_sdk::__private::check_json(arguments)?;),
            };
            let call = tool.call();
            quote! {
                #name => {
                    #decode
                    #context
                    ::mcp_wit_sdk::IntoToolResult::into_tool_result(#call)
                }
            }
        })
        .collect();
    if arms.is_empty() {
        return Tokens::new();
    }
    quote! {
        fn call_tool(
            &self,
            name: &str,
            arguments: &str,
        ) -> ::core::result::Result<::mcp_wit_sdk::types::CallToolResult, ::mcp_wit_sdk::ToolError> {
            match name {
                #(#arms)*
                _ => ::core::result::Result::Err(::mcp_wit_sdk::ToolError::NotFound(::std::string::String::from(name))),
            }
        }
    }
}
