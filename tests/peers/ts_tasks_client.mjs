// A client of the tasks extension built on its official client library
// (@modelcontextprotocol/ext-tasks, over the TypeScript SDK v2 Client), against a
// 2026-07-28 server over Streamable HTTP or stdio.
//
// Usage: node ts_tasks_client.mjs --url URL
//        node ts_tasks_client.mjs -- COMMAND ARGS...   (a server it starts on stdio)
//
// It calls `confirm_delete` (a task that asks for a confirmation, which it gives
// through the library's input handler), then `slow_compute` for 30 s (a task it
// cancels). The packages are loaded from $MCP_PEERS_TASKS_DIR/node_modules. Prints
// one JSON object on stdout.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

console.log = console.info = console.debug = console.error;

const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const command = split >= 0 ? argv.slice(split + 1) : [];
const { values: opt } = parseArgs({ args: split >= 0 ? argv.slice(0, split) : argv, options: { url: { type: 'string' } } });
const modules = join(process.env.MCP_PEERS_TASKS_DIR, 'node_modules');
const load = (name) => import(pathToFileURL(join(modules, name)).href);
const { Client, StreamableHTTPClientTransport } = await load('@modelcontextprotocol/client/dist/index.mjs');
const { StdioClientTransport } = await load('@modelcontextprotocol/client/dist/stdio.mjs');
const { createTaskSessionFromClient, resultFromTaskOutcome } = await load(
    '@modelcontextprotocol/ext-tasks/dist/client/index.js',
);

const VERSION = '2026-07-28';
const capabilities = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const clientInfo = { name: 'ext-tasks-peer', version: '1.0.0' };
const client = new Client(clientInfo, { versionNegotiation: { mode: { pin: VERSION } }, capabilities });
const transport = opt.url
    ? new StreamableHTTPClientTransport(new URL(opt.url))
    : new StdioClientTransport({ command: command[0], args: command.slice(1), env: { ...process.env } });
await client.connect(transport);

let nextId = 1;
const answer = (message) => (message.error ? { kind: 'error', error: message.error } : { kind: 'result', result: message.result });

// The library's requests, as a 2026-07-28 client posts them over HTTP: the
// standard headers, the answer read from JSON or from the SSE events.
const postRaw = async (bare, options) => {
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

// On stdio, the library's requests share the client's pipe: each goes out
// with an id of its own (a string, where the client's are numbers), and its
// response is taken off the transport before the client would see it. An
// aborted request is cancelled as stdio cancels (`notifications/cancelled`).
const pending = new Map();
if (!opt.url) {
    const forward = transport.onmessage;
    transport.onmessage = (message, extra) => {
        const settle = pending.get(message.id);
        if (settle && ('result' in message || 'error' in message)) {
            pending.delete(message.id);
            return settle(message);
        }
        return forward?.call(transport, message, extra);
    };
}
const sendRaw = (bare, options) =>
    new Promise((resolve, reject) => {
        const id = `ext-tasks-${nextId++}`;
        pending.set(id, (message) => resolve(answer(message)));
        options?.signal?.addEventListener('abort', () => {
            pending.delete(id);
            transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } });
            reject(options.signal.reason);
        });
        transport.send({ jsonrpc: '2.0', id, ...bare }).catch((error) => {
            pending.delete(id);
            reject(error);
        });
    });
const rawDispatch = opt.url ? postRaw : sendRaw;

const asked = [];
const session = createTaskSessionFromClient(client, {
    endpointId: opt.url ?? `stdio:${command.join(' ')}`,
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
