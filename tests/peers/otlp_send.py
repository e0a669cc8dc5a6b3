"""Sends one OTLP/HTTP trace export, built with the official protobuf
definitions (PyPI `opentelemetry-proto`), as an exporter would: a check of
`otlp_receiver.py` that does not depend on the exporter under test.

Usage: otlp_send.py URL [--gzip] [--raw BODY] [--content-type TYPE] < SPANS

SPANS (stdin, unless --raw) is a JSON object: `resource` and `scope`, and
`spans`, each with hex `traceId`, `spanId`, `parentSpanId`, and `name`,
`kind` (a `SpanKind` name), `attributes` (string, bool, int, float, or lists
of them), `status` (`code` name, `message`), `links`, `startTimeUnixNano`,
`endTimeUnixNano`. --raw sends BODY as it is instead (a request that does
not decode). Prints `{"status": CODE, "body": HEX}`.
"""

import argparse
import gzip
import json
import sys
import urllib.error
import urllib.request

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span, Status


def any_value(value):
    if isinstance(value, bool):
        return AnyValue(bool_value=value)
    if isinstance(value, int):
        return AnyValue(int_value=value)
    if isinstance(value, float):
        return AnyValue(double_value=value)
    if isinstance(value, list):
        result = AnyValue()
        result.array_value.values.extend(any_value(v) for v in value)
        return result
    return AnyValue(string_value=str(value))


def key_values(attributes):
    return [KeyValue(key=k, value=any_value(v)) for k, v in attributes.items()]


def request(description):
    export = ExportTraceServiceRequest()
    resource_spans = export.resource_spans.add()
    resource_spans.resource.attributes.extend(key_values(description.get("resource", {})))
    scope_spans = resource_spans.scope_spans.add()
    scope_spans.scope.name = description.get("scope", "")
    for s in description["spans"]:
        span = scope_spans.spans.add()
        span.trace_id = bytes.fromhex(s["traceId"])
        span.span_id = bytes.fromhex(s["spanId"])
        span.parent_span_id = bytes.fromhex(s.get("parentSpanId", ""))
        span.name = s["name"]
        span.kind = Span.SpanKind.Value(s.get("kind", "SPAN_KIND_INTERNAL"))
        span.start_time_unix_nano = s.get("startTimeUnixNano", 0)
        span.end_time_unix_nano = s.get("endTimeUnixNano", 0)
        span.attributes.extend(key_values(s.get("attributes", {})))
        status = s.get("status", {})
        span.status.code = Status.StatusCode.Value(status.get("code", "STATUS_CODE_UNSET"))
        span.status.message = status.get("message", "")
        for l in s.get("links", []):
            link = span.links.add()
            link.trace_id = bytes.fromhex(l["traceId"])
            link.span_id = bytes.fromhex(l["spanId"])
    return export.SerializeToString()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--gzip", action="store_true")
    parser.add_argument("--raw")
    parser.add_argument("--content-type", default="application/x-protobuf")
    args = parser.parse_args()
    body = args.raw.encode() if args.raw is not None else request(json.load(sys.stdin))
    headers = {"Content-Type": args.content_type}
    if args.gzip:
        body = gzip.compress(body)
        headers["Content-Encoding"] = "gzip"
    sent = urllib.request.Request(args.url, data=body, headers=headers, method="POST")
    # Straight to the receiver on loopback, whatever proxy the environment names.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(sent, timeout=30) as response:
            status, answer = response.status, response.read()
    except urllib.error.HTTPError as e:
        status, answer = e.code, e.read()
    print(json.dumps({"status": status, "body": answer.hex()}))


if __name__ == "__main__":
    main()
