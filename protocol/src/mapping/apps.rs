//! MCP Apps (`io.modelcontextprotocol/ui`, ext-apps
//! `specification/2026-01-26/apps.mdx`) and icons (SEP-973): what a guest
//! puts in a tool's or a resource's `_meta.ui` and in `icons`, checked
//! against what the extension and the schema allow before it is passed on
//! unchanged. Unknown keys pass (the extension may grow); a known key of the
//! wrong shape is refused, naming it.

use serde_json::{Map, Value};

use super::json::GuestJson;
use crate::contract;
use crate::version::ProtocolVersion;

/// The extension's identifier, the key of its settings in `extensions`.
pub const UI_EXTENSION: &str = "io.modelcontextprotocol/ui";

/// The MIME type of an app's HTML view.
pub const APP_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The settings the host declares for the extension: the views it serves.
pub fn ui_settings() -> Value {
    serde_json::json!({ "mimeTypes": [APP_MIME_TYPE] })
}

/// The `ui` entry of a `_meta` object, if any.
fn ui_of(meta: &Map<String, Value>) -> Result<Option<&Map<String, Value>>, String> {
    match meta.get("ui") {
        None => Ok(None),
        Some(Value::Object(ui)) => Ok(Some(ui)),
        Some(_) => Err("`_meta.ui` must be an object".into()),
    }
}

/// Checks a tool's `_meta.ui` (`resourceUri`, `visibility`).
pub fn check_tool_ui(meta: &Map<String, Value>) -> Result<(), String> {
    let Some(ui) = ui_of(meta)? else { return Ok(()) };
    if let Some(uri) = ui.get("resourceUri") {
        match uri.as_str() {
            Some(uri) if uri.starts_with("ui://") && uri.len() > "ui://".len() => {}
            _ => return Err("`_meta.ui.resourceUri` must be a `ui://` URI".into()),
        }
    }
    if let Some(visibility) = ui.get("visibility") {
        let ok =
            visibility.as_array().is_some_and(|who| who.iter().all(|w| matches!(w.as_str(), Some("model" | "app"))));
        if !ok {
            return Err("`_meta.ui.visibility` must be an array of \"model\" and \"app\"".into());
        }
    }
    Ok(())
}

/// Why `tool`'s `_meta.ui` (MCP Apps) cannot be served, if it cannot: what
/// `tools/list` leaves the tool out for. The host asks it when it loads a
/// router, to refuse such a tool at the start.
pub fn tool_ui_error(tool: &crate::contract::Tool) -> Option<String> {
    let meta = serde_json::from_str::<Map<String, Value>>(&tool.meta_object.as_ref()?.json).ok()?;
    check_tool_ui(&meta).err()
}

/// Checks a resource's or its contents' `_meta.ui` (`csp`, `permissions`,
/// `domain`, `prefersBorder`).
pub fn check_resource_ui(meta: &Map<String, Value>) -> Result<(), String> {
    let Some(ui) = ui_of(meta)? else { return Ok(()) };
    if let Some(csp) = ui.get("csp") {
        let csp = csp.as_object().ok_or("`_meta.ui.csp` must be an object")?;
        for key in ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] {
            if let Some(domains) = csp.get(key)
                && !domains.as_array().is_some_and(|d| d.iter().all(Value::is_string))
            {
                return Err(format!("`_meta.ui.csp.{key}` must be an array of origins"));
            }
        }
    }
    if let Some(permissions) = ui.get("permissions") {
        let permissions = permissions.as_object().ok_or("`_meta.ui.permissions` must be an object")?;
        for key in ["camera", "microphone", "geolocation", "clipboardWrite"] {
            if permissions.get(key).is_some_and(|p| !p.is_object()) {
                return Err(format!("`_meta.ui.permissions.{key}` must be an object (`{{}}` asks for it)"));
            }
        }
    }
    if ui.get("domain").is_some_and(|d| !d.is_string()) {
        return Err("`_meta.ui.domain` must be a string".into());
    }
    if ui.get("prefersBorder").is_some_and(|b| !b.is_boolean()) {
        return Err("`_meta.ui.prefersBorder` must be true or false".into());
    }
    Ok(())
}

