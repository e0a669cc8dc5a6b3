//! The contract's values from wasmtime's bindings to the protocol core's
//! plain types ([`mcp_wit_protocol::contract`]), and back for arguments.
//!
//! Records and variants of the same shape on both sides: a conversion moves
//! every string and list, copying no text.

use mcp_wit_protocol::contract;

use super::bindings::wit;

/// A guest value as the protocol core's type.
pub(super) trait IntoContract<T> {
    fn into_contract(self) -> T;
}

macro_rules! same {
    ($($ty:ty),*) => {$(
        impl IntoContract<$ty> for $ty {
            fn into_contract(self) -> $ty {
                self
            }
        }
    )*};
}
same!(String, bool, f32, ());

impl<A: IntoContract<B>, B> IntoContract<Option<B>> for Option<A> {
    fn into_contract(self) -> Option<B> {
        self.map(IntoContract::into_contract)
    }
}

impl<A: IntoContract<B>, B> IntoContract<Vec<B>> for Vec<A> {
    fn into_contract(self) -> Vec<B> {
        self.into_iter().map(IntoContract::into_contract).collect()
    }
}

impl<A: IntoContract<B>, B, E: IntoContract<F>, F> IntoContract<Result<B, F>> for Result<A, E> {
    fn into_contract(self) -> Result<B, F> {
        self.map(IntoContract::into_contract).map_err(IntoContract::into_contract)
    }
}

/// Records: every field converted by name.
macro_rules! records {
    ($($name:ident { $($field:ident),* $(,)? })*) => {$(
        impl IntoContract<contract::$name> for wit::$name {
            fn into_contract(self) -> contract::$name {
                contract::$name { $($field: self.$field.into_contract()),* }
            }
        }
    )*};
}

/// Variants with one payload per case, and enums without.
macro_rules! variants {
    ($($name:ident { $($case:ident),* $(,)? })*) => {$(
        impl IntoContract<contract::$name> for wit::$name {
            fn into_contract(self) -> contract::$name {
                match self { $(wit::$name::$case(payload) => contract::$name::$case(payload.into_contract())),* }
            }
        }
    )*};
}

macro_rules! enums {
    ($($name:ident { $($case:ident),* $(,)? })*) => {$(
        impl IntoContract<contract::$name> for wit::$name {
            fn into_contract(self) -> contract::$name {
                match self { $(wit::$name::$case => contract::$name::$case),* }
            }
        }
    )*};
}

records! {
    Value { json }
    Annotations { audience, priority, timestamp }
    ConfigDescriptor { name, description, required }
    SecretDescriptor { name, description, required }
    MetaEntry { key, value }
    ToolAnnotations { read_only, destructive, streaming, experimental }
    ToolMeta { output_hint, config, secrets, config_meta, extra }
    Tool { name, description, input_schema, output_schema, annotations, meta }
    PromptsCapability { list_changed }
    ResourcesCapability { subscribe, list_changed }
    ToolsCapability { list_changed }
    CompletionsCapability { enabled }
    ServerCapabilities { prompts, resources, tools, completions }
    ProgressNotification { progress, message, annotations }
    CallToolResult { content, progress, meta, is_error }
    TextContent { text, annotations }
    ImageContent { data, mime_type, annotations }
    AudioContent { data, mime_type, annotations }
    EmbeddedResource { resource_contents, annotations }
    McpResource { uri, name, description, mime_type, annotations }
    TextResourceContents { uri, mime_type, text }
    BlobResourceContents { uri, mime_type, blob }
    ReadResourceResult { contents }
    Prompt { name, description, arguments }
    PromptArgument { name, description, required }
    GetPromptResult { description, messages }
    PromptMessage { role, content }
    CompletionResponse { content, meta, is_error }
}

variants! {
    Content { Text, Image, Audio, Embedded }
    ResourceContents { Text, Blob }
    ToolError { InvalidParameters, ExecutionError, SchemaError, NotFound }
    ResourceError { ExecutionError, NotFound }
    PromptError { InvalidParameters, InternalError, NotFound }
    CompletionError { InvalidParameters, ExecutionError, SchemaError, NotFound }
    PromptMessageContent { Text, Image, McpResource }
}

enums! {
    Role { User, Assistant }
    PromptMessageRole { User, Assistant }
}

/// A completion request as the guest takes it (the only record a router
/// receives besides plain text).
pub(super) fn completion_request(request: &contract::CompletionRequest) -> wit::CompletionRequest {
    let meta = |entries: &Vec<contract::MetaEntry>| {
        entries.iter().map(|e| wit::MetaEntry { key: e.key.clone(), value: e.value.clone() }).collect()
    };
    wit::CompletionRequest {
        input: wit::Value { json: request.input.json.clone() },
        streaming: request.streaming,
        meta: request.meta.as_ref().map(meta),
    }
}
