//! The attributes of `mcp-wit-sdk`: `#[router]` reads an `impl` block's
//! `#[tool]`, `#[resource]`, `#[resource_template]`, `#[prompt]`,
//! `#[complete]` and `#[roots_changed]` methods and implements
//! `mcp_wit_sdk::Router` from them. Use them through `mcp-wit-sdk`, whose
//! documentation describes them.

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as Tokens};
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{Attribute, Expr, FnArg, ImplItem, ImplItemFn, ItemImpl, LitBool, Pat, ReturnType, Type};

mod options;

use options::{Flag, Options};

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

/// What a handler is.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Tool,
    Resource,
    ResourceTemplate,
    Prompt,
    Complete,
    RootsChanged,
}

impl Kind {
    fn of(attribute: &Attribute) -> Option<Kind> {
        let ident = attribute.path().get_ident()?.to_string();
        Some(match ident.as_str() {
            "tool" => Kind::Tool,
            "resource" => Kind::Resource,
            "resource_template" => Kind::ResourceTemplate,
            "prompt" => Kind::Prompt,
            "complete" => Kind::Complete,
            "roots_changed" => Kind::RootsChanged,
            _ => return None,
        })
    }

    /// The options each kind takes: strings, flags and expressions.
    fn options(self) -> Spec {
        match self {
            Kind::Tool => Spec {
                strings: &["name", "description"],
                flags: &["read_only", "destructive", "streaming", "experimental", "unlisted"],
                exprs: &["input_schema", "output_schema", "meta"],
            },
            Kind::Resource => Spec {
                strings: &["uri", "name", "description", "mime_type"],
                flags: &["unlisted"],
                exprs: &["annotations"],
            },
            Kind::ResourceTemplate => Spec {
                strings: &["uri_template", "name", "title", "description", "mime_type"],
                flags: &[],
                exprs: &["annotations"],
            },
            Kind::Prompt => Spec { strings: &["name", "description"], flags: &[], exprs: &["arguments"] },
            Kind::Complete | Kind::RootsChanged => Spec { strings: &[], flags: &[], exprs: &[] },
        }
    }
}

/// The options an attribute takes, by kind of value.
struct Spec {
    strings: &'static [&'static str],
    flags: &'static [&'static str],
    exprs: &'static [&'static str],
}

impl Spec {
    fn parse(&self, tokens: Tokens) -> syn::Result<Options> {
        let allowed: Vec<&str> = [self.strings, self.flags, self.exprs].concat();
        let options = Options::parse(tokens, &allowed)?;
        options.check(self.strings, self.flags)?;
        Ok(options)
    }
}

/// A method's parameter, by what the handler is given.
enum Param {
    Context { by_ref: bool },
    Uri,
    Value(Box<Type>),
}

/// One handler method.
struct Handler {
    kind: Kind,
    method: syn::Ident,
    receiver: bool,
    params: Vec<Param>,
    output: Type,
    options: Options,
    doc: Option<String>,
    span: Span,
}

impl Handler {
    fn name(&self) -> String {
        self.options.string("name").unwrap_or_else(|| self.method.to_string())
    }

    fn description(&self) -> Option<String> {
        self.options.string("description").or_else(|| self.doc.clone())
    }

    fn value_type(&self) -> Option<&Type> {
        self.params.iter().find_map(|p| match p {
            Param::Value(ty) => Some(&**ty),
            _ => None,
        })
    }