/// Checks `icons` (JSON text) against MCP's `Icon`: an array of objects,
/// each with a `src` URI (`https:`, `http:` or `data:`), and optionally a
/// `mimeType`, `sizes` (strings) and a `theme` (`light` or `dark`).
pub fn check_icons(json: &str) -> Result<(), String> {
    let icons: Value = serde_json::from_str(json).map_err(|e| format!("`icons` is not JSON: {e}"))?;
    let icons = icons.as_array().ok_or("`icons` must be an array")?;
    for (i, icon) in icons.iter().enumerate() {
        let icon = icon.as_object().ok_or_else(|| format!("`icons[{i}]` must be an object"))?;
        let src = icon.get("src").and_then(Value::as_str);
        if !src.is_some_and(|s| ["https://", "http://", "data:"].iter().any(|scheme| s.starts_with(scheme))) {
            return Err(format!("`icons[{i}].src` must be an https:, http: or data: URI"));
        }
        if icon.get("mimeType").is_some_and(|m| !m.is_string()) {
            return Err(format!("`icons[{i}].mimeType` must be a string"));
        }
        if icon.get("sizes").is_some_and(|s| !s.as_array().is_some_and(|s| s.iter().all(Value::is_string))) {
            return Err(format!("`icons[{i}].sizes` must be an array of strings (\"48x48\", \"any\")"));
        }
        if icon.get("theme").is_some_and(|t| !matches!(t.as_str(), Some("light" | "dark"))) {
            return Err(format!("`icons[{i}].theme` must be \"light\" or \"dark\""));
        }
    }
    Ok(())
}

/// `icons` as sent in `v`: `None` before 2025-11-25, and when they are
/// malformed (with a warning naming `whose`: icons only decorate).
pub(super) fn icons<'a>(icons: Option<&'a contract::Value>, v: ProtocolVersion, whose: &str) -> Option<GuestJson<'a>> {
    let icons = icons.filter(|_| v.has_icons())?;
    match check_icons(&icons.json).and_then(|()| GuestJson::parse(&icons.json).map_err(|e| e.to_string())) {
        Ok(icons) => Some(icons),
        Err(why) => {
            tracing::warn!("leaving the icons of {whose} out: {why}");
            None
        }
    }
}

/// A resource's or its contents' `_meta` as sent in `v`: `None` before
/// 2025-06-18, and when its `ui` is malformed (with a warning naming the
/// resource); reserved keys dropped (see [`guest_meta`](super::meta::guest_meta)).
pub(super) fn resource_meta<'a>(
    meta: Option<&'a contract::Value>,
    v: ProtocolVersion,
    uri: &str,
) -> Option<super::meta::GuestMeta<'a>> {
    contents_meta(meta.filter(|_| v.has_resource_meta()), uri)
}

/// [`resource_meta`] in every revision: read results' contents carry
/// `_meta`, which older clients pass over.
pub(super) fn contents_meta<'a>(meta: Option<&'a contract::Value>, uri: &str) -> Option<super::meta::GuestMeta<'a>> {
    let meta = meta?;
    let object: Map<String, Value> = serde_json::from_str(&meta.json).ok()?;
    if let Err(why) = check_resource_ui(&object) {
        tracing::warn!("leaving the `_meta` of resource `{}` out: {why}", uri.escape_debug());
        return None;
    }
    super::meta::guest_meta(&meta.json)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(json: &str) -> Map<String, Value> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_tools_ui_needs_a_ui_uri_and_known_audiences() {
        assert!(check_tool_ui(&meta(r#"{"ui":{"resourceUri":"ui://v/view.html","visibility":["app"]}}"#)).is_ok());
        assert!(check_tool_ui(&meta(r#"{"other":1}"#)).is_ok());
        let wrong_uri = check_tool_ui(&meta(r#"{"ui":{"resourceUri":"https://x"}}"#)).unwrap_err();
        assert!(wrong_uri.contains("ui://"), "{wrong_uri}");
        assert!(check_tool_ui(&meta(r#"{"ui":{"visibility":["user"]}}"#)).is_err());
        assert!(check_tool_ui(&meta(r#"{"ui":"ui://v"}"#)).is_err());
    }

    #[test]
    fn a_resources_ui_is_checked_key_by_key() {
        let good = r#"{"ui":{"csp":{"connectDomains":["https://api.example.com"]},"permissions":{"camera":{}},
            "domain":"a.example","prefersBorder":true}}"#;
        assert!(check_resource_ui(&meta(good)).is_ok());
        assert!(check_resource_ui(&meta(r#"{"ui":{"csp":{"frameDomains":"https://x"}}}"#)).is_err());
        assert!(check_resource_ui(&meta(r#"{"ui":{"permissions":{"camera":true}}}"#)).is_err());
        assert!(check_resource_ui(&meta(r#"{"ui":{"prefersBorder":"yes"}}"#)).is_err());
    }

    #[test]
    fn icons_need_a_source_a_web_or_data_uri() {
        assert!(check_icons(r#"[{"src":"https://x/i.png","sizes":["48x48"],"theme":"dark"}]"#).is_ok());
        assert!(check_icons(r#"[{"src":"data:image/svg+xml;base64,AAAA"}]"#).is_ok());
        assert!(check_icons(r#"[{"src":"javascript:alert(1)"}]"#).is_err());
        assert!(check_icons(r#"{"src":"https://x"}"#).is_err());
        assert!(check_icons(r#"[{"src":"https://x","theme":"blue"}]"#).is_err());
    }
}
