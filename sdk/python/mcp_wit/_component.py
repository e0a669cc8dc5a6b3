"""The component's exports: the contract's interfaces written once over a
:class:`~mcp_wit.Router`, in the bindings componentize-py generates
(``wit_world``) for the world ``mcp-wit:extension/router``.

componentize-py looks for classes named after the exported interfaces in
the app module; the build's entry module gets them with
``Router, Extension, Presentation = exports(app)``.

Every export catches everything: an exception escaping to componentize-py
would trap, which fails the request with wasm internals and may cost the
instance its state. The client gets the exception's message only; the
traceback goes to the guest's stderr, which the host keeps to itself.
"""

from __future__ import annotations

import json
import sys
import traceback
from types import ModuleType
from typing import Any

from . import _context
from ._context import Identity, Root
from ._errors import ClientError, McpError, error_kind
from ._router import Router

# Imported only inside a component build, where componentize-py generated them.
from componentize_py_types import Err, Ok  # type: ignore[import-not-found]
from wit_world import exports as _exports  # type: ignore[import-not-found]
from wit_world.exports import extension as ext  # type: ignore[import-not-found]
from wit_world.exports import presentation as pres  # type: ignore[import-not-found]
from wit_world.exports import router as wit  # type: ignore[import-not-found]
from wit_world.imports import caller as _caller  # type: ignore[import-not-found]
from wit_world.imports import client as _client  # type: ignore[import-not-found]


def find_router(module: ModuleType, attribute: str | None = None) -> Router:
    """The router the module defines: ``attribute``, or its one ``Router``."""
    if attribute is not None:
        router = getattr(module, attribute, None)
        if not isinstance(router, Router):
            raise TypeError(f"{module.__name__}.{attribute} is not an mcp_wit.Router")
        return router
    routers = [value for value in vars(module).values() if isinstance(value, Router)]
    if len(routers) != 1:
        found = "no" if not routers else f"{len(routers)}"
        raise TypeError(f"{module.__name__} defines {found} mcp_wit.Router: name the one to serve")
    return routers[0]


def _report(error: BaseException) -> None:
    """An unexpected exception's traceback, for whoever reads the host's log."""
    if not isinstance(error, (McpError, ClientError)):
        traceback.print_exception(error, file=sys.stderr)
        sys.stderr.flush()


def _client_error(error: Any) -> ClientError:
    value = error.value
    if isinstance(value, _client.ClientError_Unsupported):
        return ClientError("unsupported", value.value)
    if isinstance(value, _client.ClientError_Rejected):
        rpc = value.value
        return ClientError("rejected", rpc.message, rpc.code, rpc.data)
    if isinstance(value, _client.ClientError_InvalidParams):
        return ClientError("invalid-params", value.value)
    if isinstance(value, _client.ClientError_InvalidResponse):
        return ClientError("invalid-response", value.value)
    return ClientError("unavailable", str(getattr(value, "value", value)))


class _Host:
    """``mcp-wit:extension/client`` and ``caller``, as Context uses them."""

    def progress(self, progress: float, total: float | None, message: str | None) -> None:
        _client.notify_progress(progress, total, message)

    def log(self, level: str, logger: str | None, data: str) -> None:
        _client.notify_logging_message(_client.LogLevel[level.upper()], logger, data)

    def create_message(self, params: str) -> str:
        try:
            return _client.create_message(params)
        except Err as error:
            raise _client_error(error) from None

    def create_elicitation(self, params: str) -> str:
        try:
            return _client.create_elicitation(params)
        except Err as error:
            raise _client_error(error) from None

    def list_roots(self) -> list[Root]:
        try:
            return [Root(r.uri, r.name) for r in _client.list_roots()]
        except Err as error:
            raise _client_error(error) from None

    def ask(self, questions: list[Any]) -> list[str | ClientError]:
        kinds = {k.name.lower().replace("_", "-"): k for k in _client.QuestionKind}
        asked = [
            _client.Question(q.key, kinds[q.kind], None if q.params is None else json.dumps(q.params))
            for q in questions
        ]
        return [a.value if isinstance(a, Ok) else _client_error(a) for a in _client.ask(asked)]

    def list_changed(self, kind: str) -> None:
        _client.notify_list_changed(_client.ListKind[kind.upper()])

    def resource_updated(self, uri: str) -> None:
        _client.notify_resource_updated(uri)

    def url_elicitation_completed(self, elicitation_id: str) -> None:
        _client.notify_url_elicitation_completed(elicitation_id)

    def caller(self) -> Identity | None:
        identity = _caller.current()
        if identity is None:
            return None
        return Identity(identity.issuer, identity.subject, identity.client_id, list(identity.scopes))

    def extension_settings(self, id: str) -> str | None:
        return _client.extension_settings(id)

    def run_as_task(self) -> bool:
        return _client.run_as_task()


