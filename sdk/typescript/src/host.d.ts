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
