//! MCP protocol revisions the host speaks, and what each one can carry.

/// A protocol revision, ordered oldest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProtocolVersion {
    /// 2024-11-05: the first revision (HTTP+SSE, no audio, no tool annotations).
    V2024_11_05,
    /// 2025-03-26: audio content, tool annotations, completions capability.
    V2025_03_26,
    /// 2025-06-18: structured tool output, `lastModified` annotations.
    V2025_06_18,
    /// 2025-11-25: the newest revision with `initialize` and sessions.
    V2025_11_25,
    /// 2026-07-28: no handshake; every request carries its own version and
    /// client capabilities in `_meta` and is served statelessly.
    V2026_07_28,
}

impl ProtocolVersion {
    /// The newest revision served.
    pub const LATEST: ProtocolVersion = ProtocolVersion::V2026_07_28;

    /// The newest legacy revision: what `initialize` offers a client that
    /// asks for one we do not know.
    pub const LATEST_LEGACY: ProtocolVersion = ProtocolVersion::V2025_11_25;

    /// Every supported revision, oldest first.
    pub const ALL: [ProtocolVersion; 5] = [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    /// The legacy revisions: negotiated by `initialize`, served in sessions.
    pub const LEGACY: [ProtocolVersion; 4] = [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
    ];

    /// The modern revisions: named per request, served statelessly. The list
    /// `server/discover` advertises and -32022 names.
    pub const MODERN: [ProtocolVersion; 1] = [ProtocolVersion::V2026_07_28];

    /// Parses a revision string such as `"2025-06-18"`.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == text)
    }

    /// The revision `initialize` settles on for a client asking for
    /// `requested`: the same one when it is a legacy revision we serve, else
    /// the newest legacy one (the client then decides whether to go on).
    /// `initialize` never selects a modern revision.
    pub fn negotiate(requested: &str) -> Self {
        Self::parse(requested).filter(|v| !v.is_modern()).unwrap_or(Self::LATEST_LEGACY)
    }

    /// Whether this is a modern (2026-07-28 and later) revision.
    pub fn is_modern(self) -> bool {
        self >= ProtocolVersion::V2026_07_28
    }

    /// The wire form, e.g. `"2025-11-25"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2024_11_05 => "2024-11-05",
            ProtocolVersion::V2025_03_26 => "2025-03-26",
            ProtocolVersion::V2025_06_18 => "2025-06-18",
            ProtocolVersion::V2025_11_25 => "2025-11-25",
            ProtocolVersion::V2026_07_28 => "2026-07-28",
        }
    }

    /// Whether `audio` content exists in this revision.
    pub fn has_audio(self) -> bool {
        self >= ProtocolVersion::V2025_03_26
    }

    /// Whether servers advertise the `completions` capability.
    pub fn has_completions_capability(self) -> bool {
        self >= ProtocolVersion::V2025_03_26
    }

    /// Whether `notifications/progress` carries a `message`.
    pub fn has_progress_message(self) -> bool {
        self >= ProtocolVersion::V2025_03_26
    }

    /// Whether tools carry `annotations` (`readOnlyHint`, …).
    pub fn has_tool_annotations(self) -> bool {
        self >= ProtocolVersion::V2025_03_26
    }

    /// Whether tools carry `outputSchema` and results `structuredContent`.
    pub fn has_structured_output(self) -> bool {
        self >= ProtocolVersion::V2025_06_18
    }

    /// Whether annotations carry `lastModified`.
    pub fn has_last_modified(self) -> bool {
        self >= ProtocolVersion::V2025_06_18
    }

    /// Whether resources and their contents carry `_meta`.
    pub fn has_resource_meta(self) -> bool {
        self >= ProtocolVersion::V2025_06_18
    }

    /// Whether the server, tools, prompts, resources and templates carry
    /// `icons`.
    pub fn has_icons(self) -> bool {
        self >= ProtocolVersion::V2025_11_25
    }

    /// Whether content may be a `resource_link`, and tools, prompts and
    /// resources carry a `title`.
    pub fn has_resource_links_and_titles(self) -> bool {
        self >= ProtocolVersion::V2025_06_18
    }
}

impl std::fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negotiates_known_and_falls_back_to_latest() {
        for v in ProtocolVersion::LEGACY {
            assert_eq!(ProtocolVersion::negotiate(v.as_str()), v);
        }
        assert_eq!(ProtocolVersion::negotiate("2099-01-01"), ProtocolVersion::LATEST_LEGACY);
        // `initialize` is a legacy handshake: it never settles on a modern revision.
        assert_eq!(ProtocolVersion::negotiate("2026-07-28"), ProtocolVersion::LATEST_LEGACY);
        assert!(ProtocolVersion::MODERN.iter().all(|v| v.is_modern()));
        assert!(ProtocolVersion::LEGACY.iter().all(|v| !v.is_modern()));
    }
}
