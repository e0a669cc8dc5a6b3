//! Content and resource contents.

use std::borrow::Cow;

use serde::Serialize;

use crate::contract;
use crate::version::ProtocolVersion;

use super::annotations::{Annotations, annotations};
use super::meta::{GuestMeta, guest_meta};

/// MCP `TextResourceContents` / `BlobResourceContents`.
#[derive(Serialize)]
#[serde(untagged)]
pub enum ResourceContents<'a> {
    /// Text payload.
    Text {
        /// Resource URI.
        uri: Cow<'a, str>,
        /// MIME type.
        #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<&'a str>,
        /// The text.
        text: &'a str,
        /// The guest's `_meta` (an app view's `ui`, for one).
        #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
        meta: Option<GuestMeta<'a>>,
    },
    /// Base64 payload.
    Blob {
        /// Resource URI.
        uri: Cow<'a, str>,
        /// MIME type.
        #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<&'a str>,
        /// Base64 data.
        blob: &'a str,
        /// The guest's `_meta`.
        #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
        meta: Option<GuestMeta<'a>>,
    },
}

/// Maps one `resource-contents`.
pub fn resource_contents(c: &contract::ResourceContents) -> ResourceContents<'_> {
    match c {
        contract::ResourceContents::Text(t) => ResourceContents::Text {
            uri: Cow::Borrowed(&t.uri),
            mime_type: t.mime_type.as_deref(),
            text: &t.text,
            meta: super::apps::contents_meta(t.meta_object.as_ref(), &t.uri),
        },
        contract::ResourceContents::Blob(b) => ResourceContents::Blob {
            uri: Cow::Borrowed(&b.uri),
            mime_type: b.mime_type.as_deref(),
            blob: &b.blob,
            meta: super::apps::contents_meta(b.meta_object.as_ref(), &b.uri),
        },
    }
}

/// An MCP `ContentBlock`.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Content<'a> {
    /// `text`.
    Text {
        /// The text.
        text: Cow<'a, str>,
        /// Annotations.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations<'a>>,
    },
    /// `image`.
    Image {
        /// Base64 data.
        data: &'a str,
        /// MIME type.
        #[serde(rename = "mimeType")]
        mime_type: &'a str,
        /// Annotations.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations<'a>>,
    },
    /// `audio` (2025-03-26+).
    Audio {
        /// Base64 data.
        data: &'a str,
        /// MIME type.
        #[serde(rename = "mimeType")]
        mime_type: &'a str,
        /// Annotations.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations<'a>>,
    },
    /// `resource_link` (2025-06-18+).
    #[serde(rename = "resource_link")]
    ResourceLink {
        /// Its URI.
        uri: &'a str,
        /// Its name.
        name: &'a str,
        /// A human-readable name.
        #[serde(skip_serializing_if = "Option::is_none")]
        title: Option<&'a str>,
        /// What it is.
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<&'a str>,
        /// MIME type.
        #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<&'a str>,
        /// Size in bytes.
        #[serde(skip_serializing_if = "Option::is_none")]
        size: Option<u64>,
        /// Annotations.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations<'a>>,
        /// `_meta`.
        #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
        meta: Option<GuestMeta<'a>>,
    },
    /// `resource` (embedded).
    Resource {
        /// The embedded contents.
        resource: ResourceContents<'a>,
        /// Annotations.
        #[serde(skip_serializing_if = "Option::is_none")]
        annotations: Option<Annotations<'a>>,
    },
}

