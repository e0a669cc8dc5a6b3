// What a handler may reach of the client that made the request it serves,
// over the `mcp-wit:extension/client` and `caller` imports. These calls are
// synchronous (the host answers before the call returns), so handlers need
// not be `async` to use them.
import * as client from 'mcp-wit:extension/client@0.1.0';
import * as caller from 'mcp-wit:extension/caller@0.1.0';

import { ClientError } from './errors.js';
import { compileSchema, type Infer, type JsonSchema, type ZodRawShape } from './schema.js';
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
  Identity,
  LoggingLevel,
  Root,
} from './types.js';

/** One question of a batch ([`Context.ask`]). */
export type Question =
  | { key: string; kind: 'create-message'; params: CreateMessageParams }
  | { key: string; kind: 'create-elicitation'; params: Record<string, unknown> }
  | { key: string; kind: 'list-roots' };

/** One answer of a batch: the result's JSON, or why there is none. */
export type Answer = { ok: true; value: unknown } | { ok: false; error: ClientError };

function clientError(payload: client.ClientError): ClientError {
  if (payload.tag === 'rejected') {
    const { code, message, data } = payload.val;
    let parsed: unknown = data ?? undefined;
    if (typeof data === 'string') {
      try {
        parsed = JSON.parse(data);
      } catch {
        parsed = data;
      }
    }
    return new ClientError('rejected', `the client answered with error ${code}: ${message}`, { code, message, data: parsed });
  }
  return new ClientError(payload.tag, payload.val);
}

/** Calls an import returning a `result`, turning its error into a ClientError. */
function hostCall<T>(f: () => T): T {
  try {
    return f();
  } catch (thrown) {
    const payload = (thrown as { payload?: client.ClientError } | null)?.payload;
    if (payload && typeof payload === 'object' && 'tag' in payload) throw clientError(payload);
    throw thrown;
  }
}

function parseAnswer(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ClientError('invalid-response', `the answer is not JSON: ${String(e)}`);
  }
}

/** What a handler may reach of the client while it serves a request. */
export class Context {
  /** @param handler The tool, resource or prompt being served; log messages carry its name. */
  constructor(readonly handler: string) {}

  /**
   * Reports progress (`notifications/progress`); sent only when the client
   * asked for it. `progress` should grow from one report to the next.
   */
  progress(progress: number, total?: number, message?: string): void {
    client.notifyProgress(progress, total, message);
  }

  /** Logs `data` (a string or anything JSON) if the client's level lets it through; the logger is the handler's name unless given. */
  log(level: LoggingLevel, data: unknown, logger: string | null = this.handler): void {
    let text: string;
    try {
      text = JSON.stringify(data) ?? 'null';
    } catch (e) {
      text = JSON.stringify(`unloggable data: ${String(e)}`);
    }
    client.notifyLoggingMessage(level, logger ?? undefined, text);
  }

  /** Asks the client's model (`sampling/createMessage`). Throws a ClientError when it cannot. */
  createMessage(params: CreateMessageParams): CreateMessageResult {
    const answer = hostCall(() => client.createMessage(JSON.stringify(params)));
    return parseAnswer(answer) as CreateMessageResult;
  }

  /** Asks the client's model one question; the text of its answer. */
  sample(prompt: string, maxTokens: number): string {
    const answer = this.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
      maxTokens,
    });
    const text = answer?.content?.text;
    if (typeof text !== 'string') throw new ClientError('invalid-response', `the answer holds no text: ${JSON.stringify(answer)}`);
    return text;
  }

  /**
   * Asks the user (`elicitation/create`) with the params of MCP's
   * `ElicitRequest` (form mode: `message` and `requestedSchema`; or URL mode).
   */
  elicitInput(params: Record<string, unknown>): ElicitResult {
    const answer = hostCall(() => client.createElicitation(JSON.stringify(params)));
    return parseAnswer(answer) as ElicitResult;
  }

  /**
   * Asks the user to fill in a form: `schema` is a zod shape of primitive
   * fields (or a JSON Schema object); an accepted answer is parsed with it.
   */
  elicit<S extends ZodRawShape | JsonSchema>(message: string, schema: S): ElicitResult<Infer<S>> {
    const compiled = compileSchema(schema, 'elicitation');
    const answer = this.elicitInput({ message, requestedSchema: compiled.object });
    if (answer.action !== 'accept') return answer;
    let content: unknown = answer.content ?? {};
    if (compiled.parse) {
      try {
        content = compiled.parse(content);
      } catch (why) {
        throw new ClientError('invalid-response', `the answer does not fit the form: ${String(why)}`);
      }
    }
    return { action: 'accept', content: content as Infer<S> };
  }

  /** The client's roots (`roots/list`). */
  listRoots(): Root[] {
    return hostCall(() => client.listRoots()).map((r) => (r.name == null ? { uri: r.uri } : { uri: r.uri, name: r.name }));
  }

  /**
   * Asks several questions at once; the answers come in order. (In a
   * 2026-07-28 request the unanswered ones end the round together.)
   */
  ask(questions: Question[]): Answer[] {
    const answers = client.ask(
      questions.map((q) => ({
        key: q.key,
        kind: q.kind,
        params: q.kind === 'list-roots' ? undefined : JSON.stringify(q.params),
      })),
    );
    return answers.map((a): Answer => {
      if (a.tag === 'err') return { ok: false, error: clientError(a.val) };
      try {
        return { ok: true, value: parseAnswer(a.val) };
      } catch (e) {
        return { ok: false, error: e as ClientError };
      }
    });
  }

  /** Says that the router's tools, prompts or resources changed (declare `listChanged` in the Router's capabilities). */
  notifyListChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    client.notifyListChanged(kind);
  }

  /** Says that a resource changed, to the clients subscribed to it. */
  notifyResourceUpdated(uri: string): void {
    client.notifyResourceUpdated(uri);
  }

  /** Says that a URL-mode elicitation finished out of band. */
  notifyUrlElicitationCompleted(elicitationId: string): void {
    client.notifyUrlElicitationCompleted(elicitationId);
  }

  /** What the client declared of extension `id` (its capabilities' `extensions[id]`), parsed; undefined when it did not. */
  extensionSettings(id: string): unknown {
    const settings = client.extensionSettings(id);
    return settings == null ? undefined : JSON.parse(settings);
  }

  /** Asks for the request to go on as a task (the tasks extension): the client gets the task at once and polls for the result, while this call runs on. Whether the request is a task now (false: the client did not declare the extension, or the server's policy for the tool is `never`; the call goes on as before). Ask once the questions that decide whether to go on are answered. */
  runAsTask(): boolean {
    return client.runAsTask();
  }

  /** Whether the client hosts MCP Apps (it declared `io.modelcontextprotocol/ui` with `text/html;profile=mcp-app`): a tool with a view answers one that does not with text it can show. */
  hostsApps(): boolean {
    const settings = this.extensionSettings('io.modelcontextprotocol/ui') as { mimeTypes?: unknown } | undefined;
    return Array.isArray(settings?.mimeTypes) && settings.mimeTypes.includes('text/html;profile=mcp-app');
  }

  /** Who made the request, when the server authenticates its requests (HTTP with authorization); otherwise undefined. */
  caller(): Identity | undefined {
    const who = caller.current();
    if (who == null) return undefined;
    const identity: Identity = { issuer: who.issuer, subject: who.subject, scopes: [...who.scopes] };
    if (who.clientId != null) identity.clientId = who.clientId;
    return identity;
  }
}
