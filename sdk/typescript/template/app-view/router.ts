// my-router: an MCP App written in TypeScript, served by mcp-wit as a
// WebAssembly component: a tool that comes with an HTML view, which a client
// that hosts MCP Apps (Claude, ChatGPT, VS Code, Goose, the MCP Inspector…)
// renders in a sandboxed frame.
//
//   npm install        (once)
//   mcp-wit build      (or: npm run build) -> build/my-router.wasm
//   mcp-wit serve build/my-router.wasm --http 127.0.0.1:8080
//
// - `show_sum` adds two numbers. Its `_meta.ui` names the view; a client that
//   hosts apps shows the view with the result, any other gets a sentence.
// - `add` is the tool the view calls back through its host (`visibility:
//   ['app']`: hosts keep it from the model).
// - `ui://my-router/sum.html` is the view: `view.html`, bundled into the
//   component as text.
import { Router, z } from '@mcp-wit/sdk';
import view from './view.html';

const VIEW = 'ui://my-router/sum.html';
const operands = { a: z.number().describe('Left operand'), b: z.number().describe('Right operand') };

const app = new Router({
  name: 'my-router',
  instructions: 'Adds numbers and shows the sum in a view.',
  icons: [{ src: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=', mimeType: 'image/svg+xml' }],
});

app.registerAppTool(
  'show_sum',
  { description: 'Adds two numbers and shows the sum in a view', inputSchema: operands, _meta: { ui: { resourceUri: VIEW } } },
  ({ a, b }, ctx) =>
    // The view reads the sum from the result the host hands it.
    ctx.hostsApps() ? JSON.stringify({ sum: a + b }) : `${a} + ${b} = ${a + b}`,
);

app.registerAppTool(
  'add',
  { description: 'Adds two numbers (for the view)', inputSchema: operands, _meta: { ui: { resourceUri: VIEW, visibility: ['app'] } } },
  ({ a, b }) => JSON.stringify({ sum: a + b }),
);

app.registerAppResource('sum-view', VIEW, { description: "The sum's view", _meta: { ui: { prefersBorder: true } } }, (uri) => ({
  contents: [{ uri, text: view }],
}));

export const { router, extension, presentation } = app.exports();
