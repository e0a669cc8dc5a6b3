// The Router: tools, resources, resource templates and prompts registered as
// in the MCP TypeScript SDK, and the component's exports written over them
// (`wasix:mcp/router@25.3.26` and `mcp-wit:extension/extension`).
//
// Every export catches what its handler throws and answers with the
// contract's error variant: a JS throw that escaped an export would trap the
// instance (the client would see wasm internals and the instance's state
// would be lost).
import { Context } from './context.js';
import { PromptError, ResourceError, ToolError, messageOf } from './errors.js';
import { compileSchema, warmUp, type CompiledSchema, type Infer, type JsonSchema, type SchemaInput, type ZodRawShape } from './schema.js';
import { completionFailure, isThenable, promptFailure, resourceFailure, settle, toolFailure, type Awaitable } from './settle.js';
import type {
  CallToolResult,
  PromptArgument,
  PromptReturn,
  ResourceMetadata,
  ResourceReturn,
  ToolAnnotations,
  ToolReturn,
} from './types.js';
import { matchUriTemplate } from './uri-template.js';
import { annotations, promptResult, readResult, text, toolResult, type WitRecord } from './values.js';

/** The server's identity and what it declares beyond what it registers. */
export interface RouterOptions {
  /** `serverInfo.name`. */
  name: string;
  /** Guidance for the client's model. */
  instructions?: string;
  /** Accepted for the MCP TypeScript SDK's sake; the host reports its own version. */
  version?: string;
  /** The server's icons (MCP `Icon`s: `src`, `mimeType`, `sizes`, `theme`). */
  icons?: Icon[];
  capabilities?: {
    /** The tools may change (`ctx.notifyListChanged('tools')`). */
    tools?: { listChanged?: boolean };
    /** The prompts may change. */
    prompts?: { listChanged?: boolean };
    /** The resources may change; `subscribe`: clients may subscribe to updates (`ctx.notifyResourceUpdated`). */
    resources?: { listChanged?: boolean; subscribe?: boolean };
  };
}

/** A tool's declaration. */
export interface ToolConfig<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined> {
  /** Not carried by the contract (it has no tool title): say it in the description. */
  title?: string;
  description?: string;
  /** A zod shape, a zod object or a JSON Schema object; the handler gets the parsed arguments. */
  inputSchema?: I;
  /** Declares structured output: return `structuredContent` of this shape. */
  outputSchema?: O;
  annotations?: ToolAnnotations;
  /** `_meta` entries: an MCP App's `{ ui: { resourceUri: 'ui://…', visibility } }` (see {@link Router.registerAppTool}). */
  _meta?: Record<string, unknown>;
  /** MCP `Icon`s. */
  icons?: Icon[];
}

/** An MCP `Icon`. */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

/** MCP Apps' MIME type for a view (ext-apps' `RESOURCE_MIME_TYPE`). */
export const RESOURCE_MIME_TYPE = 'text/html;profile=mcp-app';

/** The extension id a client that hosts MCP Apps declares. */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui';

/** A tool that opens an MCP App view: its `_meta.ui` names the view. */
export interface AppToolConfig<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined>
  extends ToolConfig<I, O> {
  _meta: { ui: { resourceUri: string; visibility?: Array<'model' | 'app'> } } & Record<string, unknown>;
}

/** A tool handler: with an input schema it takes the arguments and the context, without one the context alone. */
export type ToolCallback<I extends SchemaInput | undefined> = I extends SchemaInput
  ? (args: Infer<I>, ctx: Context) => Awaitable<ToolReturn>
  : (ctx: Context) => Awaitable<ToolReturn>;

/** A prompt's declaration. */
export interface PromptConfig<A extends ZodRawShape | JsonSchema | undefined = undefined> {
  /** Not carried by the contract (it has no prompt title). */
  title?: string;
  description?: string;
  /** The arguments (strings), as a zod shape or a JSON Schema object. */
  argsSchema?: A;
  /** Completers for arguments, by name (`completion/complete`). */
  complete?: Record<string, CompleteCallback>;
  /** MCP `Icon`s. */
  icons?: Icon[];
}

/** A prompt handler: with arguments it takes them and the context, without them the context alone. */
export type PromptCallback<A extends ZodRawShape | JsonSchema | undefined> = A extends ZodRawShape | JsonSchema
  ? (args: Infer<A>, ctx: Context) => Awaitable<PromptReturn>
  : (ctx: Context) => Awaitable<PromptReturn>;

/** Completes one argument's value: the candidates for what the user typed so far. */
export type CompleteCallback = (value: string, context: { arguments: Record<string, string> }) => string[];

