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
    /// 2025-11-25: the newest revision the host serves.
    V2025_11_25,
}

impl ProtocolVersion {
    /// The newest revision; offered when a client asks for one we do not know.
    pub const LATEST: ProtocolVersion = ProtocolVersion::V2025_11_25;

    /// Every supported revision, oldest first.
    pub const ALL: [ProtocolVersion; 4] = [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
    ];

    /// Parses a revision string such as `"2025-06-18"`.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == text)
    }

    /// The revision a client asking for `requested` gets: the same one when
    /// supported, else the latest (the client then decides whether to go on).
    pub fn negotiate(requested: &str) -> Self {
        Self::parse(requested).unwrap_or(Self::LATEST)
    }

    /// The wire form, e.g. `"2025-11-25"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2024_11_05 => "2024-11-05",
            ProtocolVersion::V2025_03_26 => "2025-03-26",
            ProtocolVersion::V2025_06_18 => "2025-06-18",
            ProtocolVersion::V2025_11_25 => "2025-11-25",
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
        for v in ProtocolVersion::ALL {
            assert_eq!(ProtocolVersion::negotiate(v.as_str()), v);
        }
        assert_eq!(ProtocolVersion::negotiate("2099-01-01"), ProtocolVersion::LATEST);
    }
}
