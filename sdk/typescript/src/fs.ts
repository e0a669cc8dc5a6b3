// Files for routers: the part of Node's `fs` a tool needs (read, write,
// list, stat, make and remove directories, rename, and the same as
// promises), over `wasi:filesystem`. A router reaches only the directories
// its server grants (`mcp-wit serve --dir HOST[:GUEST][:ro|:rw]`), under
// their guest paths; `import … from 'node:fs'` is built into this module.
//
// Errors are Node's: an `Error` with `code` (`ENOENT`, `EACCES`…),
// `syscall` and `path`, its message `ENOENT: no such file or directory,
// open '/notes/a.txt'`. A path under no grant, and a write under a
// read-only one, say which grant would allow it.
import * as preopens from 'wasi:filesystem/preopens@0.2.12';
import type { Descriptor, DescriptorStat, DescriptorType, ErrorCode } from 'wasi:filesystem/types@0.2.12';

import { decodeUtf8, encodeUtf8 } from './utf8.js';

/** Text encodings the file API reads and writes. */
export type Encoding = 'utf8' | 'utf-8';
/** A file's contents: text, or its bytes. */
export type FileData = string | Uint8Array;

/** Node's error shape: `code`, `syscall` and `path` beside the message. */
export interface FsError extends Error {
  code: string;
  syscall: string;
  path: string;
}

/** `accessSync`'s modes. */
export const constants = { F_OK: 0, X_OK: 1, W_OK: 2, R_OK: 4 } as const;

/** A directory the server granted, as the guest sees it. */
interface Grant {
  /** Its guest path, normalized. */
  path: string;
  dir: Descriptor;
  writable: boolean;
}

// Read when first needed, not at import: the build runs the module once and
// keeps its state, when no directory is granted.
let grants: Grant[] | undefined;
// Whether the bindings take and give `u64` as `bigint` (StarlingMonkey) or
// as `number` (QuickJS).
let bigints = false;

function granted(): Grant[] {
  if (!grants) {
    grants = preopens.getDirectories().map(([dir, path]) => ({
      path: normalize(path),
      dir,
      writable: dir.getFlags().mutateDirectory === true,
    }));
    // The longest guest path first: a grant inside another is its own.
    grants.sort((a, b) => b.path.length - a.path.length);
    if (grants.length > 0) bigints = typeof grants[0].dir.stat().size === 'bigint';
  }
  return grants;
}

function u64(value: number): number {
  return (bigints ? BigInt(value) : value) as number;
}

/** An absolute path with `.`, `..` and repeated slashes resolved (relative ones from `/`). */
function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** A path as given, the grant it is under, and the path relative to that (`.` for the grant itself). */
interface Located {
  grant: Grant;
  relative: string;
  path: string;
}

/** Where a path is among the grants. */
function locate(path: unknown, syscall: string): Located {
  if (typeof path !== 'string') throw new TypeError(`${syscall}: the path must be a string, got ${typeof path}`);
  const full = normalize(path);
  for (const grant of granted()) {
    if (full === grant.path) return { grant, relative: '.', path };
    const prefix = grant.path === '/' ? '/' : `${grant.path}/`;
    if (full.startsWith(prefix)) return { grant, relative: full.slice(prefix.length), path };
  }
  const paths = granted()
    .map((g) => g.path)
    .sort();
  const which = paths.length > 0 ? `granted: ${paths.join(', ')}` : 'none is granted';
  throw fsError(
    'ENOENT',
    syscall,
    path,
    ` (a router sees only the directories its server grants, \`mcp-wit serve --dir HOST[:GUEST]\`: ${full} is under none of them; ${which})`,
  );
}

// WASI's error codes as Node names them, with libuv's wording.
const codes: Partial<Record<ErrorCode, [string, string]>> = {
  access: ['EACCES', 'permission denied'],
  'not-permitted': ['EPERM', 'operation not permitted'],
  'read-only': ['EROFS', 'read-only file system'],
  'no-entry': ['ENOENT', 'no such file or directory'],
  exist: ['EEXIST', 'file already exists'],
  'not-directory': ['ENOTDIR', 'not a directory'],
  'is-directory': ['EISDIR', 'illegal operation on a directory'],
  'not-empty': ['ENOTEMPTY', 'directory not empty'],
  invalid: ['EINVAL', 'invalid argument'],
  io: ['EIO', 'i/o error'],
  loop: ['ELOOP', 'too many symbolic links encountered'],
  'name-too-long': ['ENAMETOOLONG', 'name too long'],
  'insufficient-space': ['ENOSPC', 'no space left on device'],
  quota: ['EDQUOT', 'disk quota exceeded'],
  'file-too-large': ['EFBIG', 'file too large'],
  'cross-device': ['EXDEV', 'cross-device link not permitted'],
  busy: ['EBUSY', 'resource busy or locked'],
  'bad-descriptor': ['EBADF', 'bad file descriptor'],
  unsupported: ['ENOTSUP', 'operation not supported'],
};
const descriptions: Record<string, string> = Object.fromEntries(Object.values(codes).map(([code, text]) => [code, text]));

