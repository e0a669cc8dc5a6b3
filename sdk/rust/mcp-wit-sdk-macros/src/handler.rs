//! The handler methods of a `#[router]` impl block: what each is, its
//! attribute read and removed, its parameters classified.

use proc_macro2::{Span, TokenStream as Tokens};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, FnArg, ImplItemFn, Pat, ReturnType, Type};

use crate::options::Options;

/// What a handler is.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Kind {
    Tool,
    Resource,
    ResourceTemplate,
    Prompt,
    Complete,
    RootsChanged,
}

impl Kind {
    pub(crate) fn of(attribute: &Attribute) -> Option<Kind> {
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
    pub(crate) fn options(self) -> Spec {
        match self {
            Kind::Tool => Spec {
                strings: &["name", "description", "app"],
                flags: &["read_only", "destructive", "streaming", "experimental", "unlisted", "app_only"],
                exprs: &["input_schema", "output_schema", "meta", "icons"],
            },
            Kind::Resource => Spec {
                strings: &["uri", "name", "description", "mime_type"],
                flags: &["unlisted"],
                exprs: &["annotations", "app_view", "icons"],
            },
            Kind::ResourceTemplate => Spec {
                strings: &["uri_template", "name", "title", "description", "mime_type"],
                flags: &[],
                exprs: &["annotations", "icons"],
            },
            Kind::Prompt => Spec { strings: &["name", "description"], flags: &[], exprs: &["arguments", "icons"] },
            Kind::Complete | Kind::RootsChanged => Spec { strings: &[], flags: &[], exprs: &[] },
        }
    }
}

/// The options an attribute takes, by kind of value.
pub(crate) struct Spec {
    pub(crate) strings: &'static [&'static str],
    pub(crate) flags: &'static [&'static str],
    pub(crate) exprs: &'static [&'static str],
}

impl Spec {
    pub(crate) fn parse(&self, tokens: Tokens) -> syn::Result<Options> {
        let allowed: Vec<&str> = [self.strings, self.flags, self.exprs].concat();
        let options = Options::parse(tokens, &allowed)?;
        options.check(self.strings, self.flags)?;
        Ok(options)
    }
}

/// A method's parameter, by what the handler is given.
pub(crate) enum Param {
    Context { by_ref: bool },
    Uri,
    Value(Box<Type>),
}

/// One handler method.
pub(crate) struct Handler {
    pub(crate) kind: Kind,
    pub(crate) method: syn::Ident,
    receiver: bool,
    pub(crate) params: Vec<Param>,
    pub(crate) output: Type,
    pub(crate) options: Options,
    pub(crate) doc: Option<String>,
    pub(crate) span: Span,
}

impl Handler {
    pub(crate) fn name(&self) -> String {
        self.options.string("name").unwrap_or_else(|| self.method.to_string())
    }

    pub(crate) fn description(&self) -> Option<String> {
        self.options.string("description").or_else(|| self.doc.clone())
    }

    pub(crate) fn value_type(&self) -> Option<&Type> {
        self.params.iter().find_map(|p| match p {
            Param::Value(ty) => Some(&**ty),
            _ => None,
        })
    }

    /// The call of the method, given the decoded value as `value`, the
    /// context as `cx` and the URI as `uri`.
    pub(crate) fn call(&self) -> Tokens {
        let method = &self.method;
        let args = self.params.iter().map(|p| match p {
            Param::Context { by_ref: true } => quote!(&cx),
            Param::Context { by_ref: false } => quote!(::core::clone::Clone::clone(&cx)),
            Param::Uri => quote!(uri),
            Param::Value(_) => quote!(value),
        });
        if self.receiver { quote!(self.#method(#(#args),*)) } else { quote!(Self::#method(#(#args),*)) }
    }

    pub(crate) fn context(&self) -> Tokens {
        let name = self.name();
        quote!(let cx = ::mcp_wit_sdk::Context::new(#name);)
    }
}

/// Reads and removes a method's handler attribute.
pub(crate) fn take_handler(method: &mut ImplItemFn) -> syn::Result<Option<Handler>> {
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
