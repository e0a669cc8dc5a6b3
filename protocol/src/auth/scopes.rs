//! What each operation needs: the scopes of the server and of the rules
//! that match it, and what a router says it expects.

use std::collections::{BTreeMap, BTreeSet};

use super::caller::Caller;

/// The authorization a router says it expects (a `wasix:mcp@25.6.18`
/// router's `describe-server` resource metadata): advice to the operator,
/// never trusted on the router's word. Its default scopes are advertised,
/// never required; its issuers and resource are compared with the server's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DescribedResource {
    /// The resource identifier the router expects tokens for (empty: none
    /// named).
    pub resource_indicator: String,
    /// The authorization servers (issuer identifiers) it names.
    pub issuers: Vec<String>,
    /// The scopes it suggests clients ask for.
    pub default_scopes: Vec<String>,
}

/// What a scope rule applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OperationKind {
    /// `tools/call`, by tool name.
    Tool,
    /// `prompts/get`, by prompt name.
    Prompt,
    /// `resources/read` and subscriptions, by URI.
    Resource,
}

/// One operation a request performs on a named thing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Operation<'a> {
    /// What kind of thing.
    pub kind: OperationKind,
    /// Its name (a tool's, a prompt's) or URI (a resource's), as the client
    /// sent it: with its mount's prefix when several routers are served.
    pub name: &'a str,
}

/// Scopes an operation needs beyond the server's: every rule whose pattern
/// matches the operation's name adds its scopes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScopeRule {
    /// Tools, prompts or resources.
    pub kind: OperationKind,
    /// A glob over the name or URI: `*` matches any run of characters (`/`
    /// included), `?` any one; everything else matches itself.
    pub pattern: String,
    /// The scopes needed, all of them.
    pub scopes: Vec<String>,
}

/// Which scopes which requests need.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScopePolicy {
    /// Every request needs these.
    pub required: Vec<String>,
    /// Operations on matching names need these too.
    pub rules: Vec<ScopeRule>,
    /// Scope hierarchy: a granted scope (the key) implies these, and what
    /// they imply in turn (e.g. `admin` → `files:write` → `files:read`).
    pub implies: BTreeMap<String, Vec<String>>,
}

impl ScopePolicy {
    /// The scopes `operation` needs (the server's first), each once.
    pub fn needed<'p>(&'p self, operation: Option<Operation<'_>>) -> Vec<&'p str> {
        let mut needed: Vec<&str> = Vec::new();
        let mut add = |scope: &'p String| {
            if !needed.contains(&scope.as_str()) {
                needed.push(scope);
            }
        };
        self.required.iter().for_each(&mut add);
        if let Some(operation) = operation {
            self.rules
                .iter()
                .filter(|rule| rule.kind == operation.kind && glob_matches(&rule.pattern, operation.name))
                .flat_map(|rule| &rule.scopes)
                .for_each(&mut add);
        }
        needed
    }

    /// The scopes `operation` needs that `caller` is not granted (none:
    /// allowed).
    pub fn missing<'p>(&'p self, caller: &Caller, operation: Option<Operation<'_>>) -> Vec<&'p str> {
        let mut needed = self.needed(operation);
        needed.retain(|scope| !self.grants(caller, scope));
        needed
    }

    /// Whether `caller` holds `scope`, itself or through a broader scope.
    pub fn grants(&self, caller: &Caller, scope: &str) -> bool {
        if caller.names_scope(scope) {
            return true;
        }
        // Walk the hierarchy down from each granted scope; `seen` stops cycles.
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        let mut frontier: Vec<&str> = caller.scopes.iter().map(String::as_str).collect();
        while let Some(granted) = frontier.pop() {
            if !seen.insert(granted) {
                continue;
            }
            for implied in self.implies.get(granted).into_iter().flatten() {
                if implied == scope {
                    return true;
                }
                frontier.push(implied);
            }
        }
        false
    }

    /// Every scope the policy names: what the server advertises it uses
    /// (`scopes_supported`), the server's own first.
    pub fn all_scopes(&self) -> Vec<&str> {
        let mut all = self.needed(None);
        for scope in self.rules.iter().flat_map(|rule| &rule.scopes) {
            if !all.contains(&scope.as_str()) {
                all.push(scope);
            }
        }
        all
    }

    /// What the server advertises (`scopes_supported`): [`Self::all_scopes`],
    /// then `advertised` (e.g. the default scopes routers describe, which no
    /// request needs), each scope once.
    pub fn supported<'a>(&'a self, advertised: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
        let mut supported = self.all_scopes();
        for scope in advertised {
            if !supported.contains(&scope) {
                supported.push(scope);
            }
        }
        supported
    }

    /// Whether any operation needs more than the server's scopes.
    pub fn has_rules(&self) -> bool {
        !self.rules.is_empty()
    }
}

/// A rule as flags and settings write it, `NAME=SCOPE SCOPE…` (a glob and
/// the scopes it needs, or a scope and those it implies), as the name and
/// the scopes; the error says what was expected.
pub fn parse_scope_rule(rule: &str) -> Result<(String, Vec<String>), String> {
    let expected = || "expected NAME=SCOPES (e.g. `write_*=files:write`)".to_string();
    let (name, scopes) = rule.split_once('=').ok_or_else(expected)?;
    let scopes: Vec<String> = scopes.split_ascii_whitespace().map(str::to_string).collect();
    if name.trim().is_empty() || scopes.is_empty() {
        return Err(expected());
    }
    Ok((name.trim().to_string(), scopes))
}

