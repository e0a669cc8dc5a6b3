//! The values of the `wasix:mcp/router@25.3.26` contract as plain Rust.
//!
//! One shape per WIT type, with the same names (kebab-case to Rust case), so
//! that the protocol core maps router values to MCP without knowing how the
//! router is reached: the native host fills them from wasmtime's bindings, a
//! component-side adapter from wit-bindgen's. The WIT in `wit/` is the
//! reference for what each field means.
//!
//! A few fields and one content kind go beyond 25.3.26, for guests that say
//! more (Extism v1-draft plugins): a tool's `title`, a result's structured
//! content and `_meta` object, resource links. A 25.3.26 router leaves them
//! empty (see [`crate::contract_types!`]), and every guest's result reaches
//! the client through the same mapping.

/// Opaque JSON text (`record value`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Value {
    /// One JSON value.
    pub json: String,
}

/// An RFC 3339 timestamp (`type datetime`).
pub type Datetime = String;

/// Who content is meant for and how much it matters.
#[derive(Debug, Clone, PartialEq)]
pub struct Annotations {
    /// The roles the content is meant for.
    pub audience: Option<Vec<Role>>,
    /// 0 (least) to 1 (most important).
    pub priority: Option<f32>,
    /// When the content was last modified.
    pub timestamp: Option<Datetime>,
}

/// A participant of a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The human side.
    User,
    /// The model.
    Assistant,
}

/// A configuration value a tool needs.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigDescriptor {
    /// Its name.
    pub name: String,
    /// What it is for.
    pub description: String,
    /// Whether the tool cannot run without it.
    pub required: bool,
}

/// A secret a tool needs.
#[derive(Debug, Clone, PartialEq)]
pub struct SecretDescriptor {
    /// Its name.
    pub name: String,
    /// What it is for.
    pub description: String,
    /// Whether the tool cannot run without it.
    pub required: bool,
}

/// One `_meta` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct MetaEntry {
    /// The key.
    pub key: String,
    /// The value (JSON text when it is not a string).
    pub value: String,
}

/// Hints about a tool's behaviour.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolAnnotations {
    /// The tool does not modify its environment.
    pub read_only: Option<bool>,
    /// The tool may destroy data.
    pub destructive: Option<bool>,
    /// The tool streams its output.
    pub streaming: Option<bool>,
    /// The tool is experimental.
    pub experimental: Option<bool>,
    /// Calling it again with the same arguments changes nothing more (not
    /// in 25.3.26).
    pub idempotent: Option<bool>,
    /// It reaches an open world of outside entities (not in 25.3.26).
    pub open_world: Option<bool>,
}

/// Contract-specific tool metadata.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolMeta {
    /// A hint about the output.
    pub output_hint: Option<String>,
    /// Configuration the tool reads.
    pub config: Option<Vec<ConfigDescriptor>>,
    /// Secrets the tool reads.
    pub secrets: Option<Vec<SecretDescriptor>>,
    /// Metadata about the configuration.
    pub config_meta: Option<Vec<MetaEntry>>,
    /// Anything else.
    pub extra: Option<Vec<MetaEntry>>,
}

/// A tool the router offers.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// Its name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// JSON Schema of its arguments.
    pub input_schema: Value,
    /// JSON Schema of its structured result.
    pub output_schema: Option<Value>,
    /// Behaviour hints.
    pub annotations: Option<ToolAnnotations>,
    /// Contract-specific metadata.
    pub meta: Option<ToolMeta>,
    /// A human-readable name (not in 25.3.26).
    pub title: Option<String>,
    /// `_meta` as a JSON object, its values any JSON (not in 25.3.26, whose
    /// [`ToolMeta`] is a record of its own): merged with `meta`.
    pub meta_object: Option<Value>,
    /// `icons`, a JSON array of MCP `Icon`s (not in the contract's WIT).
    pub icons: Option<Value>,
}

/// The `prompts` capability.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptsCapability {
    /// The list may change.
    pub list_changed: Option<bool>,
}

/// The `resources` capability.
#[derive(Debug, Clone, PartialEq)]
pub struct ResourcesCapability {
    /// Clients may subscribe to resources.
    pub subscribe: Option<bool>,
    /// The list may change.
    pub list_changed: Option<bool>,
}

/// The `tools` capability.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolsCapability {
    /// The list may change.
    pub list_changed: Option<bool>,
}

/// The `completions` capability.
#[derive(Debug, Clone, PartialEq)]
pub struct CompletionsCapability {
    /// Completions are offered.
    pub enabled: bool,
}

