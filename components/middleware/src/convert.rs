//! Conversions between the import's and the export's copies of the
//! `wasix:mcp/router` types. They are field-for-field moves: the compiler
//! checks that every field and case below is named, so a change to the
//! contract that this file does not follow fails to build. Built with
//! `contract-25-6-18`, both sides are 25.6.18's, listed here.

#[cfg(not(feature = "contract-25-6-18"))]
use crate::exports::mcp_wit::extension::extension as ext_exp;
use crate::exports::wasix::mcp::router as exp;
#[cfg(not(feature = "contract-25-6-18"))]
use crate::mcp_wit::extension::extension as ext_imp;
use crate::wasix::mcp::router as imp;

/// A value-preserving move into the other side's type.
pub trait Convert<T> {
    fn convert(self) -> T;
}

macro_rules! same {
    ($($ty:ty),*) => {$(
        impl Convert<$ty> for $ty {
            fn convert(self) -> $ty {
                self
            }
        }
    )*};
}

same!((), String, bool, f32);

impl<A: Convert<B>, B> Convert<Option<B>> for Option<A> {
    fn convert(self) -> Option<B> {
        self.map(Convert::convert)
    }
}

impl<A: Convert<B>, B> Convert<Vec<B>> for Vec<A> {
    fn convert(self) -> Vec<B> {
        self.into_iter().map(Convert::convert).collect()
    }
}

impl<T: Convert<U>, E: Convert<F>, U, F> Convert<Result<U, F>> for Result<T, E> {
    fn convert(self) -> Result<U, F> {
        self.map(Convert::convert).map_err(Convert::convert)
    }
}

/// Both directions, for every type of the contract (25.3.26's list is
/// shared with the host: `mcp_wit_protocol::contract_types!`).
macro_rules! both_ways {
    // Fields beyond 25.3.26 (`+ { … }`) are the protocol core's alone: both
    // bindings here are of one contract.
    (@records $($name:ident { $($field:ident),* $(,)? } $(+ { $($beyond:ident),* })?)*) => {$(
        impl Convert<exp::$name> for imp::$name {
            fn convert(self) -> exp::$name {
                exp::$name { $($field: self.$field.convert()),* }
            }
        }
        impl Convert<imp::$name> for exp::$name {
            fn convert(self) -> imp::$name {
                imp::$name { $($field: self.$field.convert()),* }
            }
        }
    )*};
    (@variants $($name:ident { $($case:ident),* $(,)? })*) => {$(
        impl Convert<exp::$name> for imp::$name {
            fn convert(self) -> exp::$name {
                match self { $(imp::$name::$case(x) => exp::$name::$case(x.convert())),* }
            }
        }
        impl Convert<imp::$name> for exp::$name {
            fn convert(self) -> imp::$name {
                match self { $(exp::$name::$case(x) => imp::$name::$case(x.convert())),* }
            }
        }
    )*};
    (@enums $($name:ident { $($case:ident),* $(,)? })*) => {$(
        impl Convert<exp::$name> for imp::$name {
            fn convert(self) -> exp::$name {
                match self { $(imp::$name::$case => exp::$name::$case),* }
            }
        }
        impl Convert<imp::$name> for exp::$name {
            fn convert(self) -> imp::$name {
                match self { $(exp::$name::$case => imp::$name::$case),* }
            }
        }
    )*};
}

#[cfg(not(feature = "contract-25-6-18"))]
mcp_wit_protocol::contract_types!(both_ways);

// 25.6.18's types, every one that carries data. The protocol core converts
// 25.6.18 into its own types by another way (`contract_from_wit_25_6_18!`)
// and keeps no such list, so it is here.
#[cfg(feature = "contract-25-6-18")]
both_ways! { @records
    Annotations { audience, priority, timestamp }
    MetaEntry { key, value }
    ToolAnnotations { read_only, destructive, streaming, experimental }
    Tool { name, title, description, input_schema, output_schema, annotations, meta }
    PromptsCapability { list_changed }
    ResourcesCapability { subscribe, list_changed }
    ToolsCapability { list_changed }
    CompletionsCapability { enabled }
    ServerCapabilities { prompts, resources, tools, completions }
    AuthorizationServer { issuer, token_endpoint }
    ResourceMetadata { authorization_servers, resource_indicator, default_scopes }
    ServerDescription { name, title, capabilities, resources, resource_metadata, meta }
    ProgressNotification { progress, message, annotations }
    ToolResult { content, structured_content, progress, meta, is_error }
    ElicitationRequest { title, message, schema, annotations, meta }
    TextContent { text, annotations }
    ImageContent { data, mime_type, annotations }
    AudioContent { data, mime_type, annotations }
    ResourceLinkContent { uri, title, description, mime_type, annotations }
    EmbeddedResource { uri, title, description, mime_type, data, annotations }
    McpResource { uri, name, title, description, mime_type, annotations }
    TextResourceContents { uri, mime_type, text }
    BlobResourceContents { uri, mime_type, blob }
    ReadResourceResult { contents }
    Prompt { name, description, arguments }
    PromptArgument { name, description, required }
    GetPromptResult { description, messages }
    PromptMessage { role, content }
    CompletionRequest { input, streaming, meta }
    CompletionResponse { content, meta, is_error }
}
#[cfg(feature = "contract-25-6-18")]
both_ways! { @variants
    Response { Completed, Elicit }
    ContentBlock { Text, Image, Audio, ResourceLink, EmbeddedResource }
    ResourceContents { Text, Blob }
    ToolError { InvalidParameters, ExecutionError, SchemaError, NotFound }
    ResourceError { ExecutionError, NotFound }
    PromptError { InvalidParameters, InternalError, NotFound }
    CompletionError { InvalidParameters, ExecutionError, SchemaError, NotFound }
    PromptMessageContent { Text, Image, McpResource }
}
#[cfg(feature = "contract-25-6-18")]
both_ways! { @enums
    Role { User, Assistant }
    PromptMessageRole { User, Assistant }
}

/// The extension's one record of its own.
#[cfg(not(feature = "contract-25-6-18"))]
impl Convert<ext_exp::ResourceTemplate> for ext_imp::ResourceTemplate {
    fn convert(self) -> ext_exp::ResourceTemplate {
        let ext_imp::ResourceTemplate { uri_template, name, title, description, mime_type, annotations } = self;
        ext_exp::ResourceTemplate {
            uri_template,
            name,
            title,
            description,
            mime_type,
            annotations: annotations.convert(),
        }
    }
}
