// Schemas as tools and prompts declare them: a zod raw shape
// (`{ city: z.string() }`, as in the MCP TypeScript SDK), a zod object, or a
// plain JSON Schema object. Zod schemas become JSON Schema with zod's own
// `toJSONSchema` and also parse what arrives (defaults, transforms).
import { z } from 'zod';

// zod compiles an object schema's parser from generated source
// (`new Function`) on its first parse. A component's instances all start
// from the heap its build snapshotted, before any parse, so every fresh
// instance (one per request with `--instances per-request`) paid that
// compile again: 0.6 ms of a 1.2 ms call. The engines a component embeds
// (QuickJS, SpiderMonkey) interpret the generated code anyway, and zod's
// interpreted path makes warm calls faster too, so it is the one used.
// zod reads this as it builds each schema: it is set when the SDK loads,
// before the app's module builds its own.
z.config({ jitless: true });

/** A JSON Schema object, as MCP sends it (`type: "object"` for tools). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** A zod object's fields. */
export type ZodRawShape = Record<string, z.ZodType>;

/** How a schema may be given. */
export type SchemaInput = ZodRawShape | z.ZodType | JsonSchema;

/** The value a schema describes: zod's output type, or a plain object for JSON Schema. */
export type Infer<S> = S extends z.ZodType
  ? z.output<S>
  : S extends ZodRawShape
    ? z.output<z.ZodObject<S>>
    : Record<string, unknown>;

function isZodType(value: unknown): value is z.ZodType {
  // zod 4 marks its schemas with `_zod`; zod 3 schemas (`_def`) are refused
  // below since only zod 4 converts itself to JSON Schema.
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function isZodShape(value: object): value is ZodRawShape {
  const fields = Object.values(value);
  return fields.length > 0 && fields.every(isZodType);
}

/** A declared schema, ready to list and to parse with. */
export interface CompiledSchema {
  /** JSON Schema text, as the contract carries it. */
  json: string;
  /** The JSON Schema object. */
  object: JsonSchema;
  /** Parses a value; throws a message naming what is wrong. */
  parse?: (value: unknown) => unknown;
  /**
   * Parses, once, a value every field refuses, so that zod builds its
   * parsers' state before the build snapshots the heap (see
   * {@link warmUp}).
   */
  warmUp?: () => void;
}

/**
 * What the warm-up parses in place of each field: a symbol, which no JSON
 * argument can be, so a field refuses it (and a transform after it does not
 * run) unless it takes anything (`z.any()`, `z.unknown()`).
 */
const WARM_UP = Symbol('mcp-wit warm-up');

// A component's fresh instances all start from the heap its build
// snapshotted, after the app's module ran. zod sets up a parser's state (an
// object's keys, its fields' checks) on its first parse: parsed once here,
// every fresh instance starts with it set up instead of paying for it on its
// first call (a TypeScript router's fresh instance per call: 0.58 -> 0.49 ms).
export function warmUp(schemas: Iterable<CompiledSchema | undefined>): void {
  for (const schema of schemas) schema?.warmUp?.();
}

export function compileSchema(schema: SchemaInput | undefined, what: string): CompiledSchema {
  if (schema === undefined) {
    const object = { type: 'object', properties: {} };
    return { json: JSON.stringify(object), object };
  }
  let zod: z.ZodType | undefined;
  if (isZodType(schema)) zod = schema;
  else if (isZodShape(schema)) zod = z.object(schema);
  if (zod === undefined) {
    if ('_def' in schema) throw new TypeError(`${what}: a zod 3 schema; use zod 4 or a JSON Schema object`);
    return { json: JSON.stringify(schema), object: schema as JsonSchema };
  }
  // What a client sends is the schema's input side (defaults optional).
  const object = z.toJSONSchema(zod, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete object.$schema;
  const parser = zod;
  const parse = (value: unknown) => {
    const parsed = parser.safeParse(value);
    if (!parsed.success) throw z.prettifyError(parsed.error);
    return parsed.data;
  };
  return {
    json: JSON.stringify(object),
    object,
    parse,
    warmUp: () => {
      const fields = parser instanceof z.ZodObject ? Object.keys(parser.shape) : [];
      try {
        parse(fields.length > 0 ? Object.fromEntries(fields.map((field) => [field, WARM_UP])) : WARM_UP);
      } catch {
        // Refused, as intended: the error's path is set up too.
      }
    },
  };
}
