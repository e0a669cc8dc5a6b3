//! Several router components served as one MCP server.
//!
//! Each component is mounted under a prefix: its tool and prompt names are
//! sent as `PREFIX_NAME` and its resource URIs as `PREFIX+URI`, and incoming
//! names and URIs are routed by that prefix and stripped of it. A single
//! component is mounted without a prefix and nothing is renamed.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use crate::runtime::LoadedComponent;

/// Separates a mount's prefix from a tool or prompt name.
pub const NAME_SEPARATOR: char = '_';

/// Separates a mount's prefix from a resource URI.
pub const URI_SEPARATOR: char = '+';

/// One component and the prefix it is served under.
#[derive(Clone)]
pub struct Mount {
    /// The prefix (empty when the component is served alone).
    pub prefix: String,
    /// The component.
    pub component: LoadedComponent,
}

/// The components one server serves; cheap to clone (one per session).
#[derive(Clone)]
pub struct Routers {
    mounts: Arc<[Mount]>,
}

impl From<LoadedComponent> for Routers {
    fn from(component: LoadedComponent) -> Self {
        Routers { mounts: Arc::new([Mount { prefix: String::new(), component }]) }
    }
}

/// Why a set of routers cannot be served together.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MountError {
    /// No component at all.
    #[error("no component to serve")]
    Empty,
    /// A prefix that cannot be routed.
    #[error("`{component}`: the prefix {prefix:?} must be letters, digits and `-` only (set one with --name)")]
    BadPrefix {
        /// The component's label.
        component: String,
        /// The prefix.
        prefix: String,
    },
    /// Two components would answer to the same name.
    #[error(
        "{kind} `{name}` is offered by both `{first}` and `{second}`; give one of them another prefix with --name FILE=PREFIX"
    )]
    Collision {
        /// `tool`, `prompt`, `resource` or `prefix`.
        kind: &'static str,
        /// The name as the client would see it.
        name: String,
        /// The component mounted first.
        first: String,
        /// The other one.
        second: String,
    },
}

impl Routers {
    /// Mounts `components` under their prefixes. With one component the
    /// prefix is ignored: it is served as is.
    pub fn new(components: Vec<(String, LoadedComponent)>) -> Result<Self, MountError> {
        if components.is_empty() {
            return Err(MountError::Empty);
        }
        if components.len() == 1 {
            let (_, component) = components.into_iter().next().expect("one component");
            return Ok(component.into());
        }
        let mut seen: HashMap<&str, &str> = HashMap::new();
        for (prefix, component) in &components {
            if prefix.is_empty() || !prefix.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                return Err(MountError::BadPrefix { component: component.label().into(), prefix: prefix.clone() });
            }
            if let Some(first) = seen.insert(prefix, component.label()) {
                return Err(MountError::Collision {
                    kind: "prefix",
                    name: prefix.clone(),
                    first: first.into(),
                    second: component.label().into(),
                });
            }
        }
        let mounts = components.into_iter().map(|(prefix, component)| Mount { prefix, component }).collect();
        Ok(Routers { mounts })
    }

    /// The mounted components, in order.
    pub fn mounts(&self) -> &[Mount] {
        &self.mounts
    }

    /// Whether one component is served alone (nothing is renamed).
    pub fn is_single(&self) -> bool {
        self.mounts.len() == 1
    }

    /// The name a client sees for `name` of mount `index`.
    pub fn outward_name<'a>(&self, index: usize, name: &'a str) -> Cow<'a, str> {
        self.outward(index, name, NAME_SEPARATOR)
    }

    /// The URI a client sees for `uri` of mount `index`.
    pub fn outward_uri<'a>(&self, index: usize, uri: &'a str) -> Cow<'a, str> {
        self.outward(index, uri, URI_SEPARATOR)
    }

    fn outward<'a>(&self, index: usize, text: &'a str, separator: char) -> Cow<'a, str> {
        if self.is_single() {
            Cow::Borrowed(text)
        } else {
            Cow::Owned(format!("{}{separator}{text}", self.mounts[index].prefix))
        }
    }

    /// The mount a client's tool or prompt name belongs to, and the name
    /// without its prefix.
    pub fn route_name<'a>(&self, name: &'a str) -> Option<(usize, &'a str)> {
        self.route(name, NAME_SEPARATOR)
    }

    /// The mount a client's resource URI belongs to, and the URI without its
    /// prefix.
    pub fn route_uri<'a>(&self, uri: &'a str) -> Option<(usize, &'a str)> {
        self.route(uri, URI_SEPARATOR)
    }

    fn route<'a>(&self, text: &'a str, separator: char) -> Option<(usize, &'a str)> {
        if self.is_single() {
            return Some((0, text));
        }
        // Longest prefix first, so `a-b` wins over `a` for `a-b_tool`.
        self.mounts
            .iter()
            .enumerate()
            .filter_map(|(i, m)| Some((i, text.strip_prefix(m.prefix.as_str())?.strip_prefix(separator)?)))
            .max_by_key(|(i, _)| self.mounts[*i].prefix.len())
    }

    /// Lists every component's tools, prompts and resources and fails on any
    /// name two components would share, naming both.
    pub fn check_collisions(&self) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        if self.is_single() {
            return Ok(());
        }
        let mut tools: HashMap<String, usize> = HashMap::new();
        let mut prompts: HashMap<String, usize> = HashMap::new();
        let mut resources: HashMap<String, usize> = HashMap::new();
        for (i, mount) in self.mounts.iter().enumerate() {
            let mut instance = mount.component.instantiate()?;
            let listed = [
                (
                    "tool",
                    &mut tools,
                    instance
                        .list_tools()?
                        .into_iter()
                        .map(|t| self.outward_name(i, &t.name).into_owned())
                        .collect::<Vec<_>>(),
                ),
                (
                    "prompt",
                    &mut prompts,
                    instance.list_prompts()?.into_iter().map(|p| self.outward_name(i, &p.name).into_owned()).collect(),
                ),
                (
                    "resource",
                    &mut resources,
                    instance.list_resources()?.into_iter().map(|r| self.outward_uri(i, &r.uri).into_owned()).collect(),
                ),
            ];
            for (kind, seen, names) in listed {
                for name in names {
                    if let Some(first) = seen.insert(name.clone(), i) {
                        return Err(Box::new(MountError::Collision {
                            kind,
                            name,
                            first: self.mounts[first].component.label().into(),
                            second: mount.component.label().into(),
                        }));
                    }
                }
            }
        }
        Ok(())
    }
}