/// What the router offers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ServerCapabilities {
    /// Prompts.
    pub prompts: Option<PromptsCapability>,
    /// Resources.
    pub resources: Option<ResourcesCapability>,
    /// Tools.
    pub tools: Option<ToolsCapability>,
    /// Completions.
    pub completions: Option<CompletionsCapability>,
}

/// Progress a tool reports with its result.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressNotification {
    /// How far along, 0 to 1.
    pub progress: Option<f32>,
    /// What is going on.
    pub message: Option<String>,
    /// Annotations.
    pub annotations: Option<Annotations>,
}

/// A tool's result.
#[derive(Debug, Clone, PartialEq)]
pub struct CallToolResult {
    /// What the tool produced.
    pub content: Vec<Content>,
    /// Progress it reports.
    pub progress: Option<Vec<ProgressNotification>>,
    /// Metadata.
    pub meta: Option<Vec<MetaEntry>>,
    /// The tool failed.
    pub is_error: Option<bool>,
    /// Its structured result, a JSON object (not in 25.3.26, where a JSON
    /// text item of a tool with an output schema stands for it).
    pub structured_content: Option<Value>,
    /// `_meta` as a JSON object, its values any JSON (not in 25.3.26, whose
    /// entries are text): merged with `meta`.
    pub meta_object: Option<Value>,
}

/// One piece of content.
#[derive(Debug, Clone, PartialEq)]
pub enum Content {
    /// Text.
    Text(TextContent),
    /// An image.
    Image(ImageContent),
    /// Audio.
    Audio(AudioContent),
    /// A resource's contents.
    Embedded(EmbeddedResource),
    /// A link to a resource (not in 25.3.26).
    ResourceLink(ResourceLink),
}

/// A link to a resource the client may read (or not: it need not be listed).
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceLink {
    /// Its URI.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// A human-readable name.
    pub title: Option<String>,
    /// What it is.
    pub description: Option<String>,
    /// Its MIME type.
    pub mime_type: Option<String>,
    /// Its size in bytes.
    pub size: Option<u64>,
    /// Annotations.
    pub annotations: Option<Annotations>,
    /// `_meta` as a JSON object.
    pub meta_object: Option<Value>,
}

/// Text content.
#[derive(Debug, Clone, PartialEq)]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// Annotations.
    pub annotations: Option<Annotations>,
}

/// An image, base64-encoded.
#[derive(Debug, Clone, PartialEq)]
pub struct ImageContent {
    /// Base64 data.
    pub data: String,
    /// Its MIME type.
    pub mime_type: String,
    /// Annotations.
    pub annotations: Option<Annotations>,
}

/// Audio, base64-encoded.
#[derive(Debug, Clone, PartialEq)]
pub struct AudioContent {
    /// Base64 data.
    pub data: String,
    /// Its MIME type.
    pub mime_type: String,
    /// Annotations.
    pub annotations: Option<Annotations>,
}

/// A resource's contents inside a result.
#[derive(Debug, Clone, PartialEq)]
pub struct EmbeddedResource {
    /// The contents.
    pub resource_contents: ResourceContents,
    /// Annotations.
    pub annotations: Option<Annotations>,
}

/// A resource the router offers.
#[derive(Debug, Clone, PartialEq)]
pub struct McpResource {
    /// Its URI.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// What it is.
    pub description: Option<String>,
    /// Its MIME type.
    pub mime_type: String,
    /// Annotations.
    pub annotations: Option<Annotations>,
    /// A human-readable name (not in 25.3.26).
    pub title: Option<String>,
    /// `_meta` as a JSON object (not in the contract's WIT): an app's
    /// `ui` settings, for one.
    pub meta_object: Option<Value>,
    /// `icons`, a JSON array of MCP `Icon`s (not in the contract's WIT).
    pub icons: Option<Value>,
}

/// A text resource's contents.
#[derive(Debug, Clone, PartialEq)]
pub struct TextResourceContents {
    /// Its URI.
    pub uri: String,
    /// Its MIME type.
    pub mime_type: Option<String>,
    /// The text.
    pub text: String,
    /// `_meta` as a JSON object (not in the contract's WIT).
    pub meta_object: Option<Value>,
}

/// A binary resource's contents, base64-encoded.
#[derive(Debug, Clone, PartialEq)]
pub struct BlobResourceContents {
    /// Its URI.
    pub uri: String,
    /// Its MIME type.
    pub mime_type: Option<String>,
    /// Base64 data.
    pub blob: String,
    /// `_meta` as a JSON object (not in the contract's WIT).
    pub meta_object: Option<Value>,
}

