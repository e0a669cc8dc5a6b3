'''Write an MCP server in Python as a WebAssembly component for mcp-wit.

    from mcp_wit import Router, Context

    router = Router("weather", instructions="Forecasts for cities.")

    @router.tool(read_only=True)
    def forecast(city: str, days: int = 1) -> str:
        """Forecast for a city."""
        return f"{days} sunny day(s) in {city}"

Build with ``python -m mcp_wit build app.py -o router.wasm`` (componentize-py
does the compiling) and serve the ``.wasm`` with ``mcp-wit serve``.
'''

from ._content import Audio, Content, EmbeddedResource, Image, Message, Text, ToolResult
from ._context import Context, Elicitation, Identity, LogLevel, Question, Root
from ._errors import ClientError, McpError, PromptError, ResourceError, ToolError
from ._apps import APP_MIME_TYPE, APPS_EXTENSION, bundled
from ._router import Router
from ._types import Field

__version__ = "0.1.0"

__all__ = [
    "APP_MIME_TYPE",
    "APPS_EXTENSION",
    "Audio",
    "ClientError",
    "Content",
    "Context",
    "Elicitation",
    "EmbeddedResource",
    "Field",
    "Identity",
    "Image",
    "LogLevel",
    "McpError",
    "Message",
    "PromptError",
    "Question",
    "ResourceError",
    "Root",
    "Router",
    "Text",
    "ToolError",
    "ToolResult",
    "bundled",
]
