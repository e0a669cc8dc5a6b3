//! A call's arguments checked against its tool's input schema within the
//! session's budget (off the serving thread when the check runs long), and
//! its structured result against the output schema.

use std::sync::Arc;

use super::exchange::Exchange;
use crate::contract;
use crate::mapping;
use crate::router::RouterComponent;
use crate::validation::{Refusal, ToolSchemas};

impl<C: RouterComponent> Exchange<C> {
    /// Checks `arguments` against the input schema of `schemas`, within the
    /// session's budget. With offload threads, a check that has not ended
    /// within [`INLINE_CHECK`] here (its patterns still running) starts
    /// again on them (a copy of the arguments goes there; the request may
    /// not outlive the check): most checks end in microseconds, and a
    /// hand-off to another thread costs tens.
    pub(super) async fn check_arguments(
        &self,
        schemas: Arc<ToolSchemas>,
        arguments: &str,
    ) -> Result<(), ArgumentsRefused> {
        let start = std::time::Instant::now();
        let deadline = start.checked_add(self.server.options().validation_budget);
        let Some(offload) = self.server.options().offload.as_deref() else {
            return schemas.check_arguments(arguments, deadline).map_err(ArgumentsRefused::Checked);
        };
        let slice = start.checked_add(INLINE_CHECK).into_iter().chain(deadline).min();
        match schemas.check_arguments(arguments, slice) {
            Err(Refusal::OverBudget) if deadline.is_none_or(|deadline| std::time::Instant::now() < deadline) => {}
            checked => return checked.map_err(ArgumentsRefused::Checked),
        }
        let arguments = arguments.to_owned();
        let check = move || match deadline.is_some_and(|deadline| std::time::Instant::now() >= deadline) {
            // Waited past it for a thread: not started at all.
            true => Err(Refusal::OverBudget),
            false => schemas.check_arguments(&arguments, deadline),
        };
        match crate::executor::offloaded(Some(offload), check).await {
            Ok(checked) => checked.map_err(ArgumentsRefused::Checked),
            Err(unavailable) => Err(ArgumentsRefused::Unchecked(unavailable)),
        }
    }
}

/// How long an argument check may run on the thread serving the request
/// before it goes to the offload's threads.
const INLINE_CHECK: std::time::Duration = std::time::Duration::from_millis(1);

/// Why a call's arguments did not get to its tool.
pub(super) enum ArgumentsRefused {
    /// Checked, and refused.
    Checked(Refusal),
    /// Not checked: no thread could (refused rather than passed unchecked).
    Unchecked(crate::executor::Unavailable),
}

/// The tool error for arguments refused before tool `tool` ran: what
/// happened, and what the caller can do about it.
pub(super) fn refused_arguments(tool: &str, refused: &ArgumentsRefused, budget: std::time::Duration) -> String {
    use crate::executor::Unavailable;
    match refused {
        ArgumentsRefused::Checked(Refusal::Invalid(why)) => format!("Invalid arguments for tool `{tool}`: {why}"),
        ArgumentsRefused::Checked(Refusal::OverBudget) => format!(
            "The arguments for tool `{tool}` could not be checked against its input schema within the server's \
             budget of {budget:?} per call (its patterns take too long on them): send fewer or shorter values"
        ),
        ArgumentsRefused::Unchecked(Unavailable::Busy) => format!(
            "The arguments for tool `{tool}` were not checked: the server is busy checking other calls' \
             arguments; retry shortly"
        ),
        ArgumentsRefused::Unchecked(Unavailable::Lost) => {
            format!("The arguments for tool `{tool}` could not be checked (the check stopped); retry")
        }
    }
}

/// A result's structured content, read and checked against its tool's
/// output schema (`None` when there is none to check: results flagged as
/// errors need not match), or why it breaks the schema.
pub(super) fn checked_output(
    schemas: &ToolSchemas,
    result: &contract::CallToolResult,
) -> Result<Option<serde_json::Value>, String> {
    let Some(text) = mapping::structured_text(result).filter(|_| result.is_error != Some(true)) else {
        return Ok(None);
    };
    let value = serde_json::from_str(text).map_err(|e| format!("the structured content is not JSON: {e}"))?;
    schemas.check_structured(&value)?;
    Ok(Some(value))
}
