"""What tools, resources and prompts return beyond plain values.

Each has ``to_mcp()``: its MCP JSON shape, which the component's glue turns
into the contract's records (and which native tests can read directly).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any, Literal, Union


def _b64(data: bytes | str) -> str:
    return data if isinstance(data, str) else base64.b64encode(data).decode("ascii")


@dataclass
class Text:
    """Text content."""

    text: str

    def to_mcp(self) -> dict[str, Any]:
        return {"type": "text", "text": self.text}


@dataclass
class Image:
    """An image: raw bytes, or text already in base64."""

    data: bytes | str
    mime_type: str = "image/png"

    def to_mcp(self) -> dict[str, Any]:
        return {"type": "image", "data": _b64(self.data), "mimeType": self.mime_type}


@dataclass
class Audio:
    """A sound: raw bytes, or text already in base64."""

    data: bytes | str
    mime_type: str = "audio/wav"

    def to_mcp(self) -> dict[str, Any]:
        return {"type": "audio", "data": _b64(self.data), "mimeType": self.mime_type}


@dataclass
class EmbeddedResource:
    """A resource's contents inside a tool result or a prompt message: give
    ``text``, or ``blob`` (bytes, or base64 text)."""

    uri: str
    text: str | None = None
    blob: bytes | str | None = None
    mime_type: str | None = None

    def contents(self) -> dict[str, Any]:
        """The resource's contents alone (as ``resources/read`` lists them)."""
        contents: dict[str, Any] = {"uri": self.uri}
        if self.mime_type is not None:
            contents["mimeType"] = self.mime_type
        if self.blob is not None:
            contents["blob"] = _b64(self.blob)
        else:
            contents["text"] = self.text if self.text is not None else ""
        return contents

    def to_mcp(self) -> dict[str, Any]:
        return {"type": "resource", "resource": self.contents()}


Content = Union[Text, Image, Audio, EmbeddedResource]
"""Content of a tool result."""


@dataclass
class Message:
    """A prompt message: a string is text content; the contract carries text,
    images and embedded resources."""

    role: Literal["user", "assistant"]
    content: str | Text | Image | EmbeddedResource

    @classmethod
    def user(cls, content: str | Text | Image | EmbeddedResource) -> "Message":
        return cls("user", content)

    @classmethod
    def assistant(cls, content: str | Text | Image | EmbeddedResource) -> "Message":
        return cls("assistant", content)

    def to_mcp(self) -> dict[str, Any]:
        content = Text(self.content) if isinstance(self.content, str) else self.content
        if isinstance(content, Audio):
            raise TypeError("a prompt message cannot carry audio in the router contract")
        return {"role": self.role, "content": content.to_mcp()}


@dataclass
class ToolResult:
    """A tool's result spelled out: its content, and whether it reports a
    failure the model should see (``is_error``)."""

    content: list[Content] = field(default_factory=list)
    is_error: bool = False

    def to_mcp(self) -> dict[str, Any]:
        result: dict[str, Any] = {"content": [c.to_mcp() for c in self.content]}
        if self.is_error:
            result["isError"] = True
        return result
