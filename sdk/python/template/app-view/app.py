"""my-router: an MCP App written in Python, served by mcp-wit as a
WebAssembly component: a tool that comes with an HTML view, which a client
that hosts MCP Apps (Claude, ChatGPT, VS Code, Goose, the MCP Inspector…)
renders in a sandboxed frame.

Build: mcp-wit build            (or: python -m mcp_wit build app.py -o build/my-router.wasm)
Serve: mcp-wit serve build/my-router.wasm --http 127.0.0.1:8080

- ``show_sum`` adds two numbers. Its ``app`` names the view; a client that
  hosts apps shows the view with the result, any other gets a sentence.
- ``add`` is the tool the view calls back through its host (``app_only``:
  hosts keep it from the model).
- ``ui://my-router/sum.html`` is the view: ``view.html``, read as the app is
  built and so built into the component.
"""

import json

from mcp_wit import Context, Router, bundled

router = Router(
    "my-router",
    instructions="Adds numbers and shows the sum in a view.",
)
router.decorate(
    "server",
    icons=[{"src": "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=", "mimeType": "image/svg+xml"}],
)

VIEW = "ui://my-router/sum.html"


@router.tool(app=VIEW)
def show_sum(a: float, b: float, ctx: Context) -> str:
    """Adds two numbers and shows the sum in a view."""
    total = a + b
    if ctx.hosts_apps():
        # The view reads the sum from the result the host hands it.
        return json.dumps({"sum": total})
    return f"{a:g} + {b:g} = {total:g}"


@router.tool(app=VIEW, app_only=True)
def add(a: float, b: float) -> str:
    """Adds two numbers (for the view)."""
    return json.dumps({"sum": a + b})


router.app_view(VIEW, bundled("view.html"), description="The sum's view", prefers_border=True)
