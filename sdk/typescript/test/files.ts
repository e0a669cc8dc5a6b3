// A router the tests build to exercise the file API through `node:fs` (the
// name the build maps to `@mcp-wit/sdk/fs`): served with a read-write grant
// at /rw and a read-only one at /ro, its one tool reports what each call
// gave or threw.
import { Router } from '@mcp-wit/sdk';
import * as fs from 'node:fs';

const app = new Router({ name: 'files' });

function code(run: () => unknown): string {
  try {
    run();
    return 'no error';
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    return `${code}|${message}`;
  }
}

app.tool('exercise', { description: 'Reads, writes, lists and removes files under /rw; tries /ro and /elsewhere' }, () => {
  const text = 'héllo ✓ 😀';
  fs.writeFileSync('/rw/a.txt', text);
  fs.appendFileSync('/rw/a.txt', '\nsecond line');
  const made = fs.mkdirSync('/rw/x/y', { recursive: true });
  fs.writeFileSync('/rw/x/y/b.bin', new Uint8Array([0, 255, 1]));
  const big = 'z'.repeat(200_000);
  fs.writeFileSync('/rw/x/big.txt', big);
  const report = {
    text: fs.readFileSync('/rw/a.txt', 'utf8'),
    bytes: Array.from(fs.readFileSync('/rw/x/y/b.bin')),
    bigLength: fs.readFileSync('/rw/x/big.txt', { encoding: 'utf8' }).length,
    made,
    size: fs.statSync('/rw/a.txt').size,
    kinds: fs.readdirSync('/rw', { withFileTypes: true }).map((e) => `${e.name}:${e.isDirectory() ? 'dir' : 'file'}`),
    renamed: (fs.renameSync('/rw/x/y/b.bin', '/rw/b.bin'), fs.existsSync('/rw/x/y/b.bin') ? 'still there' : 'moved'),
    removed: (fs.rmSync('/rw/x', { recursive: true }), fs.existsSync('/rw/x') ? 'still there' : 'gone'),
    names: fs.readdirSync('/rw'),
    missingStat: fs.statSync('/rw/none', { throwIfNoEntry: false }) ?? 'undefined',
    missing: code(() => fs.readFileSync('/rw/none', 'utf8')),
    exclusive: code(() => fs.writeFileSync('/rw/a.txt', 'again', { flag: 'wx' })),
    notDirectory: code(() => fs.readdirSync('/rw/a.txt')),
    directory: code(() => fs.rmSync('/rw/sub')),
    outside: code(() => fs.readFileSync('/etc/passwd', 'utf8')),
    escape: code(() => fs.readFileSync('/rw/../etc/passwd', 'utf8')),
    readOnly: code(() => fs.writeFileSync('/ro/new.txt', 'no')),
    readOnlyRead: fs.readFileSync('/ro/kept.txt', 'utf8'),
  };
  return { structuredContent: report };
});

export const { router, extension, presentation } = app.exports();
