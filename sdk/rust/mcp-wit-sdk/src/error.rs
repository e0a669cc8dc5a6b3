//! Errors a handler returns, one type per kind of handler, each with the
//! contract's cases.
//!
//! `?` on any [`std::error::Error`] gives the "it ran and failed" case with
//! the error's message. (The types implement `Display` but not `Error`
//! themselves: that is what lets the blanket `From` exist.)

use std::fmt;

use crate::bindings::exports::wasix::mcp::router as wit;

macro_rules! error_type {
    (
        $(#[$doc:meta])*
        $name:ident, failure: $failure:ident ($failure_fn:ident) {
            $($(#[$case_doc:meta])* $case:ident ($constructor:ident) = $label:literal,)*
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum $name {
            $($(#[$case_doc])* $case(String),)*
        }

        impl $name {
            $(
                $(#[$case_doc])*
                pub fn $constructor(message: impl Into<String>) -> Self {
                    $name::$case(message.into())
                }
            )*

            /// The message, whatever the case.
            pub fn message(&self) -> &str {
                match self {
                    $($name::$case(message) => message,)*
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $($name::$case(message) => write!(f, concat!($label, ": {}"), message),)*
                }
            }
        }

        impl<E: std::error::Error> From<E> for $name {
            fn from(error: E) -> Self {
                $name::$failure(error.to_string())
            }
        }

        impl From<$name> for wit::$name {
            fn from(error: $name) -> Self {
                match error {
                    $($name::$case(message) => wit::$name::$case(message),)*
                }
            }
        }
    };
}

error_type! {
    /// Why a tool call failed; the host answers each case with the matching
    /// MCP error. To let the model read a failure and try again instead,
    /// return a [`CallToolResult::error`](crate::types::CallToolResult::error).
    ToolError, failure: ExecutionError(execution_error) {
        /// No such tool.
        NotFound(not_found) = "not found",
        /// The arguments do not fit the tool (the SDK returns this when they
        /// do not decode, with serde's message naming the field).
        InvalidParameters(invalid_parameters) = "invalid parameters",
        /// The tool ran and failed.
        ExecutionError(execution_error) = "execution error",
        /// The output does not match the tool's output schema.
        SchemaError(schema_error) = "schema error",
    }
}

error_type! {
    /// Why a resource could not be read.
    ResourceError, failure: ExecutionError(execution_error) {
        /// No such resource.
        NotFound(not_found) = "not found",
        /// The resource exists but cannot be read now.
        ExecutionError(execution_error) = "execution error",
    }
}

error_type! {
    /// Why a prompt could not be given.
    PromptError, failure: InternalError(internal_error) {
        /// No such prompt.
        NotFound(not_found) = "not found",
        /// The arguments do not fit the prompt.
        InvalidParameters(invalid_parameters) = "invalid parameters",
        /// A failure on this side.
        InternalError(internal_error) = "internal error",
    }
}

error_type! {
    /// Why a completion could not be given.
    CompletionError, failure: ExecutionError(execution_error) {
        /// Nothing to complete for that reference.
        NotFound(not_found) = "not found",
        /// The request does not fit.
        InvalidParameters(invalid_parameters) = "invalid parameters",
        /// The completion ran and failed.
        ExecutionError(execution_error) = "execution error",
        /// The request or answer does not match its schema.
        SchemaError(schema_error) = "schema error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn question_mark_gives_the_failure_case_with_the_message() {
        fn parse(text: &str) -> Result<i32, ToolError> {
            Ok(text.parse::<i32>()?)
        }
        assert_eq!(parse("x"), Err(ToolError::ExecutionError("invalid digit found in string".into())));
        let prompt: PromptError = "x".parse::<i32>().unwrap_err().into();
        assert_eq!(prompt, PromptError::internal_error("invalid digit found in string"));
        assert_eq!(ToolError::not_found("x").to_string(), "not found: x");
    }
}
