"""The conformance fixtures, in Python: the tools, resources and prompts of
components/conformance (the Rust fixture the official MCP conformance
suite's server scenarios run against), with the same names, texts and
payloads, so the suite can run against a Python router too.

Build: python -m mcp_wit build app.py -o conformance.wasm
"""

import json
import time
from typing import Annotated, Any

from mcp_wit import (
    Audio,
    ClientError,
    Context,
    EmbeddedResource,
    Field,
    Image,
    Message,
    Question,
    Router,
    Text,
    ToolError,
)

router = Router(
    "mcp-wit-conformance",
    instructions="Fixtures for the MCP conformance suite's server scenarios.",
    # `test_trigger_*` and `test_update_resource` signal changes.
    tools_list_changed=True,
    prompts_list_changed=True,
    resources_subscribe=True,
)

# A 1×1 red PNG.
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
# A minimal WAV file.
WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="

# SEP-1613: a JSON Schema 2020-12 input schema that must reach the client unchanged.
JSON_SCHEMA_2020_12 = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {"address": {"type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"}},
    "additionalProperties": False,
}


def compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def ask_all(ctx: Context, questions: list[Question]) -> list[Any]:
    """Asks at once; the answers in order, or the first failure as the tool's error."""
    answers = ctx.ask(questions)
    for answer in answers:
        if isinstance(answer, ClientError):
            raise answer
    return answers


def name_question(key: str, message: str) -> Question:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    return Question(key, "create-elicitation", {"message": message, "requestedSchema": schema})


def confirm_question(key: str) -> Question:
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
    return Question(key, "create-elicitation", {"message": "Please confirm", "requestedSchema": schema})


def sampling_question(key: str, prompt: str, max_tokens: int) -> Question:
    params = {"messages": [{"role": "user", "content": {"type": "text", "text": prompt}}], "maxTokens": max_tokens}
    return Question(key, "create-message", params)


def completed(answer: dict[str, Any]) -> str:
    return f"Elicitation completed: action={answer.get('action', '')}, content={compact(answer.get('content'))}"


# Content


@router.tool(description="Tests simple text content response")
def test_simple_text() -> str:
    return "This is a simple text response for testing."


@router.tool(description="Tests image content response")
def test_image_content() -> Image:
    return Image(PNG, "image/png")


@router.tool(description="Tests audio content response")
def test_audio_content() -> Audio:
    return Audio(WAV, "audio/wav")


@router.tool(description="Tests embedded resource content response")
def test_embedded_resource() -> EmbeddedResource:
    return EmbeddedResource("test://embedded-resource", text="This is an embedded resource content.", mime_type="text/plain")


@router.tool(description="Tests response with multiple content types (text, image, resource)")
def test_multiple_content_types() -> list[Any]:
    return [
        Text("Multiple content types test:"),
        Image(PNG, "image/png"),
        EmbeddedResource("test://mixed-content-resource", text='{"test":"data","value":123}', mime_type="application/json"),
    ]


# Notifications


@router.tool(description="Tests tool that emits log messages during execution")
def test_tool_with_logging(ctx: Context) -> str:
    for message in ("Tool execution started", "Tool processing data", "Tool execution completed"):
        ctx.log("info", message)
        if message != "Tool execution completed":
            time.sleep(0.05)
    return "Tool with logging executed successfully"


@router.tool(description="Tests tool that reports progress notifications")
def test_tool_with_progress(ctx: Context) -> str:
    for done, message in ((0.0, "Starting"), (50.0, "Halfway"), (100.0, "Done")):
        ctx.progress(done, 100.0, message)
        time.sleep(0.05)
    return "Progress test completed"


@router.tool(description="Tests error response handling")
def test_error_handling() -> str:
    raise ToolError("This tool intentionally returns an error for testing")


@router.tool(description="Tests that a 2026-07-28 response stream carries no server-to-client request; answers at once")
def test_streaming_elicitation() -> str:
    return "Answered on the request's own stream, without asking the client anything."


