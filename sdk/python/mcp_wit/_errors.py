"""Errors a handler may raise to pick the contract's error case.

Any other exception is the "it ran and failed" case with the exception's
message: the router's boundary catches everything, so a failing handler
never traps the instance.
"""

from __future__ import annotations

import errno


class McpError(Exception):
    """An error with one of the contract's cases (``kind``)."""

    kind = "execution-error"

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if kind is not None:
            self.kind = kind

    @classmethod
    def invalid_parameters(cls, message: str) -> "McpError":
        return cls(message, "invalid-parameters")

    @classmethod
    def not_found(cls, message: str) -> "McpError":
        return cls(message, "not-found")


class ToolError(McpError):
    """A tool's error: ``execution-error`` unless built with
    ``ToolError.invalid_parameters(...)`` or ``ToolError.not_found(...)``."""


class ResourceError(McpError):
    """A resource's error: ``execution-error`` or ``ResourceError.not_found(...)``."""


class PromptError(McpError):
    """A prompt's error: ``internal-error``, ``PromptError.invalid_parameters(...)``
    or ``PromptError.not_found(...)``."""

    kind = "internal-error"


class ClientError(Exception):
    """The client gave no answer to a question (sampling, elicitation, roots).

    ``kind`` is ``unsupported`` (the client did not declare the capability),
    ``rejected`` (it answered with a JSON-RPC error: ``code``, ``data``),
    ``invalid-params``, ``invalid-response`` or ``unavailable`` (no client
    can be asked now). Uncaught in a tool, it is the tool's error.
    """

    def __init__(self, kind: str, message: str, code: int | None = None, data: str | None = None) -> None:
        self.kind = kind
        self.message = message
        self.code = code
        self.data = data
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.kind == "unsupported":
            return f"the client does not support {self.message}"
        if self.kind == "rejected":
            return f"the client answered with error {self.code}: {self.message}"
        if self.kind == "invalid-params":
            return f"invalid params: {self.message}"
        if self.kind == "invalid-response":
            return f"invalid response from the client: {self.message}"
        return self.message


def error_kind(error: BaseException, allowed: tuple[str, ...], fallback: str) -> tuple[str, str]:
    """The contract's error case and message for an exception a handler
    raised: an :class:`McpError`'s own case when the call allows it; any
    other exception is ``fallback`` with its message (its type's name when
    it has none). Never a traceback."""
    message = str(error) or type(error).__name__
    if isinstance(error, McpError):
        return (error.kind if error.kind in allowed else fallback), error.message
    return fallback, message + _grant_hint(error)


def _grant_hint(error: BaseException) -> str:
    """What to check when a file is not found or not reachable: the
    component sees no file of the host but those in the directories its
    server grants (WASI's `No such file or directory` is errno 44 there,
    which says nothing of grants)."""
    missing = {errno.ENOENT, errno.EACCES, getattr(errno, "ENOTCAPABLE", errno.ENOENT)}
    if not isinstance(error, OSError) or error.errno not in missing or error.filename is None:
        return ""
    return (
        f" (a router sees only the directories its server grants, `mcp-wit serve --dir HOST[:GUEST]`: "
        f"is {error.filename} under one of them?)"
    )