def _value(data: Any) -> Any:
    return wit.Value(json.dumps(data, ensure_ascii=False))


def _text(text: str) -> Any:
    return wit.TextContent(text, None)


def _contents(c: dict[str, Any]) -> Any:
    if "blob" in c:
        return wit.ResourceContents_Blob(wit.BlobResourceContents(c["uri"], c.get("mimeType"), c["blob"]))
    return wit.ResourceContents_Text(wit.TextResourceContents(c["uri"], c.get("mimeType"), c.get("text", "")))


def _content(c: dict[str, Any]) -> Any:
    kind = c["type"]
    if kind == "text":
        return wit.Content_Text(_text(c["text"]))
    if kind == "image":
        return wit.Content_Image(wit.ImageContent(c["data"], c["mimeType"], None))
    if kind == "audio":
        return wit.Content_Audio(wit.AudioContent(c["data"], c["mimeType"], None))
    return wit.Content_Embedded(wit.EmbeddedResource(_contents(c["resource"]), None))


def _prompt_content(c: dict[str, Any]) -> Any:
    kind = c["type"]
    if kind == "text":
        return wit.PromptMessageContent_Text(_text(c["text"]))
    if kind == "image":
        return wit.PromptMessageContent_Image(wit.ImageContent(c["data"], c["mimeType"], None))
    return wit.PromptMessageContent_McpResource(wit.EmbeddedResource(_contents(c["resource"]), None))


_TOOL_ERRORS = {
    "invalid-parameters": wit.ToolError_InvalidParameters,
    "execution-error": wit.ToolError_ExecutionError,
    "schema-error": wit.ToolError_SchemaError,
    "not-found": wit.ToolError_NotFound,
}
_RESOURCE_ERRORS = {"execution-error": wit.ResourceError_ExecutionError, "not-found": wit.ResourceError_NotFound}
_PROMPT_ERRORS = {
    "invalid-parameters": wit.PromptError_InvalidParameters,
    "internal-error": wit.PromptError_InternalError,
    "not-found": wit.PromptError_NotFound,
}
_COMPLETION_ERRORS = {
    "invalid-parameters": wit.CompletionError_InvalidParameters,
    "execution-error": wit.CompletionError_ExecutionError,
    "schema-error": wit.CompletionError_SchemaError,
    "not-found": wit.CompletionError_NotFound,
}


def _err(error: BaseException, cases: dict[str, Any], fallback: str) -> Err:
    _report(error)
    kind, message = error_kind(error, tuple(cases), fallback)
    return Err(cases[kind](message))


def _quietly(default: Any, fn: Any, *args: Any) -> Any:
    """Runs a call the contract gives no error for; ``default`` if it fails."""
    try:
        return fn(*args)
    except BaseException as error:  # noqa: BLE001 - the boundary: nothing may trap
        _report(error)
        return default


_SUBJECTS = {
    "server": lambda _: pres.Subject_Server(),
    "tool": pres.Subject_Tool,
    "prompt": pres.Subject_Prompt,
    "resource": pres.Subject_Resource,
    "resource-template": pres.Subject_ResourceTemplate,
}


