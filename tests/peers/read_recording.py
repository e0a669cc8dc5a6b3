"""Reads an `.mcp` recording with the FlatBuffers code `flatc --python`
generates from record/schema/mcp.fbs, and prints it as `mcp-wit log` does:
one JSON object per message (session, direction, at, message).

Usage: read_recording.py GENERATED_DIR RECORDING
"""

import json
import struct
import sys

sys.path.insert(0, sys.argv[1])

from mcp.fb.Error import Error  # noqa: E402
from mcp.fb.Message import Message  # noqa: E402
from mcp.fb.MessageType import MessageType  # noqa: E402
from mcp.fb.Notification import Notification  # noqa: E402
from mcp.fb.Request import Request  # noqa: E402
from mcp.fb.Response import Response  # noqa: E402
from mcp.fb.Transport import Transport  # noqa: E402


def text(value):
    return None if value is None else value.decode("utf-8")


def buffers(data):
    """Each size-prefixed buffer of the file, with the file identifier checked."""
    offset = 0
    while offset + 4 <= len(data):
        (size,) = struct.unpack_from("<I", data, offset)
        buffer = data[offset + 4 : offset + 4 + size]
        if len(buffer) < size:
            return  # a cut tail
        if buffer[4:8] != b"MCPP":
            raise SystemExit(f"no MCPP identifier at byte {offset}")
        yield buffer
        offset += 4 + size


def message(buffer):
    root = Message.GetRootAs(buffer, 0)
    table = root.Type()
    kind = root.TypeType()
    out = {"jsonrpc": None}
    if kind == MessageType.Request:
        m = Request()
        m.Init(table.Bytes, table.Pos)
        out.update(jsonrpc=text(m.Jsonrpc()), id=m.Id().Id(), method=text(m.Method()))
        if m.Params() is not None:
            out["params"] = json.loads(m.Params())
    elif kind == MessageType.Notification:
        m = Notification()
        m.Init(table.Bytes, table.Pos)
        out.update(jsonrpc=text(m.Jsonrpc()), method=text(m.Method()))
        if m.Params() is not None:
            out["params"] = json.loads(m.Params())
    elif kind == MessageType.Response:
        m = Response()
        m.Init(table.Bytes, table.Pos)
        out.update(jsonrpc=text(m.Jsonrpc()), id=m.Id().Id(), result=json.loads(m.Result()))
    elif kind == MessageType.Error:
        m = Error()
        m.Init(table.Bytes, table.Pos)
        error = {"code": m.Code(), "message": text(m.Message())}
        if m.Data() is not None:
            error["data"] = json.loads(m.Data())
        out.update(jsonrpc=text(m.Jsonrpc()), id=m.Id().Id(), error=error)
    else:
        raise SystemExit(f"unknown message type {kind}")
    context = json.loads(m.Meta().AdditionalData())
    if context.get("no_id"):
        out.pop("id", None)
    if "id" in context:
        out["id"] = json.loads(context["id"])
    record = out if "raw" not in context else context["raw"]
    return {"session": context["session"], "direction": context["direction"], "at": context["at"], "message": record}


def main():
    data = open(sys.argv[2], "rb").read()
    all_buffers = list(buffers(data))
    transport = Transport.GetRootAs(all_buffers[0], 0)
    print(json.dumps({"transportType": transport.TypeType()}))
    for buffer in all_buffers[1:]:
        print(json.dumps(message(buffer)))


main()
