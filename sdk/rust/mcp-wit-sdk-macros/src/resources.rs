//! The generated `list_resources`, `list_resource_templates` and
//! `read_resource`.

use proc_macro2::TokenStream as Tokens;
use quote::quote;

use crate::handler::Handler;
use crate::snippets::{cached, option_expr, option_string};

fn mime_type(handler: &Handler) -> Tokens {
    let output = &handler.output;
    match handler.options.string("mime_type") {
        Some(mime) => quote!(::std::string::String::from(#mime)),
        None if handler.options.expr("app_view").is_some() => {
            quote!(::std::string::String::from(::mcp_wit_sdk::APP_MIME_TYPE))
        }
        None => quote!(::std::string::String::from(<#output as ::mcp_wit_sdk::IntoReadResult>::default_mime_type())),
    }
}

pub(crate) fn list_resources<'a>(resources: impl Iterator<Item = &'a Handler>) -> syn::Result<Tokens> {
    let mut items = Vec::new();
    for resource in resources {
        let Some(uri) = resource.options.string("uri") else {
            return Err(syn::Error::new(resource.span, "a resource needs `uri = \"…\"`"));
        };
        if resource.options.flag("unlisted").is_some_and(|f| f.value) {
            continue;
        }
        let name = resource.name();
        let description = option_string(resource.description());
        let mime_type = mime_type(resource);
        let annotations = option_expr(resource.options.expr("annotations"));
        items.push(quote! {
            ::mcp_wit_sdk::types::McpResource {
                uri: ::std::string::String::from(#uri),
                name: ::std::string::String::from(#name),
                description: #description,
                mime_type: #mime_type,
                annotations: #annotations,
            }
        });
    }
    Ok(cached("list_resources", quote!(::mcp_wit_sdk::types::McpResource), items))
}

pub(crate) fn list_templates<'a>(templates: impl Iterator<Item = &'a Handler>) -> syn::Result<Tokens> {
    let mut items = Vec::new();
    for template in templates {
        let Some(uri_template) = template.options.string("uri_template") else {
            return Err(syn::Error::new(template.span, "a resource template needs `uri_template = \"…\"`"));
        };
        let name = template.name();
        let title = option_string(template.options.string("title"));
        let description = option_string(template.description());
        let mime_type = option_string(template.options.string("mime_type"));
        let annotations = option_expr(template.options.expr("annotations"));
        items.push(quote! {
            ::mcp_wit_sdk::types::ResourceTemplate {
                uri_template: ::std::string::String::from(#uri_template),
                name: ::std::string::String::from(#name),
                title: #title,
                description: #description,
                mime_type: #mime_type,
                annotations: #annotations,
            }
        });
    }
    Ok(cached("list_resource_templates", quote!(::mcp_wit_sdk::types::ResourceTemplate), items))
}

pub(crate) fn read_resource<'a>(
    resources: impl Iterator<Item = &'a Handler>,
    templates: impl Iterator<Item = &'a Handler>,
) -> syn::Result<Tokens> {
    let declared_mime = |h: &Handler| match h.options.string("mime_type") {
        Some(mime) => quote!(::core::option::Option::Some(#mime)),
        // An MCP App view is read as one.
        None if h.options.expr("app_view").is_some() => {
            quote!(::core::option::Option::Some(::mcp_wit_sdk::APP_MIME_TYPE))
        }
        None => quote!(::core::option::Option::None),
    };
    let mut arms = Vec::new();
    for resource in resources {
        let uri = resource.options.string("uri").unwrap_or_default();
        let (context, call, mime) = (resource.context(), resource.call(), declared_mime(resource));
        arms.push(quote! {
            #uri => {
                #context
                return ::mcp_wit_sdk::IntoReadResult::into_read_result(#call, uri, #mime);
            }
        });
    }
    let mut matches = Vec::new();
    for template in templates {
        let uri_template = template.options.string("uri_template").unwrap_or_default();
        let (context, call, mime) = (template.context(), template.call(), declared_mime(template));
        let decode = template
            .value_type()
            .map(|ty| quote!(let value: #ty = ::mcp_wit_sdk::__private::decode_template_variables(uri, variables)?;));
        let bind = if decode.is_some() { quote!(variables) } else { quote!(_) };
        matches.push(quote! {
            if let ::core::option::Option::Some(#bind) = ::mcp_wit_sdk::match_uri_template(#uri_template, uri) {
                #decode
                #context
                return ::mcp_wit_sdk::IntoReadResult::into_read_result(#call, uri, #mime);
            }
        });
    }
    if arms.is_empty() && matches.is_empty() {
        return Ok(Tokens::new());
    }
    Ok(quote! {
        fn read_resource(
            &self,
            uri: &str,
        ) -> ::core::result::Result<::mcp_wit_sdk::types::ReadResourceResult, ::mcp_wit_sdk::ResourceError> {
            match uri {
                #(#arms)*
                _ => {}
            }
            #(#matches)*
            ::core::result::Result::Err(::mcp_wit_sdk::ResourceError::NotFound(::std::string::String::from(uri)))
        }
    })
}