@router.tool(description="Tests that no notifications/message is sent without a requested log level; answers at once")
def test_logging_tool() -> str:
    return "Done; this router logs nothing, so no notifications/message was sent."


@router.tool(description="Tests SSE stream reconnection (SEP-1699); answers at once")
def test_reconnection() -> str:
    return "Reconnection test completed successfully (the response was sent on the original stream)."


# Questions in rounds (2026-07-28) or one after the other (2025)


@router.tool(description="Asks the user's name (one round)")
def test_input_required_result_elicitation(ctx: Context) -> str:
    [answer] = ask_all(ctx, [name_question("user_name", "What is your name?")])
    return f"Hello, {(answer.get('content') or {}).get('name', '?')}!"


@router.tool(description="Asks the client's model a question (one round)")
def test_input_required_result_sampling(ctx: Context) -> str:
    [answer] = ask_all(ctx, [sampling_question("capital_question", "What is the capital of France?", 100)])
    return f"Sampling answered: {(answer.get('content') or {}).get('text', '')}"


@router.tool(description="Asks for the client's roots (one round)")
def test_input_required_result_list_roots(ctx: Context) -> str:
    [answer] = ask_all(ctx, [Question("client_roots", "list-roots")])
    return f"Client roots: {compact(answer.get('roots'))}"


def confirmed(ctx: Context) -> str:
    # The host checks the echoed `requestState` before the call is run
    # again: reaching the end means it checked out.
    [answer] = ask_all(ctx, [confirm_question("confirm")])
    return f"state-ok: confirmed ({answer.get('action', '')})"


@router.tool(description="Asks for a confirmation across a round")
def test_input_required_result_request_state(ctx: Context) -> str:
    return confirmed(ctx)


@router.tool(description="Asks three questions in one round")
def test_input_required_result_multiple_inputs(ctx: Context) -> str:
    name, greeting, roots = ask_all(
        ctx,
        [
            name_question("user_name", "What is your name?"),
            sampling_question("greeting", "Generate a greeting", 50),
            Question("client_roots", "list-roots"),
        ],
    )
    return (
        f"name: {compact((name.get('content') or {}).get('name'))}, "
        f"greeting: {compact((greeting.get('content') or {}).get('text'))}, roots: {compact(roots.get('roots'))}"
    )


@router.tool(description="Asks two questions, one round each")
def test_input_required_result_multi_round(ctx: Context) -> str:
    [name] = ask_all(ctx, [name_question("step1", "Step 1: What is your name?")])
    schema = {"type": "object", "properties": {"color": {"type": "string"}}, "required": ["color"]}
    color_question = Question(
        "step2", "create-elicitation", {"message": "Step 2: What is your favorite color?", "requestedSchema": schema}
    )
    [color] = ask_all(ctx, [color_question])
    return f"{compact((name.get('content') or {}).get('name'))} likes {compact((color.get('content') or {}).get('color'))}"


@router.tool(description="Asks for a confirmation across a round")
def test_input_required_result_tampered_state(ctx: Context) -> str:
    return confirmed(ctx)


@router.tool(description="Asks only what the client can answer")
def test_input_required_result_capabilities(ctx: Context) -> str:
    # Both asked; a question the client did not declare is `unsupported`
    # and never sent.
    answers = ctx.ask(
        [
            name_question("user_name", "What is your name?"),
            sampling_question("capital_question", "What is the capital of France?", 100),
        ]
    )
    said = []
    for answer in answers:
        if isinstance(answer, ClientError):
            said.append(f"(unsupported: {answer.message})" if answer.kind == "unsupported" else f"({answer})")
        else:
            said.append(compact(answer))
    return "; ".join(said)


@router.tool(description="Needs the client's model: fails without `sampling`")
def test_missing_capability(ctx: Context) -> str:
    # In a 2026-07-28 request whose client did not declare `sampling`, the
    # host fails the call with -32021 before anything is asked.
    answer = ctx.create_message(
        {"messages": [{"role": "user", "content": {"type": "text", "text": "Say hello"}}], "maxTokens": 20}
    )
    return f"The model said: {compact((answer.get('content') or {}).get('text'))}"


