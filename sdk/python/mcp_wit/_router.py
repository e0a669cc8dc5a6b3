"""Router: tools, resources, templates and prompts as decorated functions.

Everything here is plain Python speaking MCP's JSON shapes (dicts), so a
router can be exercised natively; ``_component`` turns those shapes into the
contract's records inside the component.
"""

from __future__ import annotations

import enum
import inspect
import json
import re
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Callable, Literal
from urllib.parse import unquote

from ._apps import Presenting
from ._content import Audio, EmbeddedResource, Image, Message, Text, ToolResult
from ._context import Context
from ._errors import PromptError, ResourceError, ToolError
from ._types import DecodeError, convert, convert_text, is_record, record_schema, schema_of, to_json, unwrap_annotated

_CONTENT = (Text, Image, Audio, EmbeddedResource)
_EMPTY = inspect.Parameter.empty


@dataclass
class _Param:
    name: str
    hint: Any
    default: Any
    description: str | None

    @property
    def required(self) -> bool:
        return self.default is _EMPTY


@dataclass
class _Signature:
    """A handler's parameters: its arguments, and where the Context goes."""

    params: list[_Param]
    context: str | None
    returns: Any

    @classmethod
    def of(cls, fn: Callable[..., Any]) -> "_Signature":
        if inspect.iscoroutinefunction(fn):
            raise TypeError(f"{fn.__name__}: async handlers are not supported (the component runs one call at a time)")
        hints = typing.get_type_hints(fn, include_extras=True)
        params = []
        context = None
        for p in inspect.signature(fn).parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError(f"{fn.__name__}: *args and **kwargs cannot be described as arguments")
            hint = hints.get(p.name, Any)
            if unwrap_annotated(hint)[0] is Context:
                context = p.name
                continue
            _, extra = unwrap_annotated(hint)
            params.append(_Param(p.name, hint, p.default, extra.description if extra else None))
        return cls(params, context, hints.get("return", Any))

    def input_schema(self) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        required = []
        for p in self.params:
            prop = schema_of(p.hint)
            if p.required:
                required.append(p.name)
            else:
                default = _json_or_none(p.default)
                if default is not None:
                    prop["default"] = default
            properties[p.name] = prop
        schema: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        return schema

    def call(self, fn: Callable[..., Any], values: dict[str, Any], handler: str) -> Any:
        kwargs = dict(values)
        if self.context:
            kwargs[self.context] = Context(handler)
        return fn(**kwargs)


def _json_or_none(value: Any) -> Any:
    try:
        return json.loads(json.dumps(to_json(value)))
    except (TypeError, ValueError):
        return None


def _description(fn: Callable[..., Any], given: str | None) -> str | None:
    if given is not None:
        return given
    doc = inspect.getdoc(fn)
    return doc.strip() if doc else None


@dataclass
class _Tool:
    name: str
    fn: Callable[..., Any]
    signature: _Signature
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any] | None
    annotations: dict[str, bool]
    # A list result travels as `{"result": [...]}` (see `_wrapped`).
    wrapped: bool = False


@dataclass
class _Resource:
    uri: str
    name: str
    fn: Callable[..., Any]
    signature: _Signature
    title: str | None
    description: str | None
    mime_type: str | None
    pattern: re.Pattern[str] | None = None
    variables: list[str] = field(default_factory=list)


@dataclass
class _Prompt:
    name: str
    fn: Callable[..., Any]
    signature: _Signature
    description: str | None


@dataclass
class _Completion:
    kind: str
    target: str
    argument: str
    fn: Callable[..., Any]
    signature: _Signature


_VARIABLE = re.compile(r"\{(\+?)([A-Za-z0-9_]+)\}")


