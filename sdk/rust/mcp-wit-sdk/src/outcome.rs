//! What handlers may return, and how each becomes the contract's result.

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::{PromptError, ResourceError, ToolError};
use crate::types::{CallToolResult, Content, GetPromptResult, PromptMessage, ReadResourceResult, ResourceContents};

/// A tool's structured result: `T` serialised to JSON, sent as the text
/// content, and (since `T` says what it looks like) the tool's
/// `outputSchema`, so clients that know structured output get it as
/// `structuredContent`. `T` must serialise to a JSON object.
#[derive(Clone, Debug, PartialEq)]
pub struct Json<T>(pub T);

/// What a `#[tool]` may return: text (`String`, `&str`), content
/// (`Content`, `Vec<Content>`), `Json<T>`, a whole [`CallToolResult`] (any
/// field of the contract), or `()` for no content; or a `Result` of one of
/// these with an error that converts into [`ToolError`].
pub trait IntoToolResult {
    /// The result.
    fn into_tool_result(self) -> Result<CallToolResult, ToolError>;

    /// The tool's `outputSchema`, as JSON text, when the result is
    /// structured.
    fn output_schema() -> Option<String> {
        None
    }
}

impl IntoToolResult for CallToolResult {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(self)
    }
}

impl IntoToolResult for Vec<Content> {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::success(self))
    }
}

impl IntoToolResult for Content {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::success(vec![self]))
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::success(vec![Content::text(self)]))
    }
}

impl IntoToolResult for &str {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::success(vec![Content::text(self)]))
    }
}

impl IntoToolResult for () {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::success(Vec::new()))
    }
}

impl<T: Serialize + JsonSchema> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        let text = serde_json::to_string(&self.0).map_err(|e| ToolError::SchemaError(e.to_string()))?;
        Ok(CallToolResult::success(vec![Content::text(text)]))
    }

    fn output_schema() -> Option<String> {
        crate::schema::output_schema::<T>()
    }
}

impl<O: IntoToolResult, E: Into<ToolError>> IntoToolResult for Result<O, E> {
    fn into_tool_result(self) -> Result<CallToolResult, ToolError> {
        self.map_err(Into::into).and_then(IntoToolResult::into_tool_result)
    }

    fn output_schema() -> Option<String> {
        O::output_schema()
    }
}

/// What a `#[resource]` or `#[resource_template]` may return: `String` or
/// `&str` (text), `Vec<u8>` (binary, base64 encoded for you), `Json<T>`
/// (JSON text), one or more [`ResourceContents`] or a whole
/// [`ReadResourceResult`]; or a `Result` of one of these with an error that
/// converts into [`ResourceError`].
pub trait IntoReadResult {
    /// The contents read from `uri`; `mime_type` is the declared one, if any.
    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> Result<ReadResourceResult, ResourceError>;

    /// The MIME type listed when none is declared.
    fn default_mime_type() -> &'static str {
        ""
    }
}

fn read_result(contents: ResourceContents) -> Result<ReadResourceResult, ResourceError> {
    Ok(ReadResourceResult { contents: vec![contents] })
}

impl IntoReadResult for String {
    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> Result<ReadResourceResult, ResourceError> {
        read_result(ResourceContents::text(uri, Some(mime_type.unwrap_or("text/plain")), self))
    }

    fn default_mime_type() -> &'static str {
        "text/plain"
    }
}

impl IntoReadResult for &str {
    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> Result<ReadResourceResult, ResourceError> {
        self.to_owned().into_read_result(uri, mime_type)
    }

    fn default_mime_type() -> &'static str {
        "text/plain"
    }
}

impl IntoReadResult for Vec<u8> {
    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> Result<ReadResourceResult, ResourceError> {
        read_result(ResourceContents::blob(uri, Some(mime_type.unwrap_or("application/octet-stream")), &self))
    }

    fn default_mime_type() -> &'static str {
        "application/octet-stream"
    }
}

impl<T: Serialize> IntoReadResult for Json<T> {
    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> Result<ReadResourceResult, ResourceError> {
        let text = serde_json::to_string(&self.0)?;
        read_result(ResourceContents::text(uri, Some(mime_type.unwrap_or("application/json")), text))
    }

    fn default_mime_type() -> &'static str {
        "application/json"
    }
}

impl IntoReadResult for ResourceContents {
    fn into_read_result(self, _: &str, _: Option<&str>) -> Result<ReadResourceResult, ResourceError> {
        read_result(self)
    }
}

impl IntoReadResult for Vec<ResourceContents> {
    fn into_read_result(self, _: &str, _: Option<&str>) -> Result<ReadResourceResult, ResourceError> {
        Ok(ReadResourceResult { contents: self })
    }
}

impl IntoReadResult for ReadResourceResult {
    fn into_read_result(self, _: &str, _: Option<&str>) -> Result<ReadResourceResult, ResourceError> {
        Ok(self)
    }
}

impl<O: IntoReadResult, E: Into<ResourceError>> IntoReadResult for Result<O, E> {
    fn into_read_result(self, uri: &str, mime_type: Option<&str>) -> Result<ReadResourceResult, ResourceError> {
        self.map_err(Into::into).and_then(|o| o.into_read_result(uri, mime_type))
    }

    fn default_mime_type() -> &'static str {
        O::default_mime_type()
    }
}

/// What a `#[prompt]` may return: its messages (`Vec<PromptMessage>`, the
/// result's description then being the prompt's), one `String` (a user
/// message), or a whole [`GetPromptResult`]; or a `Result` of one of these
/// with an error that converts into [`PromptError`].
pub trait IntoPromptResult {
    /// The prompt; `description` is the prompt's own.
    fn into_prompt_result(self, description: Option<&str>) -> Result<GetPromptResult, PromptError>;
}

impl IntoPromptResult for GetPromptResult {
    fn into_prompt_result(self, _: Option<&str>) -> Result<GetPromptResult, PromptError> {
        Ok(self)
    }
}

impl IntoPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self, description: Option<&str>) -> Result<GetPromptResult, PromptError> {
        Ok(GetPromptResult { description: description.map(Into::into), messages: self })
    }
}

impl IntoPromptResult for String {
    fn into_prompt_result(self, description: Option<&str>) -> Result<GetPromptResult, PromptError> {
        vec![PromptMessage::user(self)].into_prompt_result(description)
    }
}

impl<O: IntoPromptResult, E: Into<PromptError>> IntoPromptResult for Result<O, E> {
    fn into_prompt_result(self, description: Option<&str>) -> Result<GetPromptResult, PromptError> {
        self.map_err(Into::into).and_then(|o| o.into_prompt_result(description))
    }
}
