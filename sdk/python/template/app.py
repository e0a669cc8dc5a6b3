"""my-router: an MCP server written in Python, served by mcp-wit as a
WebAssembly component.

Build: mcp-wit build            (or: python -m mcp_wit build app.py -o build/my-router.wasm)
Serve: mcp-wit serve build/my-router.wasm

Each decorated function is one tool, resource or prompt: its parameters
(with their type hints) are the input schema, its docstring the
description. Rename things, replace the bodies, keep the shape.
"""

from dataclasses import dataclass
from typing import Annotated

from mcp_wit import Context, Field, Message, Router

router = Router("my-router", instructions="Reverses text and greets people.")


@dataclass
class Reversed:
    text: str
    length: int


@router.tool(read_only=True)
def reverse(text: Annotated[str, Field("The text to reverse", min_length=1)]) -> Reversed:
    """Reverses a string."""
    return Reversed(text[::-1], len(text))


@dataclass
class Name:
    name: Annotated[str, "What should I call you?"]


@router.tool()
def greet(ctx: Context) -> str:
    """Asks the user their name (elicitation), reporting progress and a log line on the way."""
    ctx.progress(0, 2, "asking")
    ctx.info("greeting someone")
    answer = ctx.elicit("What is your name?", Name)
    ctx.progress(2, 2, "done")
    if answer.action != "accept":
        return "Hello, whoever you are!"
    return f"Hello, {answer.content.name}!"


@router.resource("template://readme", mime_type="text/markdown")
def readme() -> str:
    """What this router offers."""
    return "# my-router\n\nTools: `reverse`, `greet`. Prompt: `welcome`.\n"


@router.prompt()
def welcome(name: Annotated[str, "Who to welcome"] = "friend") -> list[Message]:
    """A welcome message for a new user."""
    return [Message.user(f"Write a one-line welcome for {name}.")]
