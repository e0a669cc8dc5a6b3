#!/usr/bin/env node
// Builds a router component from a TypeScript or JavaScript module: bundles
// it with what it imports (the SDK, zod…) into one ES module, then turns that
// into a component of the world `mcp-wit:extension/router`, against the WIT
// files shipped in this package.
import { copyFile, mkdtemp, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
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
                            exports: keep the default). With router, the component
                            also imports wasi:filesystem for the SDK's file API.
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
const sdkRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const world = values.world === 'router' ? 'mcp-wit:sdk/router@0.1.0' : `mcp-wit:extension/${values.world}`;

// The world `router` builds against: the extension's, and the filesystem
// the SDK's file API (`@mcp-wit/sdk/fs`, `node:fs`) reads through. WASI's
// WIT comes from jco, which ships it (pinned in package.json).
const FILES_WORLD = `package mcp-wit:sdk@0.1.0 {
    world router {
        include mcp-wit:extension/router@0.1.0;
        import wasi:filesystem/preopens@0.2.12;
        import wasi:filesystem/types@0.2.12;
    }
}
`;
async function witDirectory(work) {
  const shipped = join(sdkRoot, 'wit');
  if (values.world !== 'router') return shipped;
  const dir = join(work, 'wit');
  await mkdir(join(dir, 'deps'), { recursive: true });
  for (const file of await readdir(shipped)) {
    if (file.endsWith('.wit')) await copyFile(join(shipped, file), join(dir, file));
  }
  await writeFile(join(dir, 'sdk.wit'), FILES_WORLD);
  const wasi = await installed(join('@bytecodealliance', 'jco', 'lib', 'wit', 'builtin', '0.2.12'));
  if (!wasi) throw new Error("@bytecodealliance/jco is not installed beside the SDK (it has WASI's WIT files): run `npm install`");
  for (const name of ['io', 'clocks', 'filesystem']) {
    await mkdir(join(dir, 'deps', name));
    await copyFile(join(wasi, `wasi-${name}`, 'package.wit'), join(dir, 'deps', name, 'package.wit'));
  }
  return dir;
}

/** `node_modules/<path>` in the SDK's folder or the nearest one above it that has it. */
async function installed(path) {
  for (let dir = sdkRoot; ; dir = dirname(dir)) {
    const found = join(dir, 'node_modules', path);
    if (await stat(found).then(() => true, () => false)) return found;
    if (dirname(dir) === dir) return undefined;
  }
}

// `node:fs` and `fs/promises` imports are the SDK's file API.
const fsModules = { fs: '@mcp-wit/sdk/fs', 'fs/promises': '@mcp-wit/sdk/fs/promises' };
const nodeFs = {
  name: 'mcp-wit-node-fs',
  async resolveId(source, importer) {
    const target = fsModules[source.replace(/^node:/, '')];
    if (!target) return null;
    return (
      (await this.resolve(target, importer, { skipSelf: true })) ??
      (await this.resolve(target, join(sdkRoot, 'package.json'), { skipSelf: true }))
    );
  },
};

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
  plugins: [nodeFs],
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
const work = await mkdtemp(join(tmpdir(), 'mcp-wit-build-'));
try {
  const witPath = await witDirectory(work);
  if (backend === 'quickjs') {
    const { componentize } = await import('componentize-qjs');
    // `sync`: the host does not take component-model async builtins.
    ({ component } = await componentize({ witPath, jsSource: code, world, sync: true, optSize: values['opt-size'] }));
  } else {
    const { componentize } = await import('@bytecodealliance/componentize-js');
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
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
await mkdir(dirname(out), { recursive: true });
await writeFile(out, component);
console.error(`${out}: ${(component.length / 1e6).toFixed(2)} MB (${backend}, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
