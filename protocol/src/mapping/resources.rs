//! Resources and their contents.

use std::borrow::Cow;

use serde::Serialize;

use crate::contract;
use crate::version::ProtocolVersion;

use super::annotations::{Annotations, annotations};
use super::apps::{icons, resource_meta};
use super::content::{ResourceContents, resource_contents};
use super::json::GuestJson;
use super::meta::GuestMeta;

/// An MCP `Resource`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource<'a> {
    uri: Cow<'a, str>,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "str::is_empty")]
    mime_type: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<Annotations<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    icons: Option<GuestJson<'a>>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<GuestMeta<'a>>,
}

/// Maps a resource descriptor.
pub fn resource(r: &contract::McpResource, v: ProtocolVersion) -> Resource<'_> {
    Resource {
        uri: Cow::Borrowed(&r.uri),
        name: &r.name,
        title: r.title.as_deref().filter(|_| v.has_resource_links_and_titles()),
        description: r.description.as_deref(),
        mime_type: &r.mime_type,
        annotations: annotations(&r.annotations, v),
        icons: icons(r.icons.as_ref(), v, &format!("resource `{}`", r.uri.escape_debug())),
        meta: resource_meta(r.meta_object.as_ref(), v, &r.uri),
    }
}

impl<'a> Resource<'a> {
    /// The same resource under the URI the client sees.
    pub fn with_uri(self, uri: Cow<'a, str>) -> Self {
        Resource { uri, ..self }
    }
}

/// An MCP `ResourceTemplate`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate<'a> {
    uri_template: Cow<'a, str>,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mime_type: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<Annotations<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    icons: Option<GuestJson<'a>>,
}

/// Maps a resource template, under the URI template the client sees.
pub fn resource_template<'a>(
    t: &'a contract::ResourceTemplate,
    uri_template: Cow<'a, str>,
    v: ProtocolVersion,
) -> ResourceTemplate<'a> {
    ResourceTemplate {
        uri_template,
        name: &t.name,
        title: t.title.as_deref(),
        description: t.description.as_deref(),
        mime_type: t.mime_type.as_deref(),
        annotations: annotations(&t.annotations, v),
        icons: icons(t.icons.as_ref(), v, &format!("resource template `{}`", t.name.escape_debug())),
    }
}

/// An MCP `ReadResourceResult`.
#[derive(Serialize)]
pub struct ReadResourceResult<'a> {
    contents: Vec<ResourceContents<'a>>,
}

/// Maps a read result; `uri` gives each content's URI as the client sees it.
pub fn read_resource_result<'a>(
    r: &'a contract::ReadResourceResult,
    uri: impl Fn(&'a str) -> Cow<'a, str>,
) -> ReadResourceResult<'a> {
    let contents = r
        .contents
        .iter()
        .map(|c| match resource_contents(c) {
            ResourceContents::Text { uri: u, mime_type, text, meta } => {
                ResourceContents::Text { uri: rewrite(u, &uri), mime_type, text, meta }
            }
            ResourceContents::Blob { uri: u, mime_type, blob, meta } => {
                ResourceContents::Blob { uri: rewrite(u, &uri), mime_type, blob, meta }
            }
        })
        .collect();
    ReadResourceResult { contents }
}

fn rewrite<'a>(uri: Cow<'a, str>, f: &impl Fn(&'a str) -> Cow<'a, str>) -> Cow<'a, str> {
    match uri {
        Cow::Borrowed(u) => f(u),
        owned => owned,
    }
}
