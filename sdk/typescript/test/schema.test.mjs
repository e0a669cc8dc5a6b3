// The schema module, on the compiled package (`npm run build` first).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { compileSchema, warmUp } from '../dist/schema.js';

test('the warm-up runs no transform and leaves parsing as it was', () => {
  let transformed = 0;
  const upper = z.string().transform((text) => {
    transformed += 1;
    return text.toUpperCase();
  });
  const schema = compileSchema({ text: upper, times: z.number().int().optional() }, 'test');
  warmUp([schema, undefined, compileSchema({ type: 'object', properties: {} }, 'a JSON Schema')]);
  assert.equal(transformed, 0, 'the warm-up ran a transform');
  assert.deepEqual(schema.parse({ text: 'hi', times: 2 }), { text: 'HI', times: 2 });
  assert.equal(transformed, 1);
  assert.throws(() => schema.parse({ text: 5 }), /expected string, received number[\s\S]*at text/);
});

test('a schema that is not an object is warmed with the symbol itself', () => {
  let refined = 0;
  const schema = compileSchema(
    z.string().refine(() => {
      refined += 1;
      return true;
    }),
    'test',
  );
  warmUp([schema]);
  assert.equal(refined, 0, 'the warm-up ran a refinement');
  assert.equal(schema.parse('ok'), 'ok');
  assert.equal(refined, 1);
});