/// A resource's contents.
#[derive(Debug, Clone, PartialEq)]
pub enum ResourceContents {
    /// Text.
    Text(TextResourceContents),
    /// Binary.
    Blob(BlobResourceContents),
}

/// The result of `read-resource`.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadResourceResult {
    /// The contents.
    pub contents: Vec<ResourceContents>,
}

/// Why `call-tool` failed.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolError {
    /// Bad arguments.
    InvalidParameters(String),
    /// The tool failed.
    ExecutionError(String),
    /// The arguments did not match the schema.
    SchemaError(String),
    /// No such tool.
    NotFound(String),
}

/// Why `read-resource` failed.
#[derive(Debug, Clone, PartialEq)]
pub enum ResourceError {
    /// Reading failed.
    ExecutionError(String),
    /// No such resource.
    NotFound(String),
}

/// Why `get-prompt` failed.
#[derive(Debug, Clone, PartialEq)]
pub enum PromptError {
    /// Bad arguments.
    InvalidParameters(String),
    /// The router failed.
    InternalError(String),
    /// No such prompt.
    NotFound(String),
}

/// Why `complete` failed.
#[derive(Debug, Clone, PartialEq)]
pub enum CompletionError {
    /// Bad request.
    InvalidParameters(String),
    /// Completing failed.
    ExecutionError(String),
    /// The request did not match the schema.
    SchemaError(String),
    /// Nothing to complete for this reference.
    NotFound(String),
}

/// A prompt the router offers.
#[derive(Debug, Clone, PartialEq)]
pub struct Prompt {
    /// Its name.
    pub name: String,
    /// What it is for.
    pub description: Option<String>,
    /// Its arguments.
    pub arguments: Option<Vec<PromptArgument>>,
    /// A human-readable name (not in 25.3.26).
    pub title: Option<String>,
    /// `icons`, a JSON array of MCP `Icon`s (not in the contract's WIT).
    pub icons: Option<Value>,
}

/// One argument of a prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptArgument {
    /// Its name.
    pub name: String,
    /// What it is for.
    pub description: Option<String>,
    /// Whether it must be given.
    pub required: Option<bool>,
    /// A human-readable name (not in 25.3.26).
    pub title: Option<String>,
}

/// The result of `get-prompt`.
#[derive(Debug, Clone, PartialEq)]
pub struct GetPromptResult {
    /// What the prompt is.
    pub description: Option<String>,
    /// Its messages.
    pub messages: Vec<PromptMessage>,
}

/// One message of a prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptMessage {
    /// Who says it.
    pub role: PromptMessageRole,
    /// What is said.
    pub content: PromptMessageContent,
}

/// Who says a prompt message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptMessageRole {
    /// The human side.
    User,
    /// The model.
    Assistant,
}

/// What a prompt message says.
#[derive(Debug, Clone, PartialEq)]
pub enum PromptMessageContent {
    /// Text.
    Text(TextContent),
    /// An image.
    Image(ImageContent),
    /// A resource's contents.
    McpResource(EmbeddedResource),
}

/// A completion request, its MCP params as JSON text.
#[derive(Debug, Clone, PartialEq)]
pub struct CompletionRequest {
    /// `{"ref": …, "argument": …, "context"?: …}`.
    pub input: Value,
    /// Whether to stream.
    pub streaming: Option<bool>,
    /// The request's `_meta`.
    pub meta: Option<Vec<MetaEntry>>,
}

/// The result of `complete`.
#[derive(Debug, Clone, PartialEq)]
pub struct CompletionResponse {
    /// The completion, as content.
    pub content: Vec<Content>,
    /// Metadata.
    pub meta: Option<Vec<MetaEntry>>,
    /// Completing failed.
    pub is_error: Option<bool>,
}

/// A parameterised resource, from `mcp-wit:extension/extension`'s
/// `resource-template` (the contract itself has none).
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceTemplate {
    /// An RFC 6570 URI template.
    pub uri_template: String,
    /// Its name.
    pub name: String,
    /// A title for people.
    pub title: Option<String>,
    /// What it is.
    pub description: Option<String>,
    /// The MIME type of what it yields.
    pub mime_type: Option<String>,
    /// Annotations.
    pub annotations: Option<Annotations>,
    /// `icons`, a JSON array of MCP `Icon`s (not in the extension's WIT).
    pub icons: Option<Value>,
}