# List and resource changes


@router.tool(description="Says that the tool list changed")
def test_trigger_tool_change(ctx: Context) -> str:
    ctx.notify_list_changed("tools")
    return "Tool list change announced"


@router.tool(description="Says that the prompt list changed")
def test_trigger_prompt_change(ctx: Context) -> str:
    ctx.notify_list_changed("prompts")
    return "Prompt list change announced"


@router.tool(description="Says that the resource at `uri` changed")
def test_update_resource(uri: str, ctx: Context) -> str:
    ctx.notify_resource_updated(uri)
    return "Resource update announced"


@router.tool(
    description="Echoes `region`, which 2026-07-28 clients also send as the Mcp-Param-Region header (SEP-2243)",
    input_schema={
        "type": "object",
        "properties": {"region": {"type": "string", "x-mcp-header": "Region"}},
        "required": ["region"],
    },
)
def test_custom_header(region: str) -> str:
    return f"region: {region}"


# Sampling and elicitation


@router.tool(description="Tests server-initiated sampling")
def test_sampling(prompt: Annotated[str, "The prompt to send to the LLM"], ctx: Context) -> str:
    answer = ctx.create_message(
        {"messages": [{"role": "user", "content": {"type": "text", "text": prompt}}], "maxTokens": 100}
    )
    return f"LLM response: {(answer.get('content') or {}).get('text', '')}"


@router.tool(description="Tests server-initiated elicitation")
def test_elicitation(message: Annotated[str, "The message to show the user"], ctx: Context) -> str:
    answer = ctx.elicit_raw(
        {
            "message": message,
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "username": {"type": "string", "description": "User's response"},
                    "email": {"type": "string", "description": "User's email address"},
                },
                "required": ["username", "email"],
            },
        }
    )
    return f"User response: <action: {answer.get('action', '')}, content: {compact(answer.get('content'))}>"


@router.tool(description="Tests elicitation with default values for every primitive type (SEP-1034)")
def test_elicitation_sep1034_defaults(ctx: Context) -> str:
    answer = ctx.elicit_raw(
        {
            "message": "Please review and update the form fields with defaults",
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "description": "User name", "default": "John Doe"},
                    "age": {"type": "integer", "description": "User age", "default": 30},
                    "score": {"type": "number", "description": "User score", "default": 95.5},
                    "status": {
                        "type": "string",
                        "description": "User status",
                        "enum": ["active", "inactive", "pending"],
                        "default": "active",
                    },
                    "verified": {"type": "boolean", "description": "Verification status", "default": True},
                },
            },
        }
    )
    return completed(answer)


@router.tool(description="Tests elicitation with every kind of enum schema (SEP-1330)")
def test_elicitation_sep1330_enums(ctx: Context) -> str:
    def titled(key: str, titles: list[str]) -> list[dict[str, str]]:
        return [{"const": f"value{i + 1}", "title": title} for i, title in enumerate(titles)]

    answer = ctx.elicit_raw(
        {
            "message": "Please select options from the enum fields",
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "untitledSingle": {
                        "type": "string",
                        "description": "Select one option",
                        "enum": ["option1", "option2", "option3"],
                    },
                    "titledSingle": {
                        "type": "string",
                        "description": "Select one option with titles",
                        "oneOf": titled("single", ["First Option", "Second Option", "Third Option"]),
                    },
                    "legacyEnum": {
                        "type": "string",
                        "description": "Select one option (legacy)",
                        "enum": ["opt1", "opt2", "opt3"],
                        "enumNames": ["Option One", "Option Two", "Option Three"],
                    },
                    "untitledMulti": {
                        "type": "array",
                        "description": "Select multiple options",
                        "minItems": 1,
                        "maxItems": 3,
                        "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
                    },
                    "titledMulti": {
                        "type": "array",
                        "description": "Select multiple options with titles",
                        "minItems": 1,
                        "maxItems": 3,
                        "items": {"anyOf": titled("multi", ["First Choice", "Second Choice", "Third Choice"])},
                    },
                },
                "required": [],
            },
        }
    )
    return completed(answer)


