// What handlers take and return, in the shapes of the MCP TypeScript SDK
// (camelCase JSON of the MCP schema), so handlers move between the two with
// few changes. The contract (wasix:mcp/router@25.3.26) is narrower than MCP
// in places; each such place says what is not carried.

/** Who a piece of content is for, how much it matters, when it changed. */
export interface Annotations {
  audience?: Array<'user' | 'assistant'>;
  priority?: number;
  /** An ISO 8601 date-time (carried as the contract's `timestamp`). */
  lastModified?: string;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
}

export interface ImageContent {
  type: 'image';
  /** Base64. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
}

export interface AudioContent {
  type: 'audio';
  /** Base64. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** Base64, or bytes (encoded for you). */
  blob: string | Uint8Array;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
}

/** A block of a tool result's `content`. (`resource_link` is not carried by the contract.) */
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource;

/** A tool's result. */
export interface CallToolResult {
  content?: ContentBlock[];
  /**
   * A JSON object, checked by the host against the tool's `outputSchema`.
   * The contract carries it as the result's first text content (its JSON),
   * which is added for you when `content` does not already start with it.
   */
  structuredContent?: Record<string, unknown>;
  /** A failure the model should see, rather than a protocol error. */
  isError?: boolean;
  /** String values only: the contract's `meta` is a list of string pairs. */
  _meta?: Record<string, string>;
}

/**
 * What a tool handler may return: a whole result, a string (one text
 * content) or nothing (no content).
 */
export type ToolReturn = CallToolResult | string | void;

/** Tool hints (`readOnlyHint` and `destructiveHint` are carried; the contract has no field for the others). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ReadResourceResult {
  contents: ResourceContents[];
}

/** What a resource handler may return: the result, or a string read as the resource's text. */
export type ResourceReturn = ReadResourceResult | string;

/** A listed resource's metadata. */
export interface ResourceMetadata {
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  /** `_meta` entries, on the listing and on the contents read (an MCP App view's `{ ui: { csp, prefersBorder } }`). */
  _meta?: Record<string, unknown>;
  /** MCP `Icon`s (`src`, `mimeType`, `sizes`, `theme`). */
  icons?: Array<{ src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' }>;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  /** Text, image or an embedded resource (the contract has no audio here). */
  content: TextContent | ImageContent | EmbeddedResource;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
}

/** What a prompt handler may return: the result, or a string (one user message). */
export type PromptReturn = GetPromptResult | string;

/** An argument of a prompt listed without a schema. */
export interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

/** A root the client exposes. */
export interface Root {
  uri: string;
  name?: string;
}

/** Who made the request, when the server authenticates its requests. */
export interface Identity {
  issuer: string;
  subject: string;
  clientId?: string;
  scopes: string[];
}

export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** `CreateMessageRequest.params` of MCP (sampling). */
export interface CreateMessageParams {
  messages: Array<{ role: 'user' | 'assistant'; content: unknown }>;
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: unknown;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  metadata?: unknown;
  [key: string]: unknown;
}

/** `CreateMessageResult` of MCP. */
export interface CreateMessageResult {
  role: 'user' | 'assistant';
  content: { type: string; text?: string; [key: string]: unknown };
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

/** `ElicitResult` of MCP: what the user did with the question. */
export type ElicitResult<T = Record<string, unknown>> =
  | { action: 'accept'; content: T }
  | { action: 'decline' }
  | { action: 'cancel' };