function fsError(code: string, syscall: string, path: string, hint = ''): FsError {
  const description = descriptions[code] ?? code;
  const error = new Error(`${code}: ${description}, ${syscall} '${path}'${hint}`) as FsError;
  error.code = code;
  error.syscall = syscall;
  error.path = path;
  return error;
}

/** Runs a WASI call on a located path, its error code turned into Node's error. */
function attempt<T>(at: { grant: Grant; path: string }, syscall: string, writes: boolean, run: () => T): T {
  try {
    return run();
  } catch (thrown) {
    const payload = (thrown as { payload?: unknown } | null)?.payload;
    if (typeof payload !== 'string') throw thrown;
    const [code] = codes[payload as ErrorCode] ?? [`E${payload.toUpperCase().replace(/-/g, '')}`];
    const denied = code === 'EPERM' || code === 'EACCES' || code === 'EROFS';
    throw fsError(code, syscall, at.path, writes && denied && !at.grant.writable ? readOnly(at.grant) : '');
  }
}

/** What a refused write under a read-only grant adds to its message. */
function readOnly(grant: Grant): string {
  return ` (${grant.path} is granted read-only: \`mcp-wit serve --dir HOST:${grant.path}:rw\` grants writing)`;
}

// Drops a WASI resource now rather than at the next garbage collection
// (`Symbol.dispose` is not in the es2022 library the SDK is typed against).
const dispose = (Symbol as { dispose?: symbol }).dispose;
function release(resource: object): void {
  if (dispose) (resource as Record<symbol, (() => void) | undefined>)[dispose]?.();
}

/** Opens, runs `use` on the descriptor, and closes it. */
function withFile<T>(
  path: string,
  syscall: string,
  mode: { write?: boolean; create?: boolean; truncate?: boolean; exclusive?: boolean; directory?: boolean },
  use: (file: Descriptor, at: { grant: Grant; path: string }) => T,
): T {
  const at = locate(path, syscall);
  const writes = mode.write === true || mode.create === true;
  const file = attempt(at, syscall, writes, () =>
    at.grant.dir.openAt(
      { symlinkFollow: true },
      at.relative,
      { create: mode.create, truncate: mode.truncate, exclusive: mode.exclusive, directory: mode.directory },
      mode.directory ? { read: true } : { read: !mode.write, write: mode.write },
    ),
  );
  try {
    return use(file, at);
  } finally {
    release(file);
  }
}

function encodingOf(options: Encoding | { encoding?: Encoding | null; flag?: string } | null | undefined): Encoding | undefined {
  const encoding = typeof options === 'string' ? options : (options?.encoding ?? undefined);
  if (encoding !== undefined && encoding !== 'utf8' && encoding !== 'utf-8') {
    throw new TypeError(`unsupported encoding ${String(encoding)}: the file API reads and writes 'utf8' (or bytes, without one)`);
  }
  return encoding;
}

const CHUNK = 64 * 1024;

/** The file's contents: text with an encoding, else its bytes (a `Uint8Array`; there is no `Buffer`). */
export function readFileSync(path: string, options: Encoding | { encoding: Encoding }): string;
export function readFileSync(path: string, options?: { encoding?: null } | null): Uint8Array;
export function readFileSync(path: string, options?: Encoding | { encoding?: Encoding | null } | null): FileData {
  const encoding = encodingOf(options);
  const bytes = withFile(path, 'open', {}, (file, at) => {
    const chunks: Uint8Array[] = [];
    let length = 0;
    for (;;) {
      const [chunk, end] = attempt(at, 'read', false, () => file.read(u64(CHUNK), u64(length)));
      chunks.push(chunk);
      length += chunk.length;
      if (end || chunk.length === 0) break;
    }
    const all = new Uint8Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      all.set(chunk, offset);
      offset += chunk.length;
    }
    return all;
  });
  return encoding ? decodeUtf8(bytes) : bytes;
}

