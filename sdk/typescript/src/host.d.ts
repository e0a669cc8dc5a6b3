// The interfaces the component imports, in the shapes the JS bindings give
// them (records with camelCase fields, `option<T>` as `T | null | undefined`,
// a `result` error thrown as an Error whose `payload` is the error variant).

declare module 'mcp-wit:extension/client@0.1.0' {
  export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
  export type ListKind = 'tools' | 'prompts' | 'resources';
  export type QuestionKind = 'create-message' | 'create-elicitation' | 'list-roots';
  export interface Root { uri: string; name?: string | null }
  export interface RpcError { code: number; message: string; data?: string | null }
  export type ClientError =
    | { tag: 'unsupported'; val: string }
    | { tag: 'rejected'; val: RpcError }
    | { tag: 'invalid-params'; val: string }
    | { tag: 'invalid-response'; val: string }
    | { tag: 'unavailable'; val: string };
  export interface Question { key: string; kind: QuestionKind; params: string | undefined }
  export function notifyProgress(progress: number, total: number | undefined, message: string | undefined): void;
  export function notifyLoggingMessage(level: LogLevel, logger: string | undefined, data: string): void;
  export function createMessage(params: string): string;
  export function createElicitation(params: string): string;
  export function listRoots(): Root[];
  export function ask(questions: Question[]): Array<{ tag: 'ok'; val: string } | { tag: 'err'; val: ClientError }>;
  export function notifyListChanged(kind: ListKind): void;
  export function notifyResourceUpdated(uri: string): void;
  export function notifyUrlElicitationCompleted(elicitationId: string): void;
  export function extensionSettings(id: string): string | null | undefined;
  export function runAsTask(): boolean;
}

declare module 'mcp-wit:extension/caller@0.1.0' {
  export interface Identity { issuer: string; subject: string; clientId?: string | null; scopes: string[] }
  export function current(): Identity | null | undefined;
}

// `import view from './view.html'`: the build bundles the file as its text.
declare module '*.html' {
  const text: string;
  export default text;
}

// Both engines (StarlingMonkey, QuickJS) provide it; the `lib` setting leaves DOM out.
declare function btoa(data: string): string;

// What the file API (`fs.ts`) uses of `wasi:filesystem`. A `u64` is a
// `number` on QuickJS and a `bigint` on StarlingMonkey.
declare module 'wasi:filesystem/types@0.2.12' {
  export type ErrorCode =
    | 'access' | 'would-block' | 'already' | 'bad-descriptor' | 'busy' | 'deadlock' | 'quota' | 'exist'
    | 'file-too-large' | 'illegal-byte-sequence' | 'in-progress' | 'interrupted' | 'invalid' | 'io'
    | 'is-directory' | 'loop' | 'too-many-links' | 'message-size' | 'name-too-long' | 'no-device'
    | 'no-entry' | 'no-lock' | 'insufficient-memory' | 'insufficient-space' | 'not-directory'
    | 'not-empty' | 'not-recoverable' | 'unsupported' | 'no-tty' | 'no-such-device' | 'overflow'
    | 'not-permitted' | 'pipe' | 'read-only' | 'invalid-seek' | 'text-file-busy' | 'cross-device';
  export type DescriptorType =
    | 'unknown' | 'block-device' | 'character-device' | 'directory' | 'fifo' | 'symbolic-link' | 'regular-file' | 'socket';
  export interface DescriptorFlags { read?: boolean; write?: boolean; mutateDirectory?: boolean }
  export interface PathFlags { symlinkFollow?: boolean }
  export interface OpenFlags { create?: boolean; directory?: boolean; exclusive?: boolean; truncate?: boolean }
  export interface Datetime { seconds: number | bigint; nanoseconds: number }
  export interface DescriptorStat {
    type: DescriptorType;
    linkCount: number | bigint;
    size: number | bigint;
    dataAccessTimestamp?: Datetime | null;
    dataModificationTimestamp?: Datetime | null;
    statusChangeTimestamp?: Datetime | null;
  }
  export interface DirectoryEntry { type: DescriptorType; name: string }
  export class DirectoryEntryStream {
    readDirectoryEntry(): DirectoryEntry | null | undefined;
  }
  export class Descriptor {
    read(length: number, offset: number): [Uint8Array, boolean];
    write(buffer: Uint8Array, offset: number): number | bigint;
    readDirectory(): DirectoryEntryStream;
    createDirectoryAt(path: string): void;
    stat(): DescriptorStat;
    statAt(pathFlags: PathFlags, path: string): DescriptorStat;
    openAt(pathFlags: PathFlags, path: string, openFlags: OpenFlags, flags: DescriptorFlags): Descriptor;
    removeDirectoryAt(path: string): void;
    renameAt(oldPath: string, newDescriptor: Descriptor, newPath: string): void;
    unlinkFileAt(path: string): void;
    getFlags(): DescriptorFlags;
  }
}

declare module 'wasi:filesystem/preopens@0.2.12' {
  import type { Descriptor } from 'wasi:filesystem/types@0.2.12';
  export function getDirectories(): Array<[Descriptor, string]>;
}
