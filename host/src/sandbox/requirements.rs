//! The configuration and secrets a component's tools declare they need
//! (`tool-meta.config` / `tool-meta.secrets`), checked against what the
//! operator supplies before serving.

use mcp_wit_protocol::{GuestFault, contract};

use crate::runtime::LoadedRouter;

/// Whether a requirement is plain configuration or a secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequirementKind {
    /// Plain configuration, e.g. a region.
    Config,
    /// A secret, e.g. an API key: never logged.
    Secret,
}

/// One declared requirement of one tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    /// The tool that declares it.
    pub tool: String,
    /// Config or secret.
    pub kind: RequirementKind,
    /// The variable name.
    pub key: String,
    /// What it is for.
    pub description: String,
    /// Whether the tool cannot work without it.
    pub required: bool,
}

impl std::fmt::Display for Requirement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.kind {
            RequirementKind::Config => "config",
            RequirementKind::Secret => "secret",
        };
        let need = if self.required { "needs" } else { "can use" };
        write!(f, "tool `{}` {need} the {what} `{}` ({})", self.tool, self.key, self.description)
    }
}

/// Every config and secret the component's tools declare.
pub fn declared(component: &LoadedRouter) -> Result<Vec<Requirement>, GuestFault> {
    Ok(declared_by(&component.instantiate()?.list_tools()?))
}

/// Every config and secret `tools` declare.
pub fn declared_by(tools: &[contract::Tool]) -> Vec<Requirement> {
    let mut all = Vec::new();
    for tool in tools {
        let Some(meta) = &tool.meta else { continue };
        let mut push = |kind, key: String, description: String, required| {
            all.push(Requirement { tool: tool.name.clone(), kind, key, description, required });
        };
        for d in meta.config.iter().flatten() {
            push(RequirementKind::Config, d.name.clone(), d.description.clone(), d.required);
        }
        for d in meta.secrets.iter().flatten() {
            push(RequirementKind::Secret, d.name.clone(), d.description.clone(), d.required);
        }
    }
    all
}

/// The declared requirements that `supplied` (the variable names granted to
/// the guest) leaves open.
pub fn missing<'a>(declared: &'a [Requirement], supplied: &[&str]) -> Vec<&'a Requirement> {
    declared.iter().filter(|r| !supplied.contains(&r.key.as_str())).collect()
}