    /// The call of the method, given the decoded value as `value`, the
    /// context as `cx` and the URI as `uri`.
    fn call(&self) -> Tokens {
        let method = &self.method;
        let args = self.params.iter().map(|p| match p {
            Param::Context { by_ref: true } => quote!(&cx),
            Param::Context { by_ref: false } => quote!(::core::clone::Clone::clone(&cx)),
            Param::Uri => quote!(uri),
            Param::Value(_) => quote!(value),
        });
        if self.receiver { quote!(self.#method(#(#args),*)) } else { quote!(Self::#method(#(#args),*)) }
    }

    fn context(&self) -> Tokens {
        let name = self.name();
        quote!(let cx = ::mcp_wit_sdk::Context::new(#name);)
    }
}

fn expand(attr: Tokens, mut item: ItemImpl) -> syn::Result<Tokens> {
    let router = Spec {
        strings: &["name", "instructions"],
        flags: &[
            "tools_list_changed",
            "prompts_list_changed",
            "resources_list_changed",
            "resources_subscribe",
            "export",
        ],
        exprs: &[],
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
        }

        #extension_check
        #export
    })
}

/// Reads and removes a method's handler attribute.
fn take_handler(method: &mut ImplItemFn) -> syn::Result<Option<Handler>> {
    let mut found = None;
    let mut error: Option<syn::Error> = None;
    method.attrs.retain(|attribute| match Kind::of(attribute) {
        Some(kind) => {
            if found.is_some() {
                let e = syn::Error::new(attribute.span(), "a method can be only one handler");
                match &mut error {
                    Some(error) => error.combine(e),
                    None => error = Some(e),
                }
            } else {
                found = Some((kind, attribute.clone()));
            }
            false
        }
        None => true,
    });
    if let Some(error) = error {
        return Err(error);
    }
    let Some((kind, attribute)) = found else { return Ok(None) };
    let options = match &attribute.meta {
        syn::Meta::Path(_) => Options::default(),
        syn::Meta::List(list) => kind.options().parse(list.tokens.clone())?,
        syn::Meta::NameValue(nv) => return Err(syn::Error::new(nv.span(), "write #[name(option = value, …)]")),
    };
    let signature = &method.sig;
    if let Some(asyncness) = signature.asyncness {
        return Err(syn::Error::new(
            asyncness.span(),
            "handlers are synchronous: the component runs one call at a time",
        ));
    }
    if !signature.generics.params.is_empty() {
        return Err(syn::Error::new(signature.generics.span(), "a handler cannot be generic"));
    }
    let mut receiver = false;
    let mut params = Vec::new();
    for input in &signature.inputs {
        match input {
            FnArg::Receiver(r) => {
                if r.reference.is_none() || r.mutability.is_some() {
                    return Err(syn::Error::new(
                        r.span(),
                        "handlers take `&self`: the router is shared, keep changing state in a Cell or RefCell",
                    ));
                }
                receiver = true;
            }
            FnArg::Typed(typed) => {
                if !matches!(&*typed.pat, Pat::Ident(_) | Pat::Wild(_)) {
                    return Err(syn::Error::new(typed.pat.span(), "name the parameter (patterns are not supported)"));
                }
                params.push(classify(&typed.ty));
            }
        }
    }
    let values = params.iter().filter(|p| matches!(p, Param::Value(_))).count();
    let uris = params.iter().filter(|p| matches!(p, Param::Uri)).count();
    let allowed = match kind {
        Kind::Tool | Kind::Prompt => (1, 0),
        Kind::Resource => (0, 1),
        Kind::ResourceTemplate => (1, 1),
        Kind::Complete => (1, 0),
        Kind::RootsChanged => (0, 0),
    };
    if values > allowed.0 || uris > allowed.1 {
        let what = match kind {
            Kind::Tool => "a tool takes one arguments type (a struct), and optionally `&Context`",
            Kind::Prompt => "a prompt takes one arguments type (a struct), and optionally `&Context`",
            Kind::Resource => "a resource takes optionally `uri: &str` and `&Context`",
            Kind::ResourceTemplate => {
                "a resource template takes optionally `uri: &str`, one type for the URI's variables, and `&Context`"
            }
            Kind::Complete => "#[complete] takes a `CompletionRequest`, and optionally `&Context`",
            Kind::RootsChanged => "#[roots_changed] takes optionally `&Context`",
        };
        return Err(syn::Error::new(signature.inputs.span(), what));
    }
    if kind == Kind::Complete && values == 0 {
        return Err(syn::Error::new(signature.span(), "#[complete] takes a `CompletionRequest`"));
    }
    let output = match &signature.output {
        ReturnType::Type(_, ty) => (**ty).clone(),
        ReturnType::Default if kind == Kind::RootsChanged => syn::parse_quote!(()),
        ReturnType::Default => syn::parse_quote!(()),
    };
    Ok(Some(Handler {
        kind,
        method: signature.ident.clone(),
        receiver,
        params,
        output,
        options,
        doc: doc_comment(&method.attrs),
        span: attribute.span(),
    }))
}

/// `&Context` (by its last path segment, so an alias or a full path works),
/// `&str` (a URI), or anything else (the decoded value).
fn classify(ty: &Type) -> Param {
    let last_segment = |ty: &Type| match ty {
        Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    };
    match ty {
        Type::Reference(reference) if last_segment(&reference.elem).as_deref() == Some("Context") => {
            Param::Context { by_ref: true }
        }
        Type::Reference(reference) if last_segment(&reference.elem).as_deref() == Some("str") => Param::Uri,
        _ if last_segment(ty).as_deref() == Some("Context") => Param::Context { by_ref: false },
        _ => Param::Value(Box::new(ty.clone())),
    }
}

/// The doc comment's lines, joined and trimmed.
fn doc_comment(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .map(|line| line.strip_prefix(' ').unwrap_or(&line).trim_end().to_owned())
        .collect();
    let text = lines.join("\n").trim().to_owned();
    (!text.is_empty()).then_some(text)
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

fn option_string(value: Option<String>) -> Tokens {
    match value {
        Some(s) => quote!(::core::option::Option::Some(::std::string::String::from(#s))),
        None => quote!(::core::option::Option::None),
    }
}

fn option_expr(expr: Option<&Expr>) -> Tokens {
    match expr {
        Some(e) => quote!(::core::option::Option::Some(#e)),
        None => quote!(::core::option::Option::None),
    }
}

fn option_bool(flag: Option<Flag>) -> Tokens {
    match flag {
        Some(Flag { value, .. }) => {
            let value = LitBool::new(value, Span::call_site());
            quote!(::core::option::Option::Some(#value))
        }
        None => quote!(::core::option::Option::None),
    }
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

/// A list computed once: schemas do not change while the component runs.
/// Nothing for an empty list: the trait's default answers it.
fn cached(name: &str, ty: Tokens, items: Vec<Tokens>) -> Tokens {
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

fn list_tools<'a>(tools: impl Iterator<Item = &'a Handler>) -> syn::Result<Tokens> {
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

fn call_tool<'a>(tools: impl Iterator<Item = &'a Handler>) -> Tokens {
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

fn mime_type(handler: &Handler) -> Tokens {
    let output = &handler.output;
    match handler.options.string("mime_type") {
        Some(mime) => quote!(::std::string::String::from(#mime)),
        None => quote!(::std::string::String::from(<#output as ::mcp_wit_sdk::IntoReadResult>::default_mime_type())),
    }
}

fn list_resources<'a>(resources: impl Iterator<Item = &'a Handler>) -> syn::Result<Tokens> {
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

fn list_templates<'a>(templates: impl Iterator<Item = &'a Handler>) -> syn::Result<Tokens> {
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

fn read_resource<'a>(
    resources: impl Iterator<Item = &'a Handler>,
    templates: impl Iterator<Item = &'a Handler>,
) -> syn::Result<Tokens> {
    let declared_mime = |h: &Handler| match h.options.string("mime_type") {
        Some(mime) => quote!(::core::option::Option::Some(#mime)),
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

fn list_prompts<'a>(prompts: impl Iterator<Item = &'a Handler>) -> syn::Result<Tokens> {
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

fn get_prompt<'a>(prompts: impl Iterator<Item = &'a Handler>) -> Tokens {
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