/// Whether `name` matches the glob `pattern` (see [`ScopeRule::pattern`]).
///
/// Written here rather than taken from a glob crate: names and URIs are not
/// paths (`*` must cross `/`), and the core builds for wasm32 without
/// further dependencies. The classic greedy match with one backtrack point:
/// linear in practice, never exponential.
pub(crate) fn glob_matches(pattern: &str, name: &str) -> bool {
    let (pattern, name): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut p, mut n) = (0, 0);
    // Where the last `*` was, and the name position it has matched up to.
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == '?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((star_p, star_n)) => {
                    p = star_p + 1;
                    n = star_n + 1;
                    star = Some((star_p, star_n + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caller(scopes: &[&str]) -> Caller {
        Caller::new("https://as.example", "alice", None, scopes.iter().map(|s| s.to_string()))
    }

    fn tool(name: &str) -> Option<Operation<'_>> {
        Some(Operation { kind: OperationKind::Tool, name })
    }

    #[test]
    fn globs_match_names_and_uris() {
        assert!(glob_matches("*", ""));
        assert!(glob_matches("admin_*", "admin_reset"));
        assert!(!glob_matches("admin_*", "user_admin_reset"));
        assert!(glob_matches("file:///secret/*", "file:///secret/a/b.txt"));
        assert!(glob_matches("fs_?ead", "fs_read"));
        assert!(glob_matches("*_*_x", "a_b_c_x"));
        assert!(!glob_matches("a*b", "a"));
        assert!(glob_matches("exact", "exact") && !glob_matches("exact", "exactly"));
        assert!(glob_matches("héllo*", "héllo wörld"));
    }

    #[test]
    fn operations_need_the_server_scopes_and_those_of_matching_rules() {
        let policy = ScopePolicy {
            required: vec!["mcp".into()],
            rules: vec![
                ScopeRule { kind: OperationKind::Tool, pattern: "write_*".into(), scopes: vec!["files:write".into()] },
                ScopeRule { kind: OperationKind::Tool, pattern: "*_all".into(), scopes: vec!["admin".into()] },
                ScopeRule { kind: OperationKind::Prompt, pattern: "*".into(), scopes: vec!["prompts".into()] },
            ],
            implies: BTreeMap::from([
                ("admin".into(), vec!["files:write".into()]),
                ("files:write".into(), vec!["files:read".into()]),
            ]),
        };
        assert_eq!(policy.needed(tool("read")), ["mcp"]);
        assert_eq!(policy.needed(tool("write_all")), ["mcp", "files:write", "admin"]);
        assert_eq!(policy.missing(&caller(&["mcp"]), tool("write_one")), ["files:write"]);
        assert!(policy.missing(&caller(&["mcp", "admin"]), tool("write_all")).is_empty());
        assert!(policy.grants(&caller(&["admin"]), "files:read"));
        assert!(!policy.grants(&caller(&["files:read"]), "files:write"));
        assert_eq!(policy.missing(&caller(&[]), None), ["mcp"]);
        assert_eq!(policy.all_scopes(), ["mcp", "files:write", "admin", "prompts"]);
    }

    #[test]
    fn described_scopes_are_advertised_after_the_operators_each_once() {
        let policy = ScopePolicy {
            required: vec!["mcp".into()],
            rules: vec![ScopeRule { kind: OperationKind::Tool, pattern: "*".into(), scopes: vec!["files".into()] }],
            ..ScopePolicy::default()
        };
        let described = [
            DescribedResource { default_scopes: vec!["weather:read".into(), "mcp".into()], ..Default::default() },
            DescribedResource {
                default_scopes: vec!["files".into(), "weather:read".into(), "x".into()],
                ..Default::default()
            },
        ];
        let advertised = described.iter().flat_map(|d| &d.default_scopes).map(String::as_str);
        assert_eq!(policy.supported(advertised), ["mcp", "files", "weather:read", "x"]);
        // Advertised only: a caller is never asked for them.
        assert_eq!(policy.needed(tool("any")), ["mcp", "files"]);
        assert_eq!(ScopePolicy::default().supported(["a", "a"]), ["a"]);
        assert!(ScopePolicy::default().supported([]).is_empty());
    }

    #[test]
    fn a_cycle_in_the_hierarchy_ends() {
        let policy = ScopePolicy {
            implies: BTreeMap::from([("a".into(), vec!["b".into()]), ("b".into(), vec!["a".into()])]),
            ..ScopePolicy::default()
        };
        assert!(policy.grants(&caller(&["a"]), "b"));
        assert!(!policy.grants(&caller(&["a"]), "c"));
    }

    #[test]
    fn a_session_is_bound_to_issuer_and_subject() {
        let alice = caller(&["x"]);
        let stepped_up = Caller { scopes: vec!["x".into(), "y".into()], client_id: Some("c".into()), ..alice.clone() };
        assert!(alice.same_principal(&stepped_up));
        let other_issuer = Caller { issuer: "https://other.example".into(), ..alice.clone() };
        assert!(!alice.same_principal(&other_issuer));
        assert_ne!(alice.principal_key(), other_issuer.principal_key());
    }
}