/** What a client asks to complete (`completion/complete`). */
export interface CompleteRequest {
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

/** A resource template's metadata, with completers for its variables. */
export interface ResourceTemplateMetadata extends ResourceMetadata {
  complete?: Record<string, CompleteCallback>;
}

/** A resource handler: the URI read. */
export type ResourceCallback = (uri: string, ctx: Context) => Awaitable<ResourceReturn>;

/** A resource template handler: the URI read and the template's variables in it. */
export type ResourceTemplateCallback = (uri: string, variables: Record<string, string>, ctx: Context) => Awaitable<ResourceReturn>;

/** The `wasix:mcp/router@25.3.26` export. */
export interface RouterExport {
  name(): string;
  instructions(): string;
  capabilities(): WitRecord;
  listTools(): WitRecord[];
  callTool(toolName: string, args: { json: string }): Awaitable<WitRecord>;
  listResources(): WitRecord[];
  readResource(uri: string): Awaitable<WitRecord>;
  listPrompts(): WitRecord[];
  getPrompt(promptName: string): Awaitable<WitRecord>;
  complete(request: { input: { json: string } }): Awaitable<WitRecord>;
}

/** The `mcp-wit:extension/presentation` export. */
export interface PresentationExport {
  decorations(): WitRecord[];
}

/** The `mcp-wit:extension/extension` export. */
export interface ExtensionExport {
  listResourceTemplates(): WitRecord[];
  getPromptWithArguments(promptName: string, args: Array<[string, string]>): Awaitable<WitRecord>;
  subscribe(uri: string): void;
  unsubscribe(uri: string): void;
  onRootsListChanged(): Awaitable<void>;
}

interface ToolEntry {
  name: string;
  config: ToolConfig<SchemaInput | undefined, SchemaInput | undefined>;
  input: CompiledSchema;
  output?: CompiledSchema;
  takesArgs: boolean;
  handler: (...args: any[]) => unknown;
}

interface ResourceEntry {
  name: string;
  uri: string;
  metadata: ResourceMetadata;
  handler: ResourceCallback;
}

interface TemplateEntry {
  name: string;
  uriTemplate: string;
  metadata: ResourceTemplateMetadata;
  handler: ResourceTemplateCallback;
}

interface PromptEntry {
  name: string;
  config: PromptConfig<ZodRawShape | JsonSchema | undefined> & { arguments?: PromptArgument[] };
  args?: CompiledSchema;
  arguments: PromptArgument[];
  handler: (...args: any[]) => unknown;
}

/** An MCP server, exported as a component with {@link Router.exports}. */
export class Router {
  private readonly tools = new Map<string, ToolEntry>();
  private readonly resources = new Map<string, ResourceEntry>();
  private readonly templates: TemplateEntry[] = [];
  private readonly prompts = new Map<string, PromptEntry>();
  private readonly rootsHandlers: Array<(ctx: Context) => unknown> = [];
  private completer?: (request: CompleteRequest, ctx: Context) => Awaitable<string[]>;

  constructor(readonly options: RouterOptions) {}

  /** Registers a tool. The schemas are converted (and checked to be objects) here, so a mistake fails the build's initialisation rather than a call. */
  tool<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<I, O>,
    handler: ToolCallback<I>,
  ): this;
  tool(name: string, handler: (ctx: Context) => Awaitable<ToolReturn>): this;
  tool(name: string, configOrHandler: ToolConfig<any, any> | ((ctx: Context) => Awaitable<ToolReturn>), maybeHandler?: (...args: any[]) => unknown): this {
    const config: ToolConfig<any, any> = typeof configOrHandler === 'function' ? {} : configOrHandler;
    const handler = (typeof configOrHandler === 'function' ? configOrHandler : maybeHandler) as (...args: any[]) => unknown;
    if (this.tools.has(name)) throw new Error(`tool ${name} is registered twice`);
    this.tools.set(name, {
      name,
      config,
      input: compileSchema(config.inputSchema, `tool ${name}'s inputSchema`),
      output: config.outputSchema === undefined ? undefined : compileSchema(config.outputSchema, `tool ${name}'s outputSchema`),
      takesArgs: config.inputSchema !== undefined,
      handler,
    });
    return this;
  }

  /** The MCP TypeScript SDK's name for {@link Router.tool}. */
  registerTool<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined>(
    name: string,
    config: ToolConfig<I, O>,
    handler: ToolCallback<I>,
  ): this {
    return this.tool(name, config, handler);
  }

