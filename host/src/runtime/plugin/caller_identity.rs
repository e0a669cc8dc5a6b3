//! `mcp-wit:extension/caller` for plugins: who made the request being
//! served, as the transport authenticated it (HTTP with authorization on),
//! the same caller a component reads through the WIT interface of that
//! name. Beyond both XTP schemas, so a plugin imports it only if it wants
//! it: `current() -> i64`, a kernel block holding JSON, the caller
//! (`issuer`, `subject`, `clientId`, `scopes`) or `null` when requests are
//! not authenticated.

use serde_json::json;
use wasmtime::{Caller, FuncType, Linker, ValType};

use super::kernel::KernelView;
use crate::runtime::caller::CallerView;

/// The import module, named as the component interface.
pub const CALLER_MODULE: &str = "mcp-wit:extension/caller";

/// Its one function.
const CURRENT: &str = "current";

/// Whether `name` of [`CALLER_MODULE`] is a function this host defines.
pub fn provides(name: &str) -> bool {
    name == CURRENT
}

/// The type `current` has: `() -> i64`.
pub fn ty(engine: &wasmtime::Engine) -> FuncType {
    FuncType::new(engine, [], [ValType::I64])
}

/// Defines `current`.
pub(crate) fn add_to_linker<T: KernelView + CallerView + 'static>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    linker.func_wrap(CALLER_MODULE, CURRENT, |mut c: Caller<'_, T>| -> wasmtime::Result<u64> {
        let caller = match c.data().caller() {
            Some(caller) => json!({
                "issuer": caller.issuer,
                "subject": caller.subject,
                "clientId": caller.client_id,
                "scopes": caller.scopes,
            }),
            None => serde_json::Value::Null,
        };
        let text = caller.to_string();
        let block = c.data_mut().kernel().new_block(text.as_bytes());
        if block == 0 {
            return Err(wasmtime::Error::msg("`current`: the caller does not fit the plugin's memory"));
        }
        Ok(block)
    })?;
    Ok(())
}
