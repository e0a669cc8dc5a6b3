#!/usr/bin/env node
// Builds a router component from a TypeScript or JavaScript module: bundles
// it with what it imports (the SDK, zod…) into one ES module, then turns that
// into a component of the world `mcp-wit:extension/router`, against the WIT
// files shipped in this package.
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, basename, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const usage = `usage: mcp-wit-build <entry.ts|entry.js> [-o router.wasm] [--backend quickjs|starlingmonkey]
                     [--opt-size] [--no-minify] [--bundle-out bundle.js]

  --backend quickjs         (default) QuickJS without async: ~1.7 MB components that
                            compile in about a second; handlers must be synchronous
                            (the context's calls to the client are).
  --backend starlingmonkey  componentize-js (SpiderMonkey): ~12 MB components, slow
                            first compile; async handlers are awaited.
  --world NAME              router (default), talking-router or identified-router
                            of mcp-wit:extension (the SDK uses router's imports and
                            exports: keep the default).
  --opt-size                QuickJS: its runtime built for size (about 0.5 MB less,
                            calls about 40% slower).
  --no-minify               keep the bundle readable (it is minified by default:
                            smaller components that compile faster).
  --bundle-out FILE         also write the bundled module there.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: 'string', short: 'o' },
    backend: { type: 'string', default: 'quickjs' },
    world: { type: 'string', default: 'router' },
    'bundle-out': { type: 'string' },
    'opt-size': { type: 'boolean', default: false },
    'no-minify': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help || positionals.length !== 1) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}
const entry = resolve(positionals[0]);
const out = resolve(values.out ?? `${basename(entry, extname(entry))}.wasm`);
const backend = { qjs: 'quickjs', sm: 'starlingmonkey' }[values.backend] ?? values.backend;
if (!['quickjs', 'starlingmonkey'].includes(backend)) {
  console.error(`unknown backend ${values.backend}\n\n${usage}`);
  process.exit(2);
}
const witPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'wit');
const world = `mcp-wit:extension/${values.world}`;

const started = Date.now();
// The router world exports `presentation` too; a module written before it
// (`export const { router, extension } = app.exports()`) gets one that
// decorates nothing, so that it still builds.
let shimDir;
let input = entry;
if (values.world === 'router') {
  shimDir = await mkdtemp(join(tmpdir(), 'mcp-wit-entry-'));
  input = join(shimDir, 'entry.js');
  const from = JSON.stringify(entry);
  await writeFile(
    input,
    `export * from ${from};\nimport * as app from ${from};\n` +
      `export const presentation = app.presentation ?? { decorations: () => [] };\n`,
  );
}
const { rolldown } = await import('rolldown');
const bundle = await rolldown({
  input,
  // The component's imports are bound by the componentizer, not bundled.
  external: [/^wasi:/, /^wasix:/, /^mcp-wit:/],
  // An imported `.html` file (an MCP App's view) is its text.
  moduleTypes: { '.html': 'text' },
  platform: 'neutral',
  resolve: { conditionNames: ['import', 'module', 'default'], mainFields: ['module', 'main'] },
  logLevel: 'warn',
});
const { output } = await bundle.generate({ format: 'esm', codeSplitting: false, minify: !values['no-minify'] });
await bundle.close();
if (shimDir) await rm(shimDir, { recursive: true, force: true });
const code = output[0].code;
if (values['bundle-out']) await writeFile(resolve(values['bundle-out']), code);

let component;
if (backend === 'quickjs') {
  const { componentize } = await import('componentize-qjs');
  // `sync`: the host does not take component-model async builtins.
  ({ component } = await componentize({ witPath, jsSource: code, world, sync: true, optSize: values['opt-size'] }));
} else {
  const { componentize } = await import('@bytecodealliance/componentize-js');
  const work = await mkdtemp(join(tmpdir(), 'mcp-wit-build-'));
  try {
    const sourcePath = join(work, 'router.js');
    await writeFile(sourcePath, code);
    ({ component } = await componentize({
      sourcePath,
      witPath,
      worldName: world,
      // A router reaches the outside through its client only; stdio stays so
      // that console output reaches the host's guest log.
      disableFeatures: ['http', 'fetch-event', 'random', 'clocks'],
    }));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
await mkdir(dirname(out), { recursive: true });
await writeFile(out, component);
console.error(`${out}: ${(component.length / 1e6).toFixed(2)} MB (${backend}, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
