// MCP client peer built on the official TypeScript SDK (@modelcontextprotocol/client 2.x).
//
// Usage:
//   node ts_client.mjs [--mode auto|legacy|2026-07-28] [options] --url URL
//   node ts_client.mjs [--mode auto|legacy|2026-07-28] [options] -- CMD ARGS...
//
// The SDK is loaded from $MCP_PEERS_NODE_DIR/node_modules (default: peers/node
// in the tools cache, $MCP_WIT_TOOLS or ~/.cache/mcp-wit-tools, where the tests
// install it). Prints one JSON object on stdout.

import { createWriteStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

// stdout carries only the result object; the SDK's console diagnostics go to stderr.
console.log = console.info = console.debug = console.error;

const tools = process.env.MCP_WIT_TOOLS || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mcp-wit-tools');
const nodeDir = process.env.MCP_PEERS_NODE_DIR ?? join(tools, 'peers/node');
const pkgDir = join(nodeDir, 'node_modules/@modelcontextprotocol/client');
const pkgExports = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).exports;
const load = (sub) => import(pathToFileURL(join(pkgDir, pkgExports[sub].import.default)).href);
const { Client, StreamableHTTPClientTransport } = await load('.');
const { StdioClientTransport } = await load('./stdio');

const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const command = split >= 0 ? argv.slice(split + 1) : [];
const { values: opt } = parseArgs({
    args: split >= 0 ? argv.slice(0, split) : argv,
    options: {
        mode: { type: 'string', default: 'auto' },
        url: { type: 'string' },
        tool: { type: 'string' },
        args: { type: 'string', default: '{}' },
        // Call the tool this many times; every result is reported (`calls`).
        repeat: { type: 'string', default: '1' },
        resource: { type: 'string' },
        prompt: { type: 'string' },
        'prompt-args': { type: 'string', default: '{}' },
        'complete-prompt': { type: 'string' },
        'complete-arg': { type: 'string' },
        timeout: { type: 'string', default: '30' },
        trace: { type: 'string' },
        // accept | decline: answer the server's elicitations (and sampling)
        // and record what it asked.
        'talk-back': { type: 'string' }
    }
});
if (!opt.url === (command.length === 0)) {
    console.error('give exactly one of --url URL or -- CMD ARGS...');
    process.exit(2);
}

const trace = opt.trace ? createWriteStream(opt.trace) : undefined;
const record = (text) => {
    const line = text.trim();
    if (!line) return;
    try {
        trace.write(JSON.stringify(JSON.parse(line)) + '\n');
    } catch {
        trace.write(line.replace(/\r?\n/g, ' ') + '\n');
    }
};
const recordEvent = (event) =>
    record(
        event
            .split(/\r?\n/)
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).replace(/^ /, ''))
            .join('\n')
    );

// Every StdioClientTransport (including the throwaway probe sibling the SDK
// spawns in auto mode) taps its child's stdout once started.
if (trace) {
    const start = StdioClientTransport.prototype.start;
    StdioClientTransport.prototype.start = async function () {
        await start.call(this);
        let buffer = '';
        this._process.stdout.on('data', (chunk) => {
            const lines = (buffer + chunk.toString('utf8')).split('\n');
            buffer = lines.pop();
            lines.forEach(record);
        });
    };
}

// Over HTTP, read a clone of each JSON or SSE response body as it arrives.
async function tap(body, sse) {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of body) {
        buffer += decoder.decode(chunk, { stream: true });
        if (!sse) continue;
        const events = buffer.split(/\r?\n\r?\n/);
        buffer = events.pop();
        events.forEach(recordEvent);
    }
    if (sse) recordEvent(buffer);
    else record(buffer);
}

async function tracingFetch(url, init) {
    const response = await fetch(url, init);
    const type = response.headers.get('content-type') ?? '';
    if (response.body && /json|event-stream/.test(type)) {
        tap(response.clone().body, type.includes('event-stream')).catch(() => {});
    }
    return response;
}

const mode = opt.mode === 'auto' || opt.mode === 'legacy' ? opt.mode : { pin: opt.mode };
const talkBack = opt['talk-back'] ? { sampled: [], elicited: [] } : undefined;
const capabilities = talkBack ? { sampling: {}, elicitation: {} } : undefined;
const client = new Client({ name: 'ts-sdk-peer', version: '1.0.0' }, { versionNegotiation: { mode }, capabilities });
if (talkBack) {
    client.setRequestHandler('sampling/createMessage', async (request) => {
        talkBack.sampled.push(request.params);
        return {
            model: 'test-model',
            role: 'assistant',
            content: { type: 'text', text: 'This is a test response from the client' }
        };
    });
    client.setRequestHandler('elicitation/create', async (request) => {
        talkBack.elicited.push(request.params);
        return opt['talk-back'] === 'decline'
            ? { action: 'decline' }
            : { action: 'accept', content: { username: 'testuser', email: 'test@example.com' } };
    });
}
const requestOptions = { timeout: Number(opt.timeout) * 1000 };
const transport = opt.url
    ? new StreamableHTTPClientTransport(new URL(opt.url), trace ? { fetch: tracingFetch } : {})
    : new StdioClientTransport({ command: command[0], args: command.slice(1), env: { ...process.env } });

const failure = (e) => ({ error: e?.message ?? String(e), code: typeof e?.code === 'number' ? e.code : null });
const step = async (fn) => {
    try {
        return await fn();
    } catch (e) {
        return failure(e);
    }
};

try {
    await client.connect(transport, requestOptions);
} catch (e) {
    console.error(`connect failed: ${failure(e).error}`);
    process.exit(1);
}

const [argName, ...argValue] = (opt['complete-arg'] ?? '').split('=');
const out = {
    protocolVersion: client.getNegotiatedProtocolVersion(),
    serverInfo: client.getServerVersion() ?? null,
    serverCapabilities: client.getServerCapabilities() ?? null
};
out.tools = await step(async () => (await client.listTools(undefined, requestOptions)).tools);
out.calls = [];
for (let i = 0; opt.tool && i < Number(opt.repeat); i++) {
    out.calls.push(
        await step(() => client.callTool({ name: opt.tool, arguments: JSON.parse(opt.args) }, requestOptions))
    );
}
out.call = opt.tool ? out.calls[0] : null;
out.resources = await step(async () => (await client.listResources(undefined, requestOptions)).resources);
out.read = opt.resource ? await step(() => client.readResource({ uri: opt.resource }, requestOptions)) : null;
out.prompts = await step(async () => (await client.listPrompts(undefined, requestOptions)).prompts);
out.prompt = opt.prompt
    ? await step(() => client.getPrompt({ name: opt.prompt, arguments: JSON.parse(opt['prompt-args']) }, requestOptions))
    : null;
out.templates = await step(async () => (await client.listResourceTemplates(undefined, requestOptions)).resourceTemplates);
out.complete = opt['complete-prompt']
    ? await step(() =>
          client.complete(
              {
                  ref: { type: 'ref/prompt', name: opt['complete-prompt'] },
                  argument: { name: argName, value: argValue.join('=') }
              },
              requestOptions
          )
      )
    : null;
if (talkBack) out.talkBack = talkBack;

await client.close().catch((e) => console.error(`close failed: ${e?.message ?? e}`));
process.stdout.write(JSON.stringify(out) + '\n', () => {
    if (trace) trace.end(() => process.exit(0));
    else process.exit(0);
});