def _template_pattern(template: str) -> tuple[re.Pattern[str], list[str]]:
    """A URI template (``{name}``: a non-empty run without ``/``; ``{+name}``:
    any non-empty run) as a regular expression."""
    parts = []
    names = []
    last = 0
    for match in _VARIABLE.finditer(template):
        parts.append(re.escape(template[last : match.start()]))
        reserved, name = match.groups()
        parts.append(f"(?P<{name}>.+?)" if reserved else f"(?P<{name}>[^/]+?)")
        names.append(name)
        last = match.end()
    parts.append(re.escape(template[last:]))
    if any("{" in literal or "}" in literal for literal in _VARIABLE.split(template)[::3]):
        raise ValueError(f"unsupported URI template {template!r}: only {{name}} and {{+name}} are")
    return re.compile("".join(parts) + r"\Z"), names


def _enumerable(hint: Any) -> list[str] | None:
    """The string values a prompt argument can take, if it says."""
    bare, _ = unwrap_annotated(hint)
    if typing.get_origin(bare) is Literal:
        return [str(v) for v in typing.get_args(bare)]
    if isinstance(bare, type) and issubclass(bare, enum.Enum):
        return [str(m.value) for m in bare]
    return None


class Router(Presenting):
    """An MCP server: register tools, resources, resource templates and
    prompts with its decorators. The component serves the one ``Router`` of
    the app's module."""

    def __init__(
        self,
        name: str,
        instructions: str = "",
        *,
        tools_list_changed: bool = False,
        prompts_list_changed: bool = False,
        resources_list_changed: bool = False,
        resources_subscribe: bool = False,
    ) -> None:
        self.name = name
        self.instructions = instructions
        self.tools_list_changed = tools_list_changed
        self.prompts_list_changed = prompts_list_changed
        self.resources_list_changed = resources_list_changed
        self.resources_subscribe = resources_subscribe
        self._tools: dict[str, _Tool] = {}
        self._resources: dict[str, _Resource] = {}
        self._templates: list[_Resource] = []
        self._prompts: dict[str, _Prompt] = {}
        self._completions: list[_Completion] = []
        self._roots_changed: list[Callable[..., Any]] = []
        # (kind, name) -> [meta, icons]: what the presentation export gives.
        self._decorations: dict[tuple[str, str | None], list[Any]] = {}

    # Registration

    def tool(
        self,
        name: str | None = None,
        *,
        description: str | None = None,
        title: str | None = None,
        read_only: bool | None = None,
        destructive: bool | None = None,
        streaming: bool | None = None,
        experimental: bool | None = None,
        input_schema: dict[str, Any] | None = None,
        output_schema: dict[str, Any] | None = None,
        app: str | None = None,
        app_only: bool = False,
        icons: list[dict[str, Any]] | None = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Registers a tool: its parameters (type hints, ``Annotated``
        descriptions) give the input schema, its docstring the description;
        a dataclass or TypedDict return type gives an output schema and
        structured content. ``title`` goes into the input schema's ``title``
        (the router contract has no tool title).

        ``app`` names the MCP App view the tool opens (a ``ui://`` URI
        registered with :meth:`app_view`); ``app_only`` keeps the tool for the
        view (``visibility: ["app"]``: hosts hide it from the model).
        ``icons`` are MCP ``Icon`` objects (``src``, ``mimeType``, ``sizes``)."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            signature = _Signature.of(fn)
            tool_name = name or fn.__name__
            schema = input_schema if input_schema is not None else signature.input_schema()
            if title is not None:
                schema = {"title": title, **schema}
            returns, _ = unwrap_annotated(signature.returns)
            out = output_schema
            # The SDK's own content types are content, not structured output.
            if out is None and is_record(returns) and not issubclass(returns, _CONTENT + (ToolResult,)):
                out = record_schema(returns)
            wrapped = out is None and _wrapped(returns)
            if wrapped:
                # Structured content is an object: a list is given under
                # `result`, as FastMCP gives it.
                out = {"type": "object", "properties": {"result": schema_of(returns)}, "required": ["result"]}
            annotations = {
                key: value
                for key, value in (
                    ("read_only", read_only),
                    ("destructive", destructive),
                    ("streaming", streaming),
                    ("experimental", experimental),
                )
                if value is not None
            }
            self._tools[tool_name] = _Tool(
                tool_name, fn, signature, _description(fn, description) or "", schema, out, annotations, wrapped
            )
            if app is not None:
                ui: dict[str, Any] = {"resourceUri": app}
                if app_only:
                    ui["visibility"] = ["app"]
                self.decorate("tool", tool_name, meta={"ui": ui})
            if icons is not None:
                self.decorate("tool", tool_name, icons=icons)
            return fn

        return register

    def resource(
        self,
        uri: str,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        mime_type: str | None = None,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Registers a resource; a URI with ``{variables}`` is a template,
        whose variables are the function's parameters (converted to their
        type hints). Return ``str`` (text), ``bytes`` (a blob), an
        :class:`EmbeddedResource` or a list of them, or any JSON value."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            signature = _Signature.of(fn)
            entry = _Resource(uri, name or fn.__name__, fn, signature, title, _description(fn, description), mime_type)
            if "{" in uri:
                entry.pattern, entry.variables = _template_pattern(uri)
                for p in signature.params:
                    if p.name not in entry.variables and p.required:
                        raise TypeError(f"{fn.__name__}: parameter `{p.name}` is not a variable of {uri}")
                self._templates.append(entry)
            else:
                if signature.params:
                    raise TypeError(f"{fn.__name__}: a resource without {{variables}} takes no arguments")
                self._resources[uri] = entry
            return fn

        return register

    def prompt(
        self, name: str | None = None, *, description: str | None = None, icons: list[dict[str, Any]] | None = None
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Registers a prompt: its parameters are the prompt's arguments
        (strings from the client, converted to the type hints); it returns a
        string (one user message), a :class:`Message`, or a list of them."""

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            prompt_name = name or fn.__name__
            self._prompts[prompt_name] = _Prompt(prompt_name, fn, _Signature.of(fn), _description(fn, description))
            if icons is not None:
                self.decorate("prompt", prompt_name, icons=icons)
            return fn

        return register

    def completion(
        self, *, argument: str, prompt: str | None = None, resource: str | None = None
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Registers the values offered for a prompt's argument (or a
        resource template's variable): the function gets what the user typed
        so far (``value: str``) and returns the candidates."""
        if (prompt is None) == (resource is None):
            raise TypeError("completion: give exactly one of prompt= or resource=")

        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            kind, target = ("prompt", prompt) if prompt is not None else ("resource", resource)
            self._completions.append(_Completion(kind, str(target), argument, fn, _Signature.of(fn)))
            return fn

        return register

    def on_roots_changed(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Registers a function called when the client's roots change."""
        _Signature.of(fn)
        self._roots_changed.append(fn)
        return fn

    # Serving (MCP JSON shapes)

    def capabilities(self) -> dict[str, Any]:
        completions = bool(self._completions) or any(
            _enumerable(p.hint) for prompt in self._prompts.values() for p in prompt.signature.params
        )
        return {
            "tools": {"listChanged": self.tools_list_changed} if self._tools or self.tools_list_changed else None,
            "resources": {"subscribe": self.resources_subscribe, "listChanged": self.resources_list_changed}
            if self._resources or self._templates or self.resources_list_changed
            else None,
            "prompts": {"listChanged": self.prompts_list_changed}
            if self._prompts or self.prompts_list_changed
            else None,
            "completions": completions,
        }

    def list_tools(self) -> list[dict[str, Any]]:
        return [
            {
                "name": t.name,
                "description": t.description,
                "inputSchema": t.input_schema,
                "outputSchema": t.output_schema,
                "annotations": t.annotations or None,
            }
            for t in self._tools.values()
        ]

    def call_tool(self, name: str, arguments: str | dict[str, Any] | None) -> dict[str, Any]:
        """``tools/call``: the result's MCP JSON, or a :class:`ToolError`."""
        tool = self._tools.get(name)
        if tool is None:
            raise ToolError.not_found(name)
        if isinstance(arguments, str):
            text = arguments.strip()
            try:
                arguments = json.loads(text) if text else None
            except ValueError as error:
                raise ToolError.invalid_parameters(f"the arguments are not JSON: {error}") from None
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise ToolError.invalid_parameters("the arguments must be a JSON object")
        values = {}
        try:
            for p in tool.signature.params:
                if p.name in arguments:
                    values[p.name] = convert(arguments[p.name], p.hint, p.name)
                elif p.required:
                    raise DecodeError(p.name, "missing")
        except DecodeError as error:
            raise ToolError.invalid_parameters(str(error)) from None
        result = tool.signature.call(tool.fn, values, tool.name)
        if tool.wrapped and not isinstance(result, ToolResult):
            result = {"result": to_json(result)}
        return _tool_result(result, tool.output_schema is not None)

    def list_resources(self) -> list[dict[str, Any]]:
        return [
            {
                "uri": r.uri,
                "name": r.name,
                "description": r.description,
                "mimeType": r.mime_type or _default_mime(r.signature.returns),
            }
            for r in self._resources.values()
        ]

    def list_resource_templates(self) -> list[dict[str, Any]]:
        return [
            {
                "uriTemplate": r.uri,
                "name": r.name,
                "title": r.title,
                "description": r.description,
                "mimeType": r.mime_type,
            }
            for r in self._templates
        ]

    def _find_resource(self, uri: str) -> tuple[_Resource, dict[str, Any]] | None:
        static = self._resources.get(uri)
        if static is not None:
            return static, {}
        for template in self._templates:
            assert template.pattern is not None
            match = template.pattern.match(uri)
            if match is None:
                continue
            try:
                raw = {name: unquote(value, errors="strict") for name, value in match.groupdict().items()}
                hints = {p.name: p for p in template.signature.params}
                values = {
                    name: convert_text(value, hints[name].hint, name) for name, value in raw.items() if name in hints
                }
            except (DecodeError, UnicodeDecodeError):
                continue
            return template, values
        return None

    def read_resource(self, uri: str) -> list[dict[str, Any]]:
        """``resources/read``: the contents' MCP JSON, or a :class:`ResourceError`."""
        found = self._find_resource(uri)
        if found is None:
            raise ResourceError.not_found(uri)
        resource, values = found
        result = resource.signature.call(resource.fn, values, resource.name)
        return _read_result(result, uri, resource.mime_type)

    def subscribe(self, uri: str) -> None:
        if self._find_resource(uri) is None:
            raise ResourceError.not_found(uri)

    def list_prompts(self) -> list[dict[str, Any]]:
        return [
            {
                "name": p.name,
                "description": p.description,
                "arguments": [
                    {"name": a.name, "description": a.description, "required": a.required}
                    for a in p.signature.params
                ]
                or None,
            }
            for p in self._prompts.values()
        ]

    def get_prompt(self, name: str, arguments: dict[str, str]) -> dict[str, Any]:
        """``prompts/get``: the result's MCP JSON, or a :class:`PromptError`."""
        prompt = self._prompts.get(name)
        if prompt is None:
            raise PromptError.not_found(name)
        values = {}
        try:
            for p in prompt.signature.params:
                if p.name in arguments:
                    values[p.name] = convert_text(arguments[p.name], p.hint, p.name)
                elif p.required:
                    raise DecodeError(p.name, "missing")
        except DecodeError as error:
            raise PromptError.invalid_parameters(str(error)) from None
        result = prompt.signature.call(prompt.fn, values, prompt.name)
        return {"description": prompt.description, "messages": _prompt_messages(result)}

    def complete(self, params: dict[str, Any]) -> list[str]:
        """``completion/complete`` (MCP's params): the values offered."""
        ref = params.get("ref") or {}
        argument = params.get("argument") or {}
        kind, target = ("prompt", ref.get("name")) if ref.get("type") == "ref/prompt" else ("resource", ref.get("uri"))
        name, value = argument.get("name"), str(argument.get("value") or "")
        for completion in self._completions:
            if (completion.kind, completion.target, completion.argument) == (kind, target, name):
                values = completion.signature.call(completion.fn, {"value": value}, completion.fn.__name__)
                return [str(v) for v in values]
        prompt = self._prompts.get(str(target)) if kind == "prompt" else None
        if prompt is not None:
            for p in prompt.signature.params:
                options = _enumerable(p.hint)
                if p.name == name and options:
                    return [o for o in options if o.startswith(value)]
        return []

    def roots_changed(self) -> None:
        for fn in self._roots_changed:
            _Signature.of(fn).call(fn, {}, fn.__name__)


def _default_mime(returns: Any) -> str:
    bare, _ = unwrap_annotated(returns)
    if bare is bytes:
        return "application/octet-stream"
    if bare is str or bare is Any:
        return "text/plain"
    return "application/json"


def _wrapped(returns: Any) -> bool:
    """Whether a tool returning ``returns`` gives its list as structured
    ``{"result": [...]}``: a list, tuple or set of JSON values or records,
    not of content (a list of content is the result's content)."""
    if typing.get_origin(returns) not in (list, tuple, set, frozenset):
        return False
    items = [item for item in typing.get_args(returns) if item is not Ellipsis]
    if not items:
        return False
    for item in items:
        item, _ = unwrap_annotated(item)
        members = typing.get_args(item) if typing.get_origin(item) in (typing.Union, types.UnionType) else (item,)
        for member in members:
            if member is Any or (isinstance(member, type) and issubclass(member, _CONTENT + (ToolResult, Message))):
                return False
    return True


def _tool_result(result: Any, structured: bool) -> dict[str, Any]:
    if isinstance(result, ToolResult):
        return result.to_mcp()
    if result is None:
        return {"content": []}
    if isinstance(result, _CONTENT):
        return {"content": [result.to_mcp()]}
    if isinstance(result, list) and result and all(isinstance(c, _CONTENT) for c in result):
        return {"content": [c.to_mcp() for c in result]}
    if isinstance(result, str) and not structured:
        return {"content": [Text(result).to_mcp()]}
    # Structured content travels as the JSON text of the one text item: the
    # host reads it as `structuredContent` when the tool has an output schema.
    return {"content": [Text(json.dumps(to_json(result), ensure_ascii=False, separators=(",", ":"))).to_mcp()]}


def _read_result(result: Any, uri: str, mime_type: str | None) -> list[dict[str, Any]]:
    if isinstance(result, EmbeddedResource):
        result = [result]
    if isinstance(result, list) and result and all(isinstance(r, EmbeddedResource) for r in result):
        return [r.contents() for r in result]
    if isinstance(result, str):
        return [{"uri": uri, "mimeType": mime_type or "text/plain", "text": result}]
    if isinstance(result, (bytes, bytearray)):
        return [EmbeddedResource(uri, blob=bytes(result), mime_type=mime_type or "application/octet-stream").contents()]
    text = json.dumps(to_json(result), ensure_ascii=False, separators=(",", ":"))
    return [{"uri": uri, "mimeType": mime_type or "application/json", "text": text}]


def _prompt_messages(result: Any) -> list[dict[str, Any]]:
    items = result if isinstance(result, list) else [result]
    messages = []
    for item in items:
        if isinstance(item, Message):
            messages.append(item.to_mcp())
        elif isinstance(item, (str, Text, Image, EmbeddedResource)):
            messages.append(Message.user(item).to_mcp())
        else:
            raise TypeError(f"a prompt returns strings and Messages, not {type(item).__name__}")
    return messages
