"""What a router shows beside its lists that the contract has no field for:
``_meta`` (an MCP App's ``ui`` on its tool and on its view) and icons, given
to the host through ``mcp-wit:extension/presentation``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable


def bundled(path: str) -> str:
    """The text of file ``path``, relative to the module that asks, read as
    that module is imported: at build time, so the file (an app's HTML view)
    is built into the component."""
    asking = sys._getframe(1).f_globals.get("__file__")
    base = Path(asking).parent if asking else Path.cwd()
    return (base / path).read_text(encoding="utf-8")


APP_MIME_TYPE = "text/html;profile=mcp-app"
"""MCP Apps' MIME type for a view."""

APPS_EXTENSION = "io.modelcontextprotocol/ui"
"""The extension id a client that hosts MCP Apps declares."""


class Presenting:
    """The :class:`~mcp_wit.Router`'s MCP Apps and decorations."""

    # The Router's: its decorations by subject, and `resource` (which
    # `app_view` registers the view with).
    _decorations: dict[tuple[str, str | None], list[Any]]
    resource: Callable[..., Callable[[Callable[..., Any]], Callable[..., Any]]]

    def app_view(
        self,
        uri: str,
        html: str | Callable[[], str],
        *,
        name: str | None = None,
        description: str | None = None,
        csp: dict[str, list[str]] | None = None,
        permissions: dict[str, dict[str, Any]] | None = None,
        domain: str | None = None,
        prefers_border: bool | None = None,
        icons: list[dict[str, Any]] | None = None,
    ) -> None:
        """Serves an MCP App view: the ``ui://`` resource ``uri`` of
        ``text/html;profile=mcp-app`` whose contents are ``html`` (text, or a
        function that returns it: ``mcp_wit.bundled("view.html")`` reads a
        file built into the component), with its ``ui`` settings (``csp``:
        ``connectDomains``, ``resourceDomains``…; ``permissions``; ``domain``;
        ``prefers_border``) on its listing and its contents."""
        if not uri.startswith("ui://"):
            raise ValueError(f"an app view's URI starts with ui://, not {uri!r}")
        read = html if callable(html) else (lambda: html)
        self.resource(uri, name=name or uri.rsplit("/", 1)[-1], description=description, mime_type=APP_MIME_TYPE)(
            lambda: read()
        )
        ui = {
            key: value
            for key, value in (
                ("csp", csp),
                ("permissions", permissions),
                ("domain", domain),
                ("prefersBorder", prefers_border),
            )
            if value is not None
        }
        self.decorate("resource", uri, meta={"ui": ui} if ui else None, icons=icons)

    def decorate(
        self,
        subject: str,
        name: str | None = None,
        *,
        meta: dict[str, Any] | None = None,
        icons: list[dict[str, Any]] | None = None,
    ) -> None:
        """Adds ``_meta`` entries and icons to what the router lists:
        ``subject`` is ``"server"`` (no name), ``"tool"``, ``"prompt"``,
        ``"resource"`` (by URI) or ``"resource-template"``."""
        if subject not in ("server", "tool", "prompt", "resource", "resource-template"):
            raise ValueError(f"no subject {subject!r}")
        entry = self._decorations.setdefault((subject, name), [None, None])
        if meta is not None:
            entry[0] = {**(entry[0] or {}), **meta}
        if icons is not None:
            entry[1] = icons

    def decorations(self) -> list[tuple[str, str | None, dict[str, Any] | None, list[dict[str, Any]] | None]]:
        """What :meth:`decorate` added: ``(subject, name, meta, icons)``."""
        return [(subject, name, meta, icons) for (subject, name), (meta, icons) in self._decorations.items()]
