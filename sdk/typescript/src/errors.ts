// Errors a handler may throw to choose the contract's error; any other throw
// is an `execution-error` (tools, resources) or `internal-error` (prompts)
// carrying its message.

/** Fails a tool call with a chosen kind of the contract's `tool-error`. */
export class ToolError extends Error {
  constructor(
    readonly kind: 'invalid-parameters' | 'execution-error' | 'schema-error' | 'not-found',
    message: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** Fails a resource read with a chosen kind of the contract's `resource-error`. */
export class ResourceError extends Error {
  constructor(
    readonly kind: 'execution-error' | 'not-found',
    message: string,
  ) {
    super(message);
    this.name = 'ResourceError';
  }
}

/** Fails a prompt with a chosen kind of the contract's `prompt-error`. */
export class PromptError extends Error {
  constructor(
    readonly kind: 'invalid-parameters' | 'internal-error' | 'not-found',
    message: string,
  ) {
    super(message);
    this.name = 'PromptError';
  }
}

/** A JSON-RPC error the client answered with. */
export interface RpcError {
  code: number;
  message: string;
  /** Its `data`, parsed. */
  data?: unknown;
}

/** Why a question to the client got no answer (the contract's `client-error`). */
export class ClientError extends Error {
  constructor(
    /**
     * `unsupported`: the client did not declare the capability; `rejected`:
     * it answered with an error (`rpcError`); `invalid-params`: the params
     * are not what MCP requires; `invalid-response`: nor is the answer;
     * `unavailable`: no client can be asked now.
     */
    readonly kind: 'unsupported' | 'rejected' | 'invalid-params' | 'invalid-response' | 'unavailable',
    message: string,
    readonly rpcError?: RpcError,
  ) {
    super(message);
    this.name = 'ClientError';
  }
}

/** A message for anything thrown: an Error's message, else its text. */
export function messageOf(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message || thrown.name;
  if (typeof thrown === 'string') return thrown;
  try {
    return JSON.stringify(thrown) ?? String(thrown);
  } catch {
    return String(thrown);
  }
}