def exports(module: ModuleType, attribute: str | None = None) -> tuple[type, type, type]:
    """The classes componentize-py serves: ``Router`` (the contract),
    ``Extension`` (mcp-wit's extension) and ``Presentation`` (its `_meta` and
    icons), over the module's router."""
    router = find_router(module, attribute)
    _context.host = _Host()

    def capabilities() -> Any:
        caps = router.capabilities()
        tools, resources, prompts = caps["tools"], caps["resources"], caps["prompts"]
        return wit.ServerCapabilities(
            wit.PromptsCapability(prompts["listChanged"]) if prompts else None,
            wit.ResourcesCapability(resources["subscribe"], resources["listChanged"]) if resources else None,
            wit.ToolsCapability(tools["listChanged"]) if tools else None,
            wit.CompletionsCapability(True) if caps["completions"] else None,
        )

    def list_tools() -> list[Any]:
        tools = []
        for t in router.list_tools():
            a = t["annotations"]
            annotations = (
                wit.ToolAnnotations(a.get("read_only"), a.get("destructive"), a.get("streaming"), a.get("experimental"))
                if a
                else None
            )
            output = _value(t["outputSchema"]) if t["outputSchema"] is not None else None
            tools.append(wit.Tool(t["name"], t["description"], _value(t["inputSchema"]), output, annotations, None))
        return tools

    def get_prompt(name: str, arguments: dict[str, str]) -> Any:
        try:
            result = router.get_prompt(name, arguments)
            messages = [
                wit.PromptMessage(
                    wit.PromptMessageRole.USER if m["role"] == "user" else wit.PromptMessageRole.ASSISTANT,
                    _prompt_content(m["content"]),
                )
                for m in result["messages"]
            ]
            return wit.GetPromptResult(result["description"], messages)
        except BaseException as error:  # noqa: BLE001 - the boundary: nothing may trap
            raise _err(error, _PROMPT_ERRORS, "internal-error") from None

    def resource_call(fn: Any, uri: str) -> Any:
        try:
            return fn(uri)
        except BaseException as error:  # noqa: BLE001 - the boundary: nothing may trap
            raise _err(error, _RESOURCE_ERRORS, "execution-error") from None

    class RouterExport(_exports.Router):
        def name(self) -> str:
            return router.name

        def instructions(self) -> str:
            return router.instructions

        def capabilities(self) -> Any:
            return _quietly(wit.ServerCapabilities(None, None, None, None), capabilities)

        def list_tools(self) -> list[Any]:
            return _quietly([], list_tools)

        def call_tool(self, tool_name: str, arguments: Any) -> Any:
            try:
                result = router.call_tool(tool_name, arguments.json)
                content = [_content(c) for c in result["content"]]
                return wit.CallToolResult(content, None, None, True if result.get("isError") else None)
            except BaseException as error:  # noqa: BLE001 - the boundary: nothing may trap
                raise _err(error, _TOOL_ERRORS, "execution-error") from None

        def list_resources(self) -> list[Any]:
            def listed() -> list[Any]:
                return [
                    wit.McpResource(r["uri"], r["name"], r["description"], r["mimeType"], None)
                    for r in router.list_resources()
                ]

            return _quietly([], listed)

        def read_resource(self, uri: str) -> Any:
            return resource_call(lambda u: wit.ReadResourceResult([_contents(c) for c in router.read_resource(u)]), uri)

        def list_prompts(self) -> list[Any]:
            def listed() -> list[Any]:
                return [
                    wit.Prompt(
                        p["name"],
                        p["description"],
                        [wit.PromptArgument(a["name"], a["description"], a["required"]) for a in p["arguments"]]
                        if p["arguments"]
                        else None,
                    )
                    for p in router.list_prompts()
                ]

            return _quietly([], listed)

        def get_prompt(self, prompt_name: str) -> Any:
            return get_prompt(prompt_name, {})

        def complete(self, request: Any) -> Any:
            try:
                values = router.complete(json.loads(request.input.json or "{}"))
                return wit.CompletionResponse([wit.Content_Text(_text(v)) for v in values], None, None)
            except BaseException as error:  # noqa: BLE001 - the boundary: nothing may trap
                raise _err(error, _COMPLETION_ERRORS, "execution-error") from None

    class ExtensionExport(_exports.Extension):
        def list_resource_templates(self) -> list[Any]:
            def listed() -> list[Any]:
                return [
                    ext.ResourceTemplate(t["uriTemplate"], t["name"], t["title"], t["description"], t["mimeType"], None)
                    for t in router.list_resource_templates()
                ]

            return _quietly([], listed)

        def get_prompt_with_arguments(self, prompt_name: str, arguments: list[tuple[str, str]]) -> Any:
            return get_prompt(prompt_name, dict(arguments))

        def subscribe(self, uri: str) -> None:
            resource_call(router.subscribe, uri)

        def unsubscribe(self, uri: str) -> None:
            resource_call(router.subscribe, uri)

        def on_roots_list_changed(self) -> None:
            _quietly(None, router.roots_changed)

    class PresentationExport(_exports.Presentation):
        def decorations(self) -> list[Any]:
            def listed() -> list[Any]:
                return [
                    pres.Decoration(
                        _SUBJECTS[subject](name),
                        None if meta is None else json.dumps(meta, ensure_ascii=False),
                        None if icons is None else json.dumps(icons, ensure_ascii=False),
                    )
                    for subject, name, meta, icons in router.decorations()
                ]

            return _quietly([], listed)

    return RouterExport, ExtensionExport, PresentationExport