/** Writes the file whole (`flag`: `w` replaces it, the default; `a` appends; `wx` fails if it exists). */
export function writeFileSync(path: string, data: FileData, options?: Encoding | { encoding?: Encoding | null; flag?: 'w' | 'a' | 'wx' }): void {
  encodingOf(options);
  const flag = (typeof options === 'object' && options?.flag) || 'w';
  if (flag !== 'w' && flag !== 'a' && flag !== 'wx') throw new TypeError(`unsupported flag ${flag}: the file API writes with 'w', 'a' or 'wx'`);
  const bytes = typeof data === 'string' ? encodeUtf8(data) : data;
  if (!(bytes instanceof Uint8Array)) throw new TypeError('the data must be a string or a Uint8Array');
  const mode = { write: true, create: true, truncate: flag === 'w', exclusive: flag === 'wx' };
  withFile(path, 'open', mode, (file, at) => {
    let offset = flag === 'a' ? Number(attempt(at, 'fstat', false, () => file.stat()).size) : 0;
    for (let done = 0; done < bytes.length; ) {
      const written = Number(attempt(at, 'write', true, () => file.write(bytes.subarray(done), u64(offset))));
      done += written;
      offset += written;
    }
  });
}

/** Appends to the file, making it when it does not exist. */
export function appendFileSync(path: string, data: FileData, options?: Encoding | { encoding?: Encoding | null }): void {
  writeFileSync(path, data, { encoding: encodingOf(options), flag: 'a' });
}

/** Copies a file's contents to `destination` (replaced when it exists). */
export function copyFileSync(source: string, destination: string): void {
  writeFileSync(destination, readFileSync(source));
}

/** What kind of file an entry or `Stats` is of, asked as Node asks. */
class OfKind {
  constructor(protected readonly kind: DescriptorType) {}
  isFile(): boolean {
    return this.kind === 'regular-file';
  }
  isDirectory(): boolean {
    return this.kind === 'directory';
  }
  isSymbolicLink(): boolean {
    return this.kind === 'symbolic-link';
  }
}

/** A directory's entry, as `readdirSync(path, { withFileTypes: true })` gives it. */
export class Dirent extends OfKind {
  constructor(
    readonly name: string,
    readonly parentPath: string,
    kind: DescriptorType,
  ) {
    super(kind);
  }
}

/** A directory's entries, by name (sorted). */
export function readdirSync(path: string, options?: { withFileTypes?: false; encoding?: Encoding } | Encoding): string[];
export function readdirSync(path: string, options: { withFileTypes: true }): Dirent[];
export function readdirSync(path: string, options?: { withFileTypes?: boolean; encoding?: Encoding } | Encoding): string[] | Dirent[] {
  const entries = withFile(path, 'scandir', { directory: true }, (dir, at) => {
    const stream = attempt(at, 'scandir', false, () => dir.readDirectory());
    try {
      const found: Dirent[] = [];
      for (;;) {
        const entry = attempt(at, 'scandir', false, () => stream.readDirectoryEntry());
        if (!entry) break;
        found.push(new Dirent(entry.name, path, entry.type));
      }
      return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } finally {
      release(stream);
    }
  });
  return typeof options === 'object' && options.withFileTypes ? entries : entries.map((entry) => entry.name);
}

/** What `statSync` tells of a file (WASI has no owners or permission bits). */
export class Stats extends OfKind {
  readonly size: number;
  readonly nlink: number;
  readonly atimeMs: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly birthtimeMs: number;
  constructor(stat: DescriptorStat) {
    super(stat.type);
    const ms = (time: DescriptorStat['dataAccessTimestamp']) => (time ? Number(time.seconds) * 1000 + time.nanoseconds / 1e6 : 0);
    this.size = Number(stat.size);
    this.nlink = Number(stat.linkCount);
    this.atimeMs = ms(stat.dataAccessTimestamp);
    this.mtimeMs = ms(stat.dataModificationTimestamp);
    this.ctimeMs = ms(stat.statusChangeTimestamp);
    this.birthtimeMs = this.ctimeMs;
  }
  get atime(): Date {
    return new Date(this.atimeMs);
  }
  get mtime(): Date {
    return new Date(this.mtimeMs);
  }
  get ctime(): Date {
    return new Date(this.ctimeMs);
  }
  get birthtime(): Date {
    return new Date(this.birthtimeMs);
  }
}

function stat(path: string, syscall: string, follow: boolean): Stats {
  return statOf(locate(path, syscall), syscall, follow);
}

function statOf(at: Located, syscall: string, follow: boolean): Stats {
  return new Stats(
    attempt(at, syscall, false, () => (at.relative === '.' ? at.grant.dir.stat() : at.grant.dir.statAt({ symlinkFollow: follow }, at.relative))),
  );
}

