//! The client's roots (`roots/list`).

use serde::Deserialize;

use super::ClientError;

/// The roots of a `roots/list` result (JSON text).
pub fn read_roots(result: &str) -> Result<Vec<Root>, ClientError> {
    #[derive(Deserialize)]
    struct Listed {
        roots: Vec<Root>,
    }
    let listed: Listed =
        serde_json::from_str(result).map_err(|e| ClientError::InvalidResponse(format!("`roots/list` result: {e}")))?;
    Ok(listed.roots)
}

/// A root the client exposes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Root {
    /// Its URI (`file://…`).
    pub uri: String,
    /// Its name, if the client gave one.
    #[serde(default)]
    pub name: Option<String>,
}
