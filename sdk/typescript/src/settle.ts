// Running a handler inside an export: its value (or the promise of one)
// mapped to the contract's, and whatever it throws turned into the export's
// error variant, so that no JS throw escapes an export and traps the instance.
import { PromptError, ResourceError, ToolError, messageOf } from './errors.js';
import type { Variant } from './values.js';

export type Awaitable<T> = T | Promise<T>;

// StarlingMonkey runs its event loop until an export's promise settles, so
// `async` handlers work there. The QuickJS engine built without async
// support does not: a promise cannot be waited for. The event loop's timers
// tell the two apart.
const awaitsExports = typeof (globalThis as { setTimeout?: unknown }).setTimeout === 'function';

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Maps a handler's value (or promise of one) with `map`; anything thrown
 * becomes the error variant `fail` makes, thrown as the bindings want.
 */
export function settle<T>(run: () => unknown, map: (value: any) => T, fail: (thrown: unknown) => Variant): Awaitable<T> {
  let value: unknown;
  try {
    value = run();
  } catch (thrown) {
    throw fail(thrown);
  }
  if (isThenable(value)) {
    if (!awaitsExports) {
      // Keep an unhandled rejection from surfacing later.
      Promise.resolve(value).catch(() => undefined);
      throw fail(
        new Error(
          'the handler returned a Promise, which this engine (QuickJS, without async) cannot wait for: make it synchronous (the context calls are) or build with --backend starlingmonkey',
        ),
      );
    }
    return Promise.resolve(value).then(
      (v) => {
        try {
          return map(v);
        } catch (thrown) {
          throw fail(thrown);
        }
      },
      (thrown) => {
        throw fail(thrown);
      },
    );
  }
  try {
    return map(value);
  } catch (thrown) {
    throw fail(thrown);
  }
}

function isVariant(thrown: unknown, tags: string[]): thrown is Variant {
  return typeof thrown === 'object' && thrown !== null && tags.includes((thrown as Variant).tag) && typeof (thrown as Variant).val === 'string';
}

const toolTags = ['invalid-parameters', 'execution-error', 'schema-error', 'not-found'];
export function toolFailure(thrown: unknown): Variant {
  if (thrown instanceof ToolError) return { tag: thrown.kind, val: thrown.message };
  if (isVariant(thrown, toolTags)) return { tag: thrown.tag, val: thrown.val };
  return { tag: 'execution-error', val: messageOf(thrown) };
}

const resourceTags = ['execution-error', 'not-found'];
export function resourceFailure(thrown: unknown): Variant {
  if (thrown instanceof ResourceError) return { tag: thrown.kind, val: thrown.message };
  if (isVariant(thrown, resourceTags)) return { tag: thrown.tag, val: thrown.val };
  return { tag: 'execution-error', val: messageOf(thrown) };
}

const promptTags = ['invalid-parameters', 'internal-error', 'not-found'];
export function promptFailure(thrown: unknown): Variant {
  if (thrown instanceof PromptError) return { tag: thrown.kind, val: thrown.message };
  if (isVariant(thrown, promptTags)) return { tag: thrown.tag, val: thrown.val };
  return { tag: 'internal-error', val: messageOf(thrown) };
}

const completionTags = ['invalid-parameters', 'execution-error', 'schema-error', 'not-found'];
export function completionFailure(thrown: unknown): Variant {
  if (isVariant(thrown, completionTags)) return { tag: thrown.tag, val: thrown.val };
  return { tag: 'execution-error', val: messageOf(thrown) };
}
