// The contract's values as the JS bindings take them: records with camelCase
// fields, variants as `{ tag, val }`, `option<T>` as the value or
// `undefined`, an error result thrown as its variant; and what a handler
// returns turned into them.
import type {
  Annotations,
  ContentBlock,
  GetPromptResult,
  PromptMessage,
  PromptReturn,
  ReadResourceResult,
  ResourceContents,
  ResourceReturn,
  ToolReturn,
} from './types.js';

export type Variant = { tag: string; val?: unknown };
export type WitRecord = Record<string, unknown>;

export function annotations(a: Annotations | undefined): WitRecord | undefined {
  if (a === undefined) return undefined;
  return { audience: a.audience, priority: a.priority, timestamp: a.lastModified };
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary);
}

function resourceContents(c: ResourceContents, mimeType?: string): Variant {
  if ('text' in c && typeof c.text === 'string') {
    return { tag: 'text', val: { uri: c.uri, mimeType: c.mimeType ?? mimeType, text: c.text } };
  }
  if ('blob' in c) {
    const blob = typeof c.blob === 'string' ? c.blob : base64(c.blob);
    return { tag: 'blob', val: { uri: c.uri, mimeType: c.mimeType ?? mimeType, blob } };
  }
  throw new TypeError(`resource contents for ${String((c as { uri?: unknown }).uri)} hold neither text nor blob`);
}

export function text(t: string, a?: Annotations): Variant {
  return { tag: 'text', val: { text: t, annotations: annotations(a) } };
}

function content(c: ContentBlock): Variant {
  switch (c.type) {
    case 'text':
      return text(c.text, c.annotations);
    case 'image':
    case 'audio':
      return { tag: c.type, val: { data: c.data, mimeType: c.mimeType, annotations: annotations(c.annotations) } };
    case 'resource':
      return { tag: 'embedded', val: { resourceContents: resourceContents(c.resource), annotations: annotations(c.annotations) } };
    default:
      throw new TypeError(`content of type ${JSON.stringify((c as { type?: unknown }).type)} is not carried by the contract`);
  }
}

export function toolResult(r: ToolReturn): WitRecord {
  if (r === undefined || r === null) r = {};
  if (typeof r === 'string') r = { content: [{ type: 'text', text: r }] };
  const blocks = (r.content ?? []).map(content);
  if (r.structuredContent !== undefined) {
    // The contract has no field for it: the host reads it from the first
    // text content that is a JSON object.
    const json = JSON.stringify(r.structuredContent);
    const first = r.content?.find((c) => c.type === 'text');
    if (!(first && first.type === 'text' && first.text === json)) blocks.unshift(text(json));
  }
  const meta = r._meta === undefined ? undefined : Object.entries(r._meta).map(([key, value]) => ({ key, value: String(value) }));
  return { content: blocks, progress: undefined, meta, isError: r.isError };
}

export function readResult(r: ResourceReturn, uri: string, mimeType: string | undefined): WitRecord {
  if (typeof r === 'string') return { contents: [resourceContents({ uri, text: r }, mimeType)] };
  if (!r || !Array.isArray((r as ReadResourceResult).contents)) throw new TypeError('a resource handler must return { contents: [...] } or a string');
  return { contents: r.contents.map((c) => resourceContents(c, mimeType)) };
}

function promptMessage(m: PromptMessage): WitRecord {
  const c = m.content;
  let val: Variant;
  switch (c.type) {
    case 'text':
      val = text(c.text, c.annotations);
      break;
    case 'image':
      val = { tag: 'image', val: { data: c.data, mimeType: c.mimeType, annotations: annotations(c.annotations) } };
      break;
    case 'resource':
      val = { tag: 'mcp-resource', val: { resourceContents: resourceContents(c.resource), annotations: annotations(c.annotations) } };
      break;
    default:
      throw new TypeError(`prompt content of type ${JSON.stringify((c as { type?: unknown }).type)} is not carried by the contract`);
  }
  return { role: m.role, content: val };
}

export function promptResult(r: PromptReturn, description: string | undefined): WitRecord {
  if (typeof r === 'string') r = { messages: [{ role: 'user', content: { type: 'text', text: r } }] };
  if (!r || !Array.isArray((r as GetPromptResult).messages)) throw new TypeError('a prompt handler must return { messages: [...] } or a string');
  return { description: r.description ?? description, messages: r.messages.map(promptMessage) };
}
