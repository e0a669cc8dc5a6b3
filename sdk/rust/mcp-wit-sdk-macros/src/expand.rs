//! `#[router]` expanded: the handlers read, checked, and the `Router`
//! implementation and the export written from them.

use proc_macro2::TokenStream as Tokens;
use quote::quote;
use syn::spanned::Spanned;
use syn::{ImplItem, ItemImpl};

use crate::handler::{Handler, Kind, Spec, take_handler};
use crate::options::{Flag, Options};
use crate::prompts::{get_prompt, list_prompts};
use crate::resources::{list_resources, list_templates, read_resource};
use crate::snippets::option_bool;
use crate::tools::{call_tool, list_tools};

pub(crate) fn expand(attr: Tokens, mut item: ItemImpl) -> syn::Result<Tokens> {
    let router = Spec {
        strings: &["name", "instructions"],
        flags: &[
            "tools_list_changed",
            "prompts_list_changed",
            "resources_list_changed",
            "resources_subscribe",
            "export",
        ],
        exprs: &["icons"],
    }
    .parse(attr)?;
    if !item.generics.params.is_empty() {
        return Err(syn::Error::new(item.generics.span(), "a router cannot be generic: it is one component's"));
    }
    if let Some((_, path, _)) = &item.trait_ {
        return Err(syn::Error::new(path.span(), "#[router] goes on an inherent impl block (`impl MyRouter { … }`)"));
    }
    let mut handlers = Vec::new();
    for impl_item in &mut item.items {
        if let ImplItem::Fn(method) = impl_item
            && let Some(handler) = take_handler(method)?
        {
            handlers.push(handler);
        }
    }
    check_unique(&handlers, Kind::Tool, "tool")?;
    check_unique(&handlers, Kind::Prompt, "prompt")?;
    for kind in [Kind::Complete, Kind::RootsChanged] {
        if let Some(second) = handlers.iter().filter(|h| h.kind == kind).nth(1) {
            return Err(syn::Error::new(second.span, "only one method of a router can have this attribute"));
        }
    }

    let self_ty = &item.self_ty;
    let of = |kind| handlers.iter().filter(move |h: &&Handler| h.kind == kind);
    let name = match router.string("name") {
        Some(name) => quote!(#name),
        None => quote!(::core::env!("CARGO_PKG_NAME")),
    };
    let instructions = router.string("instructions").unwrap_or_default();
    let capabilities = capabilities(&router, &handlers);
    let list_tools = list_tools(of(Kind::Tool))?;
    let call_tool = call_tool(of(Kind::Tool));
    let list_resources = list_resources(of(Kind::Resource))?;
    let list_templates = list_templates(of(Kind::ResourceTemplate))?;
    let read_resource = read_resource(of(Kind::Resource), of(Kind::ResourceTemplate))?;
    let list_prompts = list_prompts(of(Kind::Prompt))?;
    let get_prompt = get_prompt(of(Kind::Prompt));
    let decorations = decorations(&router, &handlers)?;
    let complete = of(Kind::Complete).next().map(|h| {
        let (context, call) = (h.context(), h.call());
        quote! {
            fn complete(
                &self,
                value: ::mcp_wit_sdk::types::CompletionRequest,
            ) -> ::core::result::Result<::mcp_wit_sdk::types::CompletionResponse, ::mcp_wit_sdk::CompletionError> {
                #context
                ::core::result::Result::map_err(#call, ::core::convert::Into::into)
            }
        }
    });
    let roots_changed = of(Kind::RootsChanged).next().map(|h| {
        let (context, call) = (h.context(), h.call());
        quote! {
            fn roots_changed(&self) {
                #context
                #call;
            }
        }
    });
    // Templates are listed, and roots changes heard, only through the extension.
    let needs_extension = handlers.iter().find(|h| matches!(h.kind, Kind::ResourceTemplate | Kind::RootsChanged));
    let extension_check = needs_extension.map(|h| {
        quote::quote_spanned! {h.span=>
            const _: () = ::core::assert!(
                ::mcp_wit_sdk::__private::EXTENSION,
                "resource templates and #[roots_changed] need mcp-wit-sdk's `extension` feature"
            );
        }
    });
    let export = match router.flag("export") {
        Some(Flag { value: false, .. }) => None,
        _ => Some(quote!(::mcp_wit_sdk::export!(#self_ty);)),
    };

    Ok(quote! {
        #item

        impl ::mcp_wit_sdk::Router for #self_ty {
            fn with_instance<T>(f: impl ::core::ops::FnOnce(&Self) -> T) -> T {
                ::std::thread_local! {
                    static INSTANCE: #self_ty = <#self_ty as ::core::default::Default>::default();
                }
                INSTANCE.with(f)
            }

            fn name() -> ::std::string::String {
                ::std::string::String::from(#name)
            }

            fn instructions() -> ::std::string::String {
                ::std::string::String::from(#instructions)
            }

            fn capabilities() -> ::mcp_wit_sdk::types::ServerCapabilities {
                #capabilities
            }

            #list_tools
            #call_tool
            #list_resources
            #list_templates
            #read_resource
            #list_prompts
            #get_prompt
            #complete
            #roots_changed
            #decorations
        }

        #extension_check
        #export
    })
}

/// `Router::decorations`: the router's icons, and each handler's MCP App
/// (`app`, `app_only`, `app_view`) and icons. None without any.
fn decorations(router: &Options, handlers: &[Handler]) -> syn::Result<Option<Tokens>> {
    let mut items = Vec::new();
    let icons = |subject: Tokens, icons: Option<&syn::Expr>| {
        icons.map(
            |icons| quote!(::mcp_wit_sdk::Decoration::icons(#subject, ::mcp_wit_sdk::serde_json::Value::from(#icons))),
        )
    };
    items.extend(icons(quote!(::mcp_wit_sdk::Subject::Server), router.expr("icons")));
    for handler in handlers {
        let name = handler.name();
        match handler.kind {
            Kind::Tool => {
                let only = handler.options.flag("app_only").is_some_and(|f| f.value);
                match (handler.options.string("app"), only) {
                    (Some(view), false) => items.push(quote!(::mcp_wit_sdk::Decoration::app_tool(#name, #view))),
                    (Some(view), true) => items.push(quote!(::mcp_wit_sdk::Decoration::app_only_tool(#name, #view))),
                    (None, true) => return Err(syn::Error::new(handler.span, "`app_only` needs `app = \"ui://…\"`")),
                    (None, false) => {}
                }
                let subject = quote!(::mcp_wit_sdk::Subject::Tool(::std::string::String::from(#name)));
                items.extend(icons(subject, handler.options.expr("icons")));
            }
            Kind::Resource => {
                let uri = handler.options.string("uri").unwrap_or_default();
                if let Some(ui) = handler.options.expr("app_view") {
                    if !uri.starts_with("ui://") {
                        return Err(syn::Error::new(handler.span, "an `app_view` resource's uri starts with ui://"));
                    }
                    items.push(
                        quote!(::mcp_wit_sdk::Decoration::app_view(#uri, ::mcp_wit_sdk::serde_json::Value::from(#ui))),
                    );
                }
                let subject = quote!(::mcp_wit_sdk::Subject::Resource(::std::string::String::from(#uri)));
                items.extend(icons(subject, handler.options.expr("icons")));
            }
            Kind::ResourceTemplate => {
                let template = handler.options.string("uri_template").unwrap_or_default();
                let subject = quote!(::mcp_wit_sdk::Subject::ResourceTemplate(::std::string::String::from(#template)));
                items.extend(icons(subject, handler.options.expr("icons")));
            }
            Kind::Prompt => {
                let subject = quote!(::mcp_wit_sdk::Subject::Prompt(::std::string::String::from(#name)));
                items.extend(icons(subject, handler.options.expr("icons")));
            }
            Kind::Complete | Kind::RootsChanged => {}
        }
    }
    if items.is_empty() {
        return Ok(None);
    }
    Ok(Some(quote! {
        fn decorations() -> ::std::vec::Vec<::mcp_wit_sdk::Decoration> {
            ::std::vec![#(#items),*]
        }
    }))
}

fn check_unique(handlers: &[Handler], kind: Kind, what: &str) -> syn::Result<()> {
    let mut seen = std::collections::HashSet::new();
    for handler in handlers.iter().filter(|h| h.kind == kind) {
        if !seen.insert(handler.name()) {
            return Err(syn::Error::new(handler.span, format!("two {what}s are named `{}`", handler.name())));
        }
    }
    Ok(())
}

fn capabilities(router: &Options, handlers: &[Handler]) -> Tokens {
    let has = |kinds: &[Kind]| handlers.iter().any(|h| kinds.contains(&h.kind));
    let flag = |name: &str| router.flag(name);
    let declared = |present: bool, flags: &[&str]| present || flags.iter().any(|f| flag(f).is_some());
    let tools = declared(has(&[Kind::Tool]), &["tools_list_changed"]).then(|| {
        let list_changed = option_bool(flag("tools_list_changed"));
        quote!(::mcp_wit_sdk::types::ToolsCapability { list_changed: #list_changed })
    });
    let resources =
        declared(has(&[Kind::Resource, Kind::ResourceTemplate]), &["resources_list_changed", "resources_subscribe"])
            .then(|| {
                let list_changed = option_bool(flag("resources_list_changed"));
                let subscribe = option_bool(flag("resources_subscribe"));
                quote!(::mcp_wit_sdk::types::ResourcesCapability { subscribe: #subscribe, list_changed: #list_changed })
            });
    let prompts = declared(has(&[Kind::Prompt]), &["prompts_list_changed"]).then(|| {
        let list_changed = option_bool(flag("prompts_list_changed"));
        quote!(::mcp_wit_sdk::types::PromptsCapability { list_changed: #list_changed })
    });
    let completions =
        has(&[Kind::Complete]).then(|| quote!(::mcp_wit_sdk::types::CompletionsCapability { enabled: true }));
    let some = |t: Option<Tokens>| match t {
        Some(t) => quote!(::core::option::Option::Some(#t)),
        None => quote!(::core::option::Option::None),
    };
    let (tools, resources, prompts, completions) = (some(tools), some(resources), some(prompts), some(completions));
    quote! {
        ::mcp_wit_sdk::types::ServerCapabilities {
            prompts: #prompts,
            resources: #resources,
            tools: #tools,
            completions: #completions,
        }
    }
}
