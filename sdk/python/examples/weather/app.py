"""A weather router: tools (one with structured output, one that talks back
to the client), a resource, a resource template and a prompt.

Build: python -m mcp_wit build app.py -o weather.wasm
Serve: mcp-wit serve weather.wasm
"""

from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Literal, Optional

from mcp_wit import Context, Field, Message, Router, ToolError

router = Router("weather", instructions="Forecasts for cities.")

STATIONS = {"Oslo": 4.0, "Lima": 19.5, "Nairobi": 22.0}


class Units(Enum):
    CELSIUS = "celsius"
    FAHRENHEIT = "fahrenheit"


@dataclass
class Day:
    day: int
    summary: str
    high: float


@dataclass
class Forecast:
    """A forecast, day by day."""

    city: str
    units: str
    days: list[Day]


@dataclass
class Name:
    username: Annotated[str, "What should I call you?"]


@router.tool(read_only=True, title="Forecast")
def forecast(
    city: Annotated[str, "The city"],
    days: Annotated[int, Field("How many days ahead", ge=1, le=7)] = 1,
    units: Units = Units.CELSIUS,
) -> Forecast:
    """Forecast for a city."""
    if city not in STATIONS:
        raise ToolError.invalid_parameters(f"no station in {city}: try one of {', '.join(STATIONS)}")
    high = STATIONS[city]
    if units is Units.FAHRENHEIT:
        high = high * 9 / 5 + 32
    return Forecast(city, units.value, [Day(d + 1, "sunny", high + d) for d in range(days)])


@router.tool()
def greet(ctx: Context, greeting: Literal["Hello", "Hi"] = "Hello") -> str:
    """Greets whoever asks, by name if they say it."""
    ctx.progress(0.0, 1.0, "asking for a name")
    ctx.log("info", "asking for a name")
    try:
        answer = ctx.elicit("Who are you?", Name)
        name = answer.content.username if answer.accepted else "stranger"
    except Exception as error:  # the client may not support elicitation
        ctx.log("warning", f"no name: {error}")
        name = "stranger"
    ctx.progress(1.0, 1.0, "done")
    return f"{greeting}, {name}!"


@router.tool()
def echo(text: str) -> str:
    """Says the text back (for measuring a call's cost)."""
    return text


@router.tool()
def convert(celsius: float, precision: Optional[int] = None) -> str:
    """Celsius to Fahrenheit."""
    value = celsius * 9 / 5 + 32
    return str(round(value, precision) if precision is not None else value)


@router.tool()
def explode(message: str = "the barometer broke") -> str:
    """Always fails: shows what a client sees of an exception."""
    raise RuntimeError(message)


@router.resource("weather://stations", mime_type="application/json")
def stations() -> dict[str, float]:
    """The weather stations, with their last reading."""
    return STATIONS


@router.resource("weather://city/{name}", mime_type="text/plain")
def city(name: str) -> str:
    """Today's report for one city."""
    if name not in STATIONS:
        raise ValueError(f"no station in {name}")
    return f"{name}: sunny, {STATIONS[name]} °C"


@router.prompt()
def plan(city: Annotated[str, "Where to"], days: Annotated[int, "How long the trip is"] = 3) -> list[Message]:
    """Plans a trip around the weather."""
    return [
        Message.user(f"Plan a {days}-day trip to {city} around the forecast."),
        Message.assistant("I will check the forecast first."),
    ]


@router.completion(prompt="plan", argument="city")
def complete_city(value: str) -> list[str]:
    return [name for name in STATIONS if name.lower().startswith(value.lower())]
