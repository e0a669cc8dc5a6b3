// The page of an MCP Apps host, run in a real browser: the TypeScript SDK's
// client reaches the server over Streamable HTTP (cross-origin, as a web
// host does), and ext-apps' `AppBridge` renders a tool's view in a
// sandboxed iframe and carries the view's tool calls to the server.
// Bundled for the browser by `browser_host.mjs`, which calls `window.host`.

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
    AppBridge,
    PostMessageTransport,
    RESOURCE_MIME_TYPE,
    getToolUiResourceUri
} from '@modelcontextprotocol/ext-apps/app-bridge';

const UI_EXTENSION = 'io.modelcontextprotocol/ui';
const HOST_INFO = { name: 'browser-host', version: '1.0.0' };

// Every message the server sent, as the browser received it (JSON bodies
// and SSE events alike), for the test to check against the schema.
const trace = [];
const keep = (text) => {
    for (const line of text.split('\n')) {
        if (line.trim()) trace.push(line.trim());
    }
};
async function read(response) {
    const type = response.headers.get('content-type') ?? '';
    const body = await response.text();
    if (type.includes('event-stream')) {
        for (const event of body.split(/\r?\n\r?\n/)) {
            const data = event.split(/\r?\n/).filter((l) => l.startsWith('data:'));
            keep(data.map((l) => l.slice(5).trim()).join(''));
        }
    } else if (type.includes('json')) {
        keep(body.replace(/\n/g, ' '));
    }
}
async function tracingFetch(url, init) {
    const response = await fetch(url, init);
    if (response.body) read(response.clone()).catch(() => {});
    return response;
}

/// Connects, lists tools, opens `tool`'s view, calls `tool` with `args`,
/// hands the view its input and result; what it saw, as JSON.
window.host = async ({ url, mode, tool, args, apps }) => {
    const capabilities = apps ? { extensions: { [UI_EXTENSION]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } : {};
    const versionNegotiation = { mode: mode === 'legacy' || mode === 'auto' ? mode : { pin: mode } };
    const client = new Client(HOST_INFO, { versionNegotiation, capabilities });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: tracingFetch }));
    const report = {
        protocolVersion: client.getNegotiatedProtocolVersion(),
        serverCapabilities: client.getServerCapabilities() ?? null
    };
    report.tools = (await client.listTools()).tools;
    const listed = report.tools.find((t) => t.name === tool);
    report.resourceUri = getToolUiResourceUri(listed) ?? null;
    const call = () => client.callTool({ name: tool, arguments: args });
    if (!report.resourceUri) {
        report.call = await call();
        return report;
    }
    const contents = (await client.readResource({ uri: report.resourceUri })).contents[0];
    report.view = { mimeType: contents.mimeType, meta: contents._meta ?? null };

    // The view's frame: scripts only, in an origin of its own. The bridge
    // listens before the view is loaded, so its first message is heard.
    const frame = document.createElement('iframe');
    frame.id = 'view';
    frame.setAttribute('sandbox', 'allow-scripts');
    document.body.append(frame);
    const bridge = new AppBridge(client, HOST_INFO, { serverTools: {} });
    const initialized = new Promise((resolve) => (bridge.oninitialized = resolve));
    await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
    frame.srcdoc = contents.text;
    await initialized;

    report.call = await call();
    await bridge.sendToolInput({ arguments: args });
    await bridge.sendToolResult(report.call);
    return report;
};

/// The server's messages so far (the view's calls go on after `host`).
window.hostTrace = () => trace;