@router.tool(description="Tool with JSON Schema 2020-12 features", input_schema=JSON_SCHEMA_2020_12)
def json_schema_2020_12_tool(name: str | None = None, address: dict[str, Any] | None = None) -> str:
    given = {key: value for key, value in (("name", name), ("address", address)) if value is not None}
    return f"JSON Schema 2020-12 tool called with: {compact(given)}"


# What the host's own tests use


@router.tool(description="Waits `ms` milliseconds (at most 10000), then answers (the host's HTTP tests use it)")
def wait(ms: Annotated[int, Field(ge=0)]) -> str:
    time.sleep(min(ms, 10_000) / 1000)
    return f"waited {ms} ms"


CALLS = 0
ROOTS_CHANGED = 0


@router.tool(description="Counts its calls on this instance (the host's HTTP tests use it)")
def counter() -> str:
    global CALLS
    CALLS += 1
    return str(CALLS)


@router.tool(description="How many times the client said its roots changed, on this instance")
def roots_changed() -> str:
    return str(ROOTS_CHANGED)


@router.on_roots_changed
def count_roots_change() -> None:
    global ROOTS_CHANGED
    ROOTS_CHANGED += 1


# Resources


@router.resource("test://static-text", name="static-text", description="A static text resource for testing")
def static_text() -> str:
    return "This is the content of the static text resource."


@router.resource(
    "test://static-binary",
    name="static-binary",
    description="A static binary resource (image) for testing",
    mime_type="image/png",
)
def static_binary() -> EmbeddedResource:
    return EmbeddedResource("test://static-binary", blob=PNG, mime_type="image/png")


@router.resource(
    "test://watched-resource", name="watched-resource", description="A resource that can be subscribed to"
)
def watched_resource() -> str:
    return "Watched resource content"


@router.resource(
    "test://template/{id}/data",
    name="template",
    description="A resource template with parameter substitution",
    mime_type="application/json",
)
def template(id: str) -> dict[str, Any]:
    return {"id": id, "templateTest": True, "data": f"Data for ID: {id}"}


# Prompts


@router.prompt(description="A simple prompt without arguments")
def test_simple_prompt() -> str:
    return "This is a simple prompt for testing."


@router.prompt(description="A prompt with required arguments")
def test_prompt_with_arguments(
    arg1: Annotated[str, "First test argument"], arg2: Annotated[str, "Second test argument"]
) -> str:
    return f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"


@router.prompt(description="A prompt that includes an embedded resource")
def test_prompt_with_embedded_resource(resourceUri: Annotated[str, "URI of the resource to embed"]) -> list[Message]:
    return [
        Message.user(
            EmbeddedResource("test://embedded-resource", text="Embedded resource content for testing.", mime_type="text/plain")
        ),
        Message.user("Please process the embedded resource above."),
    ]


@router.prompt(description="A prompt that includes image content")
def test_prompt_with_image() -> list[Message]:
    return [Message.user(Image(PNG, "image/png")), Message.user("Please analyze the image above.")]


@router.prompt(description="A prompt that asks the user for context")
def test_input_required_result_prompt(ctx: Context) -> str:
    schema = {"type": "object", "properties": {"context": {"type": "string"}}, "required": ["context"]}
    question = Question(
        "user_context", "create-elicitation", {"message": "What context should the prompt use?", "requestedSchema": schema}
    )
    [answer] = ctx.ask([question])
    if isinstance(answer, ClientError):
        raise answer
    context = (answer.get("content") or {}).get("context") or "none"
    return f"Use this context: {context}"


@router.completion(prompt="test_prompt_with_arguments", argument="arg1")
def complete_arg1(value: str) -> list[str]:
    return [candidate for candidate in ("paris", "park", "party") if candidate.startswith(value)]
