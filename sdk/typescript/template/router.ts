// my-router: an MCP server written in TypeScript, served by mcp-wit as a
// WebAssembly component.
//
//   npm install        (once)
//   mcp-wit build      (or: npm run build) -> build/my-router.wasm
//   mcp-wit serve build/my-router.wasm --dir ./notes:/notes:ro
//
// Each registration is one tool, resource or prompt: its zod shape is the
// input schema. Rename things, replace the bodies, keep the shape.
import { Router, z } from '@mcp-wit/sdk';
// Node's `fs`, the part a tool needs (`import … from 'node:fs'` works too).
// The router reaches only the directories the server grants with `--dir`.
import { readFileSync, readdirSync } from '@mcp-wit/sdk/fs';

const app = new Router({ name: 'my-router', instructions: 'Reverses text and greets people.' });

app.tool(
  'reverse',
  {
    description: 'Reverses a string',
    inputSchema: { text: z.string().min(1).describe('The text to reverse') },
    outputSchema: { text: z.string(), length: z.number().int() },
    annotations: { readOnlyHint: true },
  },
  ({ text }) => ({ structuredContent: { text: [...text].reverse().join(''), length: [...text].length } }),
);

app.tool(
  'greet',
  { description: 'Asks the user their name (elicitation), reporting progress and a log line on the way' },
  (ctx) => {
    ctx.progress(0, 2, 'asking');
    ctx.log('info', 'greeting someone');
    const answer = ctx.elicit('What is your name?', { name: z.string().describe('What should I call you?') });
    ctx.progress(2, 2, 'done');
    if (answer.action !== 'accept' || !answer.content) return 'Hello, whoever you are!';
    return `Hello, ${answer.content.name}!`;
  },
);

app.tool(
  'list_files',
  {
    description: 'Lists a directory the server grants (serve with --dir HOST:/notes:ro)',
    inputSchema: { path: z.string().default('/notes').describe('A granted directory, or one under it') },
    outputSchema: { files: z.array(z.object({ name: z.string(), directory: z.boolean() })) },
    annotations: { readOnlyHint: true },
  },
  ({ path }) => ({
    structuredContent: {
      files: readdirSync(path, { withFileTypes: true }).map((entry) => ({ name: entry.name, directory: entry.isDirectory() })),
    },
  }),
);

app.tool(
  'read_file',
  {
    description: 'Reads a text file under a directory the server grants',
    inputSchema: { path: z.string().describe('The file, e.g. /notes/todo.md') },
    annotations: { readOnlyHint: true },
  },
  // A missing file, or one under no grant, throws: the client gets a tool
  // error saying so (`ENOENT: no such file or directory, open '…'`).
  ({ path }) => readFileSync(path, 'utf8'),
);

app.resource('readme', 'template://readme', { mimeType: 'text/markdown', description: 'What this router offers' }, (uri) => ({
  contents: [{ uri, text: '# my-router\n\nTools: `reverse`, `greet`, `list_files`, `read_file`. Prompt: `welcome`.\n' }],
}));

app.prompt(
  'welcome',
  { description: 'A welcome message for a new user', argsSchema: { name: z.string().describe('Who to welcome') } },
  ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Write a one-line welcome for ${name}.` } }] }),
);

export const { router, extension, presentation } = app.exports();
