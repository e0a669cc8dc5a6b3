"""Context: the client that made the request being served.

Outside of a component (a handler called in a native unit test) there is no
host: notifications are dropped and questions raise ``ClientError`` with
kind ``unavailable``, as they do in a component outside of a request.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from ._errors import ClientError
from ._types import DecodeError, convert, is_record, record_schema, to_json

LogLevel = Literal["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
QUESTION_KINDS = ("create-message", "create-elicitation", "list-roots")


@dataclass
class Root:
    """A root the client exposes (a ``file://`` URI)."""

    uri: str
    name: str | None = None


@dataclass
class Identity:
    """An authenticated caller (HTTP with authorization on)."""

    issuer: str
    subject: str
    client_id: str | None = None
    scopes: list[str] = field(default_factory=list)


@dataclass
class Elicitation:
    """The user's answer: ``action`` is ``accept``, ``decline`` or ``cancel``;
    ``content`` the filled-in form (of the type asked for) when accepted."""

    action: str
    content: Any = None

    @property
    def accepted(self) -> bool:
        return self.action == "accept"


@dataclass
class Question:
    """One question of a batch (:meth:`Context.ask`): ``kind`` is
    ``create-message``, ``create-elicitation`` or ``list-roots``; ``key``
    names it in a 2026-07-28 round."""

    key: str
    kind: str
    params: dict[str, Any] | None = None


class _NoHost:
    """No client: what a component sees outside of a request."""

    def _unavailable(self) -> Any:
        raise ClientError("unavailable", "no client: not running in a component")

    def progress(self, progress: float, total: float | None, message: str | None) -> None:
        pass

    def log(self, level: str, logger: str | None, data: str) -> None:
        pass

    def create_message(self, params: str) -> str:
        return self._unavailable()

    def create_elicitation(self, params: str) -> str:
        return self._unavailable()

    def list_roots(self) -> list[Root]:
        return self._unavailable()

    def ask(self, questions: list[Question]) -> list[str | ClientError]:
        return [ClientError("unavailable", "no client: not running in a component") for _ in questions]

    def list_changed(self, kind: str) -> None:
        pass

    def resource_updated(self, uri: str) -> None:
        pass

    def url_elicitation_completed(self, elicitation_id: str) -> None:
        pass

    def caller(self) -> Identity | None:
        return None

    def extension_settings(self, id: str) -> str | None:
        return None

    def run_as_task(self) -> bool:
        return False


# The component's glue replaces it with the host's imports.
host: Any = _NoHost()


def _answer(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as error:
        raise ClientError("invalid-response", str(error)) from None


class Context:
    """What a handler may reach of the client while it serves a request: ask
    for it with a parameter annotated ``Context``."""

    def __init__(self, handler: str) -> None:
        self.handler = handler

    def progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        """Reports progress (sent only when the client asked for it);
        ``progress`` should grow from one report to the next."""
        host.progress(float(progress), None if total is None else float(total), message)

    def log(self, level: LogLevel, data: Any, logger: str | None = None) -> None:
        """Logs ``data`` (a string or any JSON value) under the handler's name
        (or ``logger``), if the client's level lets it through."""
        if level not in LOG_LEVELS:
            raise ValueError(f"unknown log level {level!r}: one of {', '.join(LOG_LEVELS)}")
        try:
            text = json.dumps(to_json(data))
        except (TypeError, ValueError) as error:
            text = json.dumps(f"unloggable data: {error}")
        host.log(level, logger if logger is not None else self.handler, text)

    def debug(self, data: Any) -> None:
        self.log("debug", data)

    def info(self, data: Any) -> None:
        self.log("info", data)

    def warning(self, data: Any) -> None:
        self.log("warning", data)

    def error(self, data: Any) -> None:
        self.log("error", data)

    def create_message(self, params: dict[str, Any]) -> dict[str, Any]:
        """Asks the client's model (``sampling/createMessage``) with MCP's
        ``CreateMessageRequest`` params; returns its ``CreateMessageResult``."""
        return _answer(host.create_message(json.dumps(params)))

    def sample(self, prompt: str, max_tokens: int = 1000) -> str:
        """Asks the client's model one question; the text of its answer."""
        answer = self.create_message(
            {"messages": [{"role": "user", "content": {"type": "text", "text": prompt}}], "maxTokens": max_tokens}
        )
        text = (answer.get("content") or {}).get("text") if isinstance(answer, dict) else None
        if not isinstance(text, str):
            raise ClientError("invalid-response", f"the answer holds no text: {json.dumps(answer)}")
        return text

    def elicit(self, message: str, schema: Any) -> Elicitation:
        """Asks the user to fill in a form (``elicitation/create``, form mode).

        ``schema`` is a dataclass or TypedDict of primitive fields (the
        accepted content is returned as one), or a JSON Schema object (the
        content is returned as a dict).
        """
        record = is_record(schema)
        requested = record_schema(schema) if record else schema
        answer = self.elicit_raw({"message": message, "requestedSchema": requested})
        action = answer.get("action") if isinstance(answer, dict) else None
        if action not in ("accept", "decline", "cancel"):
            raise ClientError("invalid-response", f"no action in the answer: {json.dumps(answer)}")
        content = answer.get("content")
        if action == "accept" and record:
            try:
                content = convert(content if content is not None else {}, schema)
            except DecodeError as error:
                raise ClientError("invalid-response", f"the answer does not fit the form: {error}") from None
        return Elicitation(action, content)

    def elicit_raw(self, params: dict[str, Any]) -> dict[str, Any]:
        """Asks the user with MCP's ``ElicitRequest`` params (form or URL
        mode); returns its ``ElicitResult``."""
        return _answer(host.create_elicitation(json.dumps(params)))

    def list_roots(self) -> list[Root]:
        """The client's roots (``roots/list``)."""
        return host.list_roots()

    def ask(self, questions: list[Question]) -> list[Any]:
        """Asks several questions at once (in a 2026-07-28 request the
        unanswered ones end the round together); each answer is its result
        as JSON data, or a :class:`ClientError`, in order."""
        for question in questions:
            if question.kind not in QUESTION_KINDS:
                raise ValueError(f"unknown question kind {question.kind!r}: one of {', '.join(QUESTION_KINDS)}")
        answers = []
        for answer in host.ask(questions):
            if isinstance(answer, ClientError):
                answers.append(answer)
            else:
                try:
                    answers.append(_answer(answer))
                except ClientError as error:
                    answers.append(error)
        return answers

    def notify_list_changed(self, kind: Literal["tools", "prompts", "resources"]) -> None:
        """Says that the router's tools, prompts or resources changed."""
        host.list_changed(kind)

    def notify_resource_updated(self, uri: str) -> None:
        """Says that a resource changed, to the clients subscribed to it."""
        host.resource_updated(uri)

    def notify_url_elicitation_completed(self, elicitation_id: str) -> None:
        """Says that a URL-mode elicitation finished out of band."""
        host.url_elicitation_completed(elicitation_id)

    def caller(self) -> Identity | None:
        """Who made the request, when the server authenticates requests."""
        return host.caller()

    def extension_settings(self, id: str) -> Any:
        """What the client declared of extension ``id`` (its capabilities'
        ``extensions[id]``), as JSON data; ``None`` when it did not."""
        settings = host.extension_settings(id)
        return None if settings is None else json.loads(settings)

    def run_as_task(self) -> bool:
        """Asks for the request to go on as a task (the tasks extension): the
        client gets the task at once and polls for the result, while this call
        runs on. Whether the request is a task now (``False``: the client did
        not declare the extension, or the server's policy for the tool is
        ``never``; the call goes on as before). Ask once the questions that
        decide whether to go on are answered."""
        return host.run_as_task()

    def hosts_apps(self) -> bool:
        """Whether the client hosts MCP Apps (it declared
        ``io.modelcontextprotocol/ui`` with ``text/html;profile=mcp-app``): a
        tool with a view answers one that does not with text it can show."""
        settings = self.extension_settings("io.modelcontextprotocol/ui")
        return isinstance(settings, dict) and "text/html;profile=mcp-app" in (settings.get("mimeTypes") or [])
