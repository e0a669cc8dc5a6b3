"""An OTLP/HTTP receiver for tests: decodes trace exports with the official
protobuf definitions (PyPI `opentelemetry-proto`) and prints each span as one
JSON line on stdout.

Listens on 127.0.0.1 on a port the OS picks; the first line on stdout is
`listening PORT`. Takes POST /v1/traces (`application/x-protobuf`, gzip if
`Content-Encoding` says so) and answers 200 with an empty
`ExportTraceServiceResponse`; POST /v1/metrics and /v1/logs are accepted and
ignored; a body that does not decode is 400; anything else 404. Exits when
its stdin closes, so that it does not outlive a test process that died
without killing it.
"""

import gzip
import json
import os
import sys
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceResponse
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceResponse
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status

# Lines from concurrent exports must not interleave.
OUT = threading.Lock()


def emit(line):
    with OUT:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def any_value(value):
    """An `AnyValue` as the Python value it holds."""
    kind = value.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [any_value(v) for v in value.array_value.values]
    if kind == "kvlist_value":
        return attributes(value.kvlist_value.values)
    if kind == "bytes_value":
        return value.bytes_value.hex()
    return getattr(value, kind)


def attributes(key_values):
    return {kv.key: any_value(kv.value) for kv in key_values}


def span_json(span, resource, scope):
    return {
        "traceId": span.trace_id.hex(),
        "spanId": span.span_id.hex(),
        "parentSpanId": span.parent_span_id.hex(),
        "name": span.name,
        "kind": Span.SpanKind.Name(span.kind),
        "status": {"code": Status.StatusCode.Name(span.status.code), "message": span.status.message},
        "attributes": attributes(span.attributes),
        "events": [{"name": e.name, "attributes": attributes(e.attributes)} for e in span.events],
        "resource": resource,
        "scope": scope,
        "links": [{"traceId": l.trace_id.hex(), "spanId": l.span_id.hex()} for l in span.links],
        "startTimeUnixNano": span.start_time_unix_nano,
        "endTimeUnixNano": span.end_time_unix_nano,
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        # Stdout carries the spans; request logs would only be noise.
        pass

    def answer(self, status, body=b"", content_type="application/x-protobuf"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if status != 200:
            # The request's body may be left unread: the connection cannot
            # carry another request.
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        data = self.rfile.read(length)
        encoding = (self.headers.get("Content-Encoding") or "identity").lower()
        if encoding == "gzip":
            return gzip.decompress(data)
        if encoding == "deflate":
            return zlib.decompress(data)
        if encoding != "identity":
            raise ValueError(f"unsupported Content-Encoding {encoding}")
        return data

    def do_POST(self):
        path = self.path.split("?", 1)[0]
        responses = {
            "/v1/traces": ExportTraceServiceResponse,
            "/v1/metrics": ExportMetricsServiceResponse,
            "/v1/logs": ExportLogsServiceResponse,
        }
        if path not in responses:
            self.answer(404, b"not found", "text/plain")
            return
        content_type = (self.headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
        if content_type != "application/x-protobuf":
            self.answer(415, f"expected application/x-protobuf, got {content_type!r}".encode(), "text/plain")
            return
        try:
            data = self.body()
        except (OSError, EOFError, ValueError, zlib.error) as e:
            self.answer(400, f"bad body: {e}".encode(), "text/plain")
            return
        if path == "/v1/traces":
            request = ExportTraceServiceRequest()
            try:
                request.ParseFromString(data)
            except DecodeError as e:
                self.answer(400, f"not an ExportTraceServiceRequest: {e}".encode(), "text/plain")
                return
            for resource_spans in request.resource_spans:
                resource = attributes(resource_spans.resource.attributes)
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        emit(json.dumps(span_json(span, resource, scope_spans.scope.name)))
        self.answer(200, responses[path]().SerializeToString())

    def do_GET(self):
        self.answer(404, b"not found", "text/plain")

    do_PUT = do_DELETE = do_PATCH = do_GET


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    emit(f"listening {server.server_address[1]}")

    def watch_stdin():
        sys.stdin.buffer.read()
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