  /** Registers a tool that opens an MCP App view, as ext-apps' `registerAppTool` does: `config._meta.ui.resourceUri` names the view (a `ui://` resource registered with {@link Router.registerAppResource}). */
  registerAppTool<I extends SchemaInput | undefined = undefined, O extends SchemaInput | undefined = undefined>(
    name: string,
    config: AppToolConfig<I, O>,
    handler: ToolCallback<I>,
  ): this {
    const view = config._meta?.ui?.resourceUri;
    if (typeof view !== 'string' || !view.startsWith('ui://')) throw new Error(`tool ${name}: _meta.ui.resourceUri must be a ui:// URI`);
    return this.tool(name, config, handler);
  }

  /** Registers an MCP App view, as ext-apps' `registerAppResource` does: a `ui://` resource whose MIME type defaults to {@link RESOURCE_MIME_TYPE}; its `_meta.ui` (`csp`, `permissions`, `domain`, `prefersBorder`) goes on its listing and its contents. */
  registerAppResource(name: string, uri: string, metadata: ResourceMetadata, handler: ResourceCallback): this {
    if (!uri.startsWith('ui://')) throw new Error(`app resource ${name}: ${uri} is not a ui:// URI`);
    return this.resource(name, uri, { mimeType: RESOURCE_MIME_TYPE, ...metadata }, handler);
  }

  /** Registers a resource at a fixed URI. */
  resource(name: string, uri: string, metadata: ResourceMetadata, handler: ResourceCallback): this;
  resource(name: string, uri: string, handler: ResourceCallback): this;
  resource(name: string, uri: string, metadataOrHandler: ResourceMetadata | ResourceCallback, maybeHandler?: ResourceCallback): this {
    const metadata = typeof metadataOrHandler === 'function' ? {} : metadataOrHandler;
    const handler = (typeof metadataOrHandler === 'function' ? metadataOrHandler : maybeHandler) as ResourceCallback;
    this.resources.set(uri, { name, uri, metadata, handler });
    return this;
  }

  /** Registers resources by an RFC 6570 URI template (`{name}`, `{+path}`); a read is routed to the first template it matches, after the fixed resources. */
  resourceTemplate(name: string, uriTemplate: string, metadata: ResourceTemplateMetadata, handler: ResourceTemplateCallback): this;
  resourceTemplate(name: string, uriTemplate: string, handler: ResourceTemplateCallback): this;
  resourceTemplate(
    name: string,
    uriTemplate: string,
    metadataOrHandler: ResourceTemplateMetadata | ResourceTemplateCallback,
    maybeHandler?: ResourceTemplateCallback,
  ): this {
    const metadata = typeof metadataOrHandler === 'function' ? {} : metadataOrHandler;
    const handler = (typeof metadataOrHandler === 'function' ? metadataOrHandler : maybeHandler) as ResourceTemplateCallback;
    this.templates.push({ name, uriTemplate, metadata, handler });
    return this;
  }

  /** Registers a prompt. */
  prompt<A extends ZodRawShape | JsonSchema | undefined = undefined>(name: string, config: PromptConfig<A>, handler: PromptCallback<A>): this;
  prompt(name: string, handler: (ctx: Context) => Awaitable<PromptReturn>): this;
  prompt(name: string, configOrHandler: PromptConfig<any> | ((ctx: Context) => Awaitable<PromptReturn>), maybeHandler?: (...args: any[]) => unknown): this {
    const config: PromptConfig<any> = typeof configOrHandler === 'function' ? {} : configOrHandler;
    const handler = (typeof configOrHandler === 'function' ? configOrHandler : maybeHandler) as (...args: any[]) => unknown;
    let args: CompiledSchema | undefined;
    let list: PromptArgument[] = [];
    if (config.argsSchema !== undefined) {
      args = compileSchema(config.argsSchema, `prompt ${name}'s argsSchema`);
      const required = new Set(args.object.required ?? []);
      list = Object.entries(args.object.properties ?? {}).map(([arg, schema]) => {
        const description = (schema as { description?: unknown }).description;
        return { name: arg, description: typeof description === 'string' ? description : undefined, required: required.has(arg) };
      });
    }
    this.prompts.set(name, { name, config, args, arguments: list, handler });
    return this;
  }

  /** The MCP TypeScript SDK's name for {@link Router.prompt}. */
  registerPrompt<A extends ZodRawShape | JsonSchema | undefined = undefined>(name: string, config: PromptConfig<A>, handler: PromptCallback<A>): this {
    return this.prompt(name, config, handler);
  }