/// Maps one content item at position `index` of its list.
///
/// Audio before 2025-03-26 has no content type of its own; it is sent as an
/// embedded blob resource with the same data and MIME type and the URI
/// `mcp-wit:audio/<index>`, so no bytes are lost.
pub fn content(c: &contract::Content, index: usize, v: ProtocolVersion) -> Content<'_> {
    match c {
        contract::Content::Text(t) => {
            Content::Text { text: Cow::Borrowed(&t.text), annotations: annotations(&t.annotations, v) }
        }
        contract::Content::Image(i) => {
            Content::Image { data: &i.data, mime_type: &i.mime_type, annotations: annotations(&i.annotations, v) }
        }
        contract::Content::Audio(a) if v.has_audio() => {
            Content::Audio { data: &a.data, mime_type: &a.mime_type, annotations: annotations(&a.annotations, v) }
        }
        contract::Content::Audio(a) => Content::Resource {
            resource: ResourceContents::Blob {
                uri: Cow::Owned(format!("mcp-wit:audio/{index}")),
                mime_type: Some(&a.mime_type),
                blob: &a.data,
                meta: None,
            },
            annotations: annotations(&a.annotations, v),
        },
        contract::Content::Embedded(e) => embedded(e, v),
        contract::Content::ResourceLink(l) if v.has_resource_links_and_titles() => Content::ResourceLink {
            uri: &l.uri,
            name: &l.name,
            title: l.title.as_deref(),
            description: l.description.as_deref(),
            mime_type: l.mime_type.as_deref(),
            size: l.size,
            annotations: annotations(&l.annotations, v),
            meta: l.meta_object.as_ref().and_then(|m| guest_meta(&m.json)),
        },
        // Before 2025-06-18 a link has no content kind: it is said in text.
        contract::Content::ResourceLink(l) => Content::Text {
            text: Cow::Owned(format!("{}: {}", l.title.as_deref().unwrap_or(&l.name), l.uri)),
            annotations: annotations(&l.annotations, v),
        },
    }
}

/// The longest resource link URI passed on to a client.
pub const MAX_LINK_URI_BYTES: usize = 8192;

/// URI schemes a link may not have: a client that shows the link may run
/// what it holds.
pub const REFUSED_LINK_SCHEMES: [&str; 3] = ["javascript", "vbscript", "data"];

/// Why a resource link cannot be passed on, if it cannot: its URI must be an
/// RFC 3986 URI (no spaces or line breaks), at most [`MAX_LINK_URI_BYTES`]
/// long, and of a scheme a client can hold without running it.
pub fn refused_link_uri(uri: &str) -> Option<String> {
    if uri.len() > MAX_LINK_URI_BYTES {
        return Some(format!("its URI is {} bytes long, past the {MAX_LINK_URI_BYTES} allowed", uri.len()));
    }
    let parsed = match fluent_uri::Uri::parse(uri) {
        Ok(parsed) => parsed,
        Err(e) => return Some(format!("its URI is not an RFC 3986 URI ({e})")),
    };
    let scheme = parsed.scheme().as_str();
    REFUSED_LINK_SCHEMES
        .iter()
        .any(|refused| scheme.eq_ignore_ascii_case(refused))
        .then(|| format!("its URI's scheme `{scheme}:` is not one a client should be handed"))
}

/// The text of each text item of `content`, in order (other kinds skipped).
pub fn text_items(content: &[contract::Content]) -> impl Iterator<Item = &str> {
    content.iter().filter_map(|c| match c {
        contract::Content::Text(t) => Some(t.text.as_str()),
        _ => None,
    })
}

pub(super) fn embedded(e: &contract::EmbeddedResource, v: ProtocolVersion) -> Content<'_> {
    Content::Resource { resource: resource_contents(&e.resource_contents), annotations: annotations(&e.annotations, v) }
}

/// Maps a content list; a resource link whose URI cannot be passed on is
/// left out, with a warning.
pub fn contents(list: &[contract::Content], v: ProtocolVersion) -> Vec<Content<'_>> {
    list.iter()
        .enumerate()
        .filter(|(_, c)| match c {
            contract::Content::ResourceLink(link) => match refused_link_uri(&link.uri) {
                None => true,
                Some(why) => {
                    tracing::warn!("left out a guest's resource link: {why}");
                    false
                }
            },
            _ => true,
        })
        .map(|(i, c)| content(c, i, v))
        .collect()
}
