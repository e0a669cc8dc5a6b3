// Drives a real browser as an MCP Apps host: bundles `host.mjs` (the
// TypeScript SDK client and ext-apps' AppBridge) with esbuild, serves it
// from a page on 127.0.0.1, opens the page in headless Chromium through
// playwright-core, and has it connect to the server at --url, open --tool's
// view and call the tool. It then waits for the view (in its sandboxed
// iframe) to show the tool's result and the answer of the tool it called
// back, and prints one JSON object: what the host saw, and the view's text.
//
// Usage:
//   node browser_host.mjs --url URL [--mode auto|legacy|2026-07-28] [--tool NAME]
//     [--args JSON] [--no-apps] [--trace FILE] [--chromium PATH]
//
// The packages come from $MCP_PEERS_BROWSER_DIR/node_modules (where the
// tests install them); Chromium from --chromium, $CHROMIUM or Debian's
// /usr/bin/chromium.

import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';

console.log = console.info = console.debug = console.error;

const { values: opt } = parseArgs({
    options: {
        url: { type: 'string' },
        mode: { type: 'string', default: 'auto' },
        tool: { type: 'string', default: 'show_sum' },
        args: { type: 'string', default: '{"a":2,"b":3}' },
        'no-apps': { type: 'boolean', default: false },
        trace: { type: 'string' },
        chromium: { type: 'string', default: process.env.CHROMIUM ?? '/usr/bin/chromium' },
        timeout: { type: 'string', default: '60' }
    }
});
if (!opt.url) {
    console.error('--url URL is required');
    process.exit(2);
}
const packages = join(process.env.MCP_PEERS_BROWSER_DIR ?? '.', 'node_modules');
const require = createRequire(join(packages, 'noop.js'));
const esbuild = require('esbuild');
const { chromium } = require('playwright-core');

const here = dirname(fileURLToPath(import.meta.url));
const bundle = await esbuild.build({
    entryPoints: [join(here, 'host.mjs')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    nodePaths: [packages],
    logLevel: 'error'
});
const script = bundle.outputFiles[0].text;
const page = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>host</title></head>' +
    '<body><script type="module" src="/host.js"></script></body></html>';

const server = createServer((request, response) => {
    const [type, body] = request.url === '/host.js' ? ['text/javascript', script] : ['text/html', page];
    response.writeHead(200, { 'content-type': `${type}; charset=utf-8` });
    response.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const timeout = Number(opt.timeout) * 1000;
const browser = await chromium.launch({ executablePath: opt.chromium, args: ['--no-sandbox'], timeout });
const out = {};
try {
    const tab = await browser.newPage();
    tab.setDefaultTimeout(timeout);
    tab.on('console', (message) => console.error(`[page] ${message.text()}`));
    tab.on('pageerror', (error) => console.error(`[page error] ${error.message}`));
    await tab.goto(`${origin}/`);
    await tab.waitForFunction(() => typeof window.host === 'function');
    const args = JSON.parse(opt.args);
    Object.assign(out, await tab.evaluate((o) => window.host(o), {
        url: opt.url,
        mode: opt.mode,
        tool: opt.tool,
        args,
        apps: !opt['no-apps']
    }));
    if (out.view) {
        // What a person would read in the view, once it has both answers.
        const view = tab.frameLocator('#view');
        await view.locator('#plus-one').filter({ hasNotText: '…' }).waitFor();
        out.viewText = {
            sum: await view.locator('#sum').textContent(),
            plusOne: await view.locator('#plus-one').textContent()
        };
        out.frameSandbox = await tab.locator('#view').getAttribute('sandbox');
    }
    const trace = await tab.evaluate(() => window.hostTrace());
    if (opt.trace) writeFileSync(opt.trace, trace.map((line) => line + '\n').join(''));
} catch (e) {
    out.error = e?.message ?? String(e);
} finally {
    await browser.close();
    server.close();
}
process.stdout.write(JSON.stringify(out) + '\n', () => process.exit(out.error ? 1 : 0));