  /**
   * Answers `completion/complete` for what the prompts' and templates' own
   * `complete` completers do not cover; returns the candidate values.
   */
  complete(handler: (request: CompleteRequest, ctx: Context) => Awaitable<string[]>): this {
    this.completer = handler;
    return this;
  }

  /** Runs `handler` when the client's roots change (ask for them again with `ctx.listRoots()`). */
  onRootsChanged(handler: (ctx: Context) => unknown): this {
    this.rootsHandlers.push(handler);
    return this;
  }

  private capabilities(): WitRecord {
    const declared = this.options.capabilities ?? {};
    const hasResources = this.resources.size > 0 || this.templates.length > 0 || declared.resources !== undefined;
    return {
      tools: this.tools.size > 0 || declared.tools !== undefined ? { listChanged: declared.tools?.listChanged } : undefined,
      prompts: this.prompts.size > 0 || declared.prompts !== undefined ? { listChanged: declared.prompts?.listChanged } : undefined,
      resources: hasResources ? { subscribe: declared.resources?.subscribe, listChanged: declared.resources?.listChanged } : undefined,
      completions: this.completes() ? { enabled: true } : undefined,
    };
  }

  private completes(): boolean {
    return (
      this.completer !== undefined ||
      [...this.prompts.values()].some((p) => p.config.complete !== undefined) ||
      this.templates.some((t) => t.metadata.complete !== undefined)
    );
  }

  private runComplete(input: string): Awaitable<WitRecord> {
    return settle(
      () => {
        let request: CompleteRequest;
        try {
          request = JSON.parse(input) as CompleteRequest;
        } catch (e) {
          throw { tag: 'invalid-parameters', val: `the request is not JSON: ${messageOf(e)}` };
        }
        const { ref, argument } = request;
        const context = { arguments: request.context?.arguments ?? {} };
        let own: CompleteCallback | undefined;
        if (ref?.type === 'ref/prompt') own = this.prompts.get(ref.name)?.config.complete?.[argument.name];
        else if (ref?.type === 'ref/resource') own = this.templates.find((t) => t.uriTemplate === ref.uri)?.metadata.complete?.[argument.name];
        if (own) return own(argument.value, context);
        if (this.completer) return this.completer(request, new Context('complete'));
        return [];
      },
      (values: string[]) => ({ content: (values ?? []).map((v) => text(String(v))), meta: undefined, isError: undefined }),
      completionFailure,
    );
  }

  private listTools(): WitRecord[] {
    return [...this.tools.values()].map((t) => {
      const a = t.config.annotations;
      const hints = a && (a.readOnlyHint !== undefined || a.destructiveHint !== undefined);
      return {
        name: t.name,
        description: t.config.description ?? '',
        inputSchema: { json: t.input.json },
        outputSchema: t.output && { json: t.output.json },
        annotations: hints ? { readOnly: a.readOnlyHint, destructive: a.destructiveHint, streaming: undefined, experimental: undefined } : undefined,
        meta: undefined,
      };
    });
  }

  private callTool(name: string, args: { json: string }): Awaitable<WitRecord> {
    return settle(
      () => {
        const tool = this.tools.get(name);
        if (!tool) throw new ToolError('not-found', `no tool named ${name}`);
        let value: unknown;
        try {
          const json = args.json.trim();
          value = json === '' || json === 'null' ? {} : JSON.parse(json);
        } catch (e) {
          throw new ToolError('invalid-parameters', `the arguments are not JSON: ${messageOf(e)}`);
        }
        if (tool.input.parse) {
          try {
            value = tool.input.parse(value);
          } catch (why) {
            throw new ToolError('invalid-parameters', messageOf(why));
          }
        }
        const ctx = new Context(name);
        return tool.takesArgs ? tool.handler(value, ctx) : tool.handler(ctx);
      },
      toolResult,
      toolFailure,
    );
  }

  private listResources(): WitRecord[] {
    return [...this.resources.values()].map((r) => ({
      uri: r.uri,
      name: r.name,
      description: r.metadata.description,
      mimeType: r.metadata.mimeType ?? '',
      annotations: annotations(r.metadata.annotations),
    }));
  }

  private readResource(uri: string): Awaitable<WitRecord> {
    let mimeType: string | undefined;
    return settle(
      () => {
        const fixed = this.resources.get(uri);
        if (fixed) {
          mimeType = fixed.metadata.mimeType;
          return fixed.handler(uri, new Context(fixed.name));
        }
        for (const t of this.templates) {
          const variables = matchUriTemplate(t.uriTemplate, uri);
          if (variables) {
            mimeType = t.metadata.mimeType;
            return t.handler(uri, variables, new Context(t.name));
          }
        }
        throw new ResourceError('not-found', `no resource at ${uri}`);
      },
      (r: ResourceReturn) => readResult(r, uri, mimeType),
      resourceFailure,
    );
  }

