//! The request methods a server answers, named once.

/// A request method the session serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// `initialize`
    Initialize,
    /// `ping`
    Ping,
    /// `tools/list`
    ListTools,
    /// `tools/call`
    CallTool,
    /// `resources/list`
    ListResources,
    /// `resources/read`
    ReadResource,
    /// `resources/templates/list`
    ListResourceTemplates,
    /// `resources/subscribe`
    Subscribe,
    /// `resources/unsubscribe`
    Unsubscribe,
    /// `prompts/list`
    ListPrompts,
    /// `prompts/get`
    GetPrompt,
    /// `completion/complete`
    Complete,
    /// `logging/setLevel`
    SetLogLevel,
    /// `server/discover` (2026-07-28)
    Discover,
    /// `subscriptions/listen` (2026-07-28)
    Listen,
}

impl Method {
    /// Every method with its wire name.
    pub const ALL: [(Method, &'static str); 15] = [
        (Method::Initialize, "initialize"),
        (Method::Ping, "ping"),
        (Method::ListTools, "tools/list"),
        (Method::CallTool, "tools/call"),
        (Method::ListResources, "resources/list"),
        (Method::ReadResource, "resources/read"),
        (Method::ListResourceTemplates, "resources/templates/list"),
        (Method::Subscribe, "resources/subscribe"),
        (Method::Unsubscribe, "resources/unsubscribe"),
        (Method::ListPrompts, "prompts/list"),
        (Method::GetPrompt, "prompts/get"),
        (Method::Complete, "completion/complete"),
        (Method::SetLogLevel, "logging/setLevel"),
        (Method::Discover, "server/discover"),
        (Method::Listen, "subscriptions/listen"),
    ];

    /// The method called `name` on the wire.
    pub fn parse(name: &str) -> Option<Method> {
        Self::ALL.iter().find(|(_, wire)| *wire == name).map(|(method, _)| *method)
    }

    /// Whether 2026-07-28 removed the method (modern requests for it get -32601).
    pub fn is_legacy_only(self) -> bool {
        matches!(
            self,
            Method::Initialize | Method::Ping | Method::SetLogLevel | Method::Subscribe | Method::Unsubscribe
        )
    }

    /// Whether the method exists only from 2026-07-28 on.
    pub fn is_modern_only(self) -> bool {
        matches!(self, Method::Discover | Method::Listen)
    }

    /// Whether a modern result of the method carries `ttlMs` and `cacheScope`.
    pub fn is_cacheable(self) -> bool {
        matches!(
            self,
            Method::Discover
                | Method::ListTools
                | Method::ListPrompts
                | Method::ListResources
                | Method::ListResourceTemplates
                | Method::ReadResource
        )
    }

    /// The wire name, e.g. `"tools/call"`.
    pub fn as_str(self) -> &'static str {
        Self::ALL.iter().find(|(method, _)| *method == self).map(|(_, wire)| *wire).expect("every method is listed")
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (method, name) in Method::ALL {
            assert_eq!(Method::parse(name), Some(method));
            assert_eq!(method.as_str(), name);
        }
        assert_eq!(Method::parse("tools/frobnicate"), None);
    }
}
