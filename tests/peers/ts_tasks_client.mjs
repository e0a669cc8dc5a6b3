// A client of the tasks extension built on its official client library
// (@modelcontextprotocol/ext-tasks, over the TypeScript SDK v2 Client), against a
// 2026-07-28 server over Streamable HTTP.
//
// Usage: node ts_tasks_client.mjs --url URL
//
// It calls `confirm_delete` (a task that asks for a confirmation, which it gives
// through the library's input handler), then `slow_compute` for 30 s (a task it
// cancels). The packages are loaded from $MCP_PEERS_TASKS_DIR/node_modules. Prints
// one JSON object on stdout.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

console.log = console.info = console.debug = console.error;

const { values: opt } = parseArgs({ options: { url: { type: 'string' } } });
const modules = join(process.env.MCP_PEERS_TASKS_DIR, 'node_modules');
const load = (name) => import(pathToFileURL(join(modules, name)).href);
const { Client, StreamableHTTPClientTransport } = await load('@modelcontextprotocol/client/dist/index.mjs');
const { createTaskSessionFromClient, resultFromTaskOutcome } = await load(
    '@modelcontextprotocol/ext-tasks/dist/client/index.js',
);

const VERSION = '2026-07-28';
const capabilities = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const clientInfo = { name: 'ext-tasks-peer', version: '1.0.0' };
const client = new Client(clientInfo, { versionNegotiation: { mode: { pin: VERSION } }, capabilities });
await client.connect(new StreamableHTTPClientTransport(new URL(opt.url)));

// The library's requests, as a 2026-07-28 client posts them: the standard
// headers, the answer read from JSON or from the SSE events.
let nextId = 1;
const answer = (message) => (message.error ? { kind: 'error', error: message.error } : { kind: 'result', result: message.result });
const rawDispatch = async (bare, options) => {
    const request = { jsonrpc: '2.0', id: nextId++, ...bare };
    const params = request.params ?? {};
    const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': VERSION,
        'mcp-method': request.method,
    };
    const name = request.method === 'tools/call' ? params.name : params.taskId;
    if (name !== undefined) headers['mcp-name'] = name;
    const response = await fetch(opt.url, { method: 'POST', headers, body: JSON.stringify(request), signal: options?.signal });
    const text = await response.text();
    if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        const messages = text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)));
        return answer(messages.find((message) => message.id === request.id));
    }
    return answer(JSON.parse(text));
};

const asked = [];
const session = createTaskSessionFromClient(client, {
    endpointId: opt.url,
    rawDispatch,
    v2RequestFraming: { protocolVersion: VERSION, clientInfo, clientCapabilities: capabilities },
    onInputRequest: async (request) => {
        asked.push(request);
        return { action: 'accept', content: { confirm: true } };
    },
});

const report = { era: client.getProtocolEra(), extensions: client.getServerCapabilities()?.extensions ?? null };
const confirmed = await session.callTool('confirm_delete', { filename: 'peer.txt' });
report.confirm = { kind: confirmed.kind, taskId: confirmed.handle?.taskId ?? null };
report.confirm.result = resultFromTaskOutcome((await confirmed.settle()).outcome);
report.asked = asked;
const slow = await session.callTool('slow_compute', { seconds: 30, label: 'peer' });
report.slow = { kind: slow.kind, taskId: slow.handle?.taskId ?? null };
await slow.cancel();
report.slow.outcome = (await slow.settle()).outcome;
await session.close();
await client.close();
process.stdout.write(JSON.stringify(report) + '\n');