  private listResourceTemplates(): WitRecord[] {
    return this.templates.map((t) => ({
      uriTemplate: t.uriTemplate,
      name: t.name,
      title: t.metadata.title,
      description: t.metadata.description,
      mimeType: t.metadata.mimeType,
      annotations: annotations(t.metadata.annotations),
    }));
  }

  private listPrompts(): WitRecord[] {
    return [...this.prompts.values()].map((p) => ({
      name: p.name,
      description: p.config.description,
      arguments: p.arguments.length === 0 ? undefined : p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
    }));
  }

  private getPrompt(name: string, pairs: Array<[string, string]>): Awaitable<WitRecord> {
    let description: string | undefined;
    return settle(
      () => {
        const prompt = this.prompts.get(name);
        if (!prompt) throw new PromptError('not-found', `no prompt named ${name}`);
        description = prompt.config.description;
        let args: unknown = Object.fromEntries(pairs);
        if (prompt.args?.parse) {
          try {
            args = prompt.args.parse(args);
          } catch (why) {
            throw new PromptError('invalid-parameters', messageOf(why));
          }
        } else {
          const missing = prompt.arguments.filter((a) => a.required && !(a.name in (args as object))).map((a) => a.name);
          if (missing.length > 0) throw new PromptError('invalid-parameters', `missing arguments: ${missing.join(', ')}`);
        }
        const ctx = new Context(name);
        return prompt.config.argsSchema !== undefined ? prompt.handler(args, ctx) : prompt.handler(ctx);
      },
      (r: PromptReturn) => promptResult(r, description),
      promptFailure,
    );
  }

  /**
   * The component's exports: export them under these names from the
   * module the component is built from,
   * `export const { router, extension, presentation } = app.exports();`.
   */
  exports(): { router: RouterExport; extension: ExtensionExport; presentation: PresentationExport } {
    const router: RouterExport = {
      name: () => this.options.name,
      instructions: () => this.options.instructions ?? '',
      capabilities: () => this.capabilities(),
      listTools: () => this.listTools(),
      callTool: (name, args) => this.callTool(name, args),
      listResources: () => this.listResources(),
      readResource: (uri) => this.readResource(uri),
      listPrompts: () => this.listPrompts(),
      getPrompt: (name) => this.getPrompt(name, []),
      complete: (request) => this.runComplete(request.input.json),
    };
    const extension: ExtensionExport = {
      listResourceTemplates: () => this.listResourceTemplates(),
      getPromptWithArguments: (name, args) => this.getPrompt(name, args),
      // The host keeps track of who listens to what; a router only says what
      // changed (`ctx.notifyResourceUpdated`).
      subscribe: () => undefined,
      unsubscribe: () => undefined,
      onRootsListChanged: () => {
        for (const handler of this.rootsHandlers) {
          try {
            const done = handler(new Context('roots'));
            if (isThenable(done)) Promise.resolve(done).catch(() => undefined);
          } catch {
            // Nothing to answer: a notification has no reply.
          }
        }
      },
    };
    // The app's module calls this last: the build snapshots the heap after it.
    warmUp([...[...this.tools.values()].map((t) => t.input), ...[...this.prompts.values()].map((p) => p.args)]);
    const presentation: PresentationExport = { decorations: () => this.decorations() };
    return { router, extension, presentation };
  }

  /** What the presentation export gives: the `_meta` and icons the contract has no field for. */
  private decorations(): WitRecord[] {
    const decorations: WitRecord[] = [];
    const add = (subject: WitRecord, meta: Record<string, unknown> | undefined, icons: Icon[] | undefined) => {
      if (meta === undefined && icons === undefined) return;
      decorations.push({
        subject,
        meta: meta === undefined ? undefined : JSON.stringify(meta),
        icons: icons === undefined ? undefined : JSON.stringify(icons),
      });
    };
    add({ tag: 'server' }, undefined, this.options.icons);
    for (const t of this.tools.values()) add({ tag: 'tool', val: t.name }, t.config._meta, t.config.icons);
    for (const r of this.resources.values()) add({ tag: 'resource', val: r.uri }, r.metadata._meta, r.metadata.icons);
    for (const t of this.templates) add({ tag: 'resource-template', val: t.uriTemplate }, t.metadata._meta, t.metadata.icons);
    for (const p of this.prompts.values()) add({ tag: 'prompt', val: p.name }, undefined, p.config.icons);
    return decorations;
  }
}
