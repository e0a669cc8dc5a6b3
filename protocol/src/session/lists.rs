//! The paged list results: one guest list per mount, merged, cut into pages.

use serde::Serialize;
use serde_json::value::RawValue;

use super::exchange::Exchange;
use crate::auth::{Operation, OperationKind};
use crate::jsonrpc::RpcError;
use crate::router::{CallContext, GuestResult, RouterComponent};

/// One page of a list result: `{"<key>": [...], "nextCursor"?: "..."}`.
struct ListPage<'a, T> {
    key: &'static str,
    items: &'a [T],
    next_cursor: Option<String>,
}

impl<T: Serialize> Serialize for ListPage<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry(self.key, self.items)?;
        if let Some(next) = &self.next_cursor {
            map.serialize_entry("nextCursor", next)?;
        }
        map.end()
    }
}

const CURSOR_PREFIX: &str = "mcp-wit:";

/// Cuts one page out of `items`. Cursors are opaque to clients; they carry
/// the offset of the next page.
fn paginate<'a, T>(
    items: &'a [T],
    cursor: Option<&str>,
    page_size: Option<usize>,
) -> Result<(&'a [T], Option<String>), RpcError> {
    let start = match cursor {
        None => 0,
        Some(c) => c
            .strip_prefix(CURSOR_PREFIX)
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n <= items.len())
            .ok_or_else(|| RpcError::invalid_params(format!("invalid cursor {c:?}")))?,
    };
    let end = page_size.map_or(items.len(), |size| (start + size.max(1)).min(items.len()));
    let next = (end < items.len()).then(|| format!("{CURSOR_PREFIX}{end}"));
    Ok((&items[start..end], next))
}

impl<C: RouterComponent> Exchange<C> {
    /// Asks every mounted router for its list, in mount order.
    pub(super) async fn list_every_mount<T>(
        &mut self,
        list: impl AsyncFn(&mut C::Router, &CallContext) -> GuestResult<Vec<T>>,
    ) -> Result<Vec<Vec<T>>, RpcError> {
        let mut per_mount = Vec::with_capacity(self.server.mounts());
        for mount in 0..self.server.mounts() {
            per_mount.push(self.guest(mount, async |r, cx| list(r, cx).await).await?);
        }
        Ok(per_mount)
    }

    /// Whether a list shows the caller the `kind` of thing `name` (its outward
    /// name or URI): always, unless lists are filtered by scope and the
    /// caller lacks one that using it needs.
    pub(super) fn shows(&self, kind: OperationKind, name: &str) -> bool {
        match (&self.server.options().list_filter, self.request.caller()) {
            (Some(policy), Some(caller)) => policy.missing(caller, Some(Operation { kind, name })).is_empty(),
            _ => true,
        }
    }

    /// Answers with the page of `items` that `cursor` points at, under `key`.
    pub(super) fn reply_page<T: Serialize>(
        &mut self,
        id: &RawValue,
        key: &'static str,
        items: &[T],
        cursor: Option<&str>,
    ) -> Result<(), RpcError> {
        let (page, next_cursor) = paginate(items, cursor, self.server.options().page_size)?;
        self.reply(id, &ListPage { key, items: page, next_cursor })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jsonrpc::code;

    #[test]
    fn pages_with_opaque_cursors() {
        let items = [1, 2, 3, 4, 5];
        let (page, next) = paginate(&items, None, Some(2)).unwrap();
        assert_eq!((page, next.as_deref()), (&[1, 2][..], Some("mcp-wit:2")));
        let (page, next) = paginate(&items, next.as_deref(), Some(2)).unwrap();
        assert_eq!((page, next.as_deref()), (&[3, 4][..], Some("mcp-wit:4")));
        let (page, next) = paginate(&items, next.as_deref(), Some(2)).unwrap();
        assert_eq!((page, next), (&[5][..], None));
        assert_eq!(paginate(&items, None, None).unwrap(), (&items[..], None));
        for bad in ["nope", "mcp-wit:x", "mcp-wit:6"] {
            assert_eq!(paginate(&items, Some(bad), None).unwrap_err().code, code::INVALID_PARAMS);
        }
    }
}
