// my-router: an MCP server written in TypeScript, served by mcp-wit as a
// WebAssembly component.
//
//   npm install        (once)
//   mcp-wit build      (or: npm run build) -> build/my-router.wasm
//   mcp-wit serve build/my-router.wasm
//
// Each registration is one tool, resource or prompt: its zod shape is the
// input schema. Rename things, replace the bodies, keep the shape.
import { Router, z } from '@mcp-wit/sdk';

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

app.resource('readme', 'template://readme', { mimeType: 'text/markdown', description: 'What this router offers' }, (uri) => ({
  contents: [{ uri, text: '# my-router\n\nTools: `reverse`, `greet`. Prompt: `welcome`.\n' }],
}));

app.prompt(
  'welcome',
  { description: 'A welcome message for a new user', argsSchema: { name: z.string().describe('Who to welcome') } },
  ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Write a one-line welcome for ${name}.` } }] }),
);

export const { router, extension, presentation } = app.exports();