/** The file's size, kind and times (`throwIfNoEntry: false`: `undefined` for a missing file). */
export function statSync(path: string): Stats;
export function statSync(path: string, options: { throwIfNoEntry: false }): Stats | undefined;
export function statSync(path: string, options?: { throwIfNoEntry?: boolean }): Stats | undefined {
  try {
    return stat(path, 'stat', true);
  } catch (error) {
    if (options?.throwIfNoEntry === false && (error as FsError).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** As `statSync`, of a symbolic link itself. */
export function lstatSync(path: string): Stats {
  return stat(path, 'lstat', false);
}

/** Whether the path names a file or directory this router can reach. */
export function existsSync(path: string): boolean {
  try {
    stat(path, 'stat', true);
    return true;
  } catch {
    return false;
  }
}

/** Throws unless the path exists (and, with `constants.W_OK`, is under a writable grant). */
export function accessSync(path: string, mode: number = constants.F_OK): void {
  const at = locate(path, 'access');
  statOf(at, 'access', true);
  if (mode & constants.W_OK && !at.grant.writable) throw fsError('EACCES', 'access', path, readOnly(at.grant));
}

/** Makes a directory (`recursive`: and its parents, returning the first one made). */
export function mkdirSync(path: string, options?: { recursive?: boolean }): string | undefined {
  const at = locate(path, 'mkdir');
  if (!options?.recursive) {
    attempt(at, 'mkdir', true, () => at.grant.dir.createDirectoryAt(at.relative));
    return undefined;
  }
  let first: string | undefined;
  const parts = at.relative === '.' ? [] : at.relative.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const relative = parts.slice(0, i).join('/');
    const made = `${at.grant.path === '/' ? '' : at.grant.path}/${relative}`;
    const existing = statSync(made, { throwIfNoEntry: false });
    if (existing?.isDirectory()) continue;
    attempt({ grant: at.grant, path: made }, 'mkdir', true, () => at.grant.dir.createDirectoryAt(relative));
    first ??= made;
  }
  return first;
}

/** Removes a file (`recursive`: a directory and what it holds; `force`: nothing to remove is no error). */
export function rmSync(path: string, options?: { recursive?: boolean; force?: boolean }): void {
  const found = options?.force ? statSync(path, { throwIfNoEntry: false }) : lstatSync(path);
  if (!found) return;
  if (!found.isDirectory()) return unlinkSync(path);
  if (!options?.recursive) throw fsError('EISDIR', 'rm', path, ' (a directory: pass { recursive: true } to remove it and what it holds)');
  for (const name of readdirSync(path)) rmSync(`${path}/${name}`, { recursive: true });
  rmdirSync(path);
}

/** Removes a file. */
export function unlinkSync(path: string): void {
  const at = locate(path, 'unlink');
  attempt(at, 'unlink', true, () => at.grant.dir.unlinkFileAt(at.relative));
}

/** Removes an empty directory. */
export function rmdirSync(path: string): void {
  const at = locate(path, 'rmdir');
  attempt(at, 'rmdir', true, () => at.grant.dir.removeDirectoryAt(at.relative));
}

/** Renames (moves) a file or directory, within the grants. */
export function renameSync(from: string, to: string): void {
  const source = locate(from, 'rename');
  const target = locate(to, 'rename');
  attempt(source, 'rename', true, () => source.grant.dir.renameAt(source.relative, target.grant.dir, target.relative));
}

// The same as promises. A handler on the default engine (QuickJS, without
// async) must be synchronous: use these from `--backend starlingmonkey`.
function later<A extends unknown[], T>(run: (...args: A) => T): (...args: A) => Promise<T> {
  return (...args) =>
    new Promise<T>((resolve, reject) => {
      try {
        resolve(run(...args));
      } catch (error) {
        reject(error);
      }
    });
}

/** `fs/promises`: the functions above as promises. */
export const promises = {
  readFile: later(readFileSync as (path: string, options?: Encoding | { encoding?: Encoding | null } | null) => FileData),
  writeFile: later(writeFileSync),
  appendFile: later(appendFileSync),
  copyFile: later(copyFileSync),
  readdir: later(readdirSync as (path: string, options?: { withFileTypes?: boolean }) => string[] | Dirent[]),
  stat: later(statSync as (path: string) => Stats),
  lstat: later(lstatSync),
  access: later(accessSync),
  mkdir: later(mkdirSync),
  rm: later(rmSync),
  unlink: later(unlinkSync),
  rmdir: later(rmdirSync),
  rename: later(renameSync),
};

export default {
  constants,
  readFileSync,
  writeFileSync,
  appendFileSync,
  copyFileSync,
  readdirSync,
  statSync,
  lstatSync,
  existsSync,
  accessSync,
  mkdirSync,
  rmSync,
  unlinkSync,
  rmdirSync,
  renameSync,
  Dirent,
  Stats,
  promises,
};
