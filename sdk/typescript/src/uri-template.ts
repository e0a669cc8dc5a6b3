/**
 * The variables of `uri` if it matches the URI template: `{name}` matches a
 * non-empty run without `/`, `{+name}` any non-empty run; values are
 * percent-decoded. (RFC 6570's simple and reserved expansions, the ones
 * resource templates use; the same rules as the Rust SDK.)
 */
export function matchUriTemplate(template: string, uri: string): Record<string, string> | undefined {
  const parts = template.split('{');
  const literal = parts.shift() ?? '';
  if (!uri.startsWith(literal)) return undefined;
  let rest = uri.slice(literal.length);
  const expressions: Array<[string, string]> = [];
  for (const part of parts) {
    const close = part.indexOf('}');
    if (close < 0) return undefined;
    expressions.push([part.slice(0, close), part.slice(close + 1)]);
  }
  const variables: Record<string, string> = {};
  for (let index = 0; index < expressions.length; index++) {
    const [expression, after] = expressions[index]!;
    const reserved = expression.startsWith('+');
    const name = reserved ? expression.slice(1) : expression;
    const last = index + 1 === expressions.length;
    // The value runs to the next literal (the last one: to its end).
    let end: number;
    if (after === '') {
      if (!last) return undefined;
      end = rest.length;
    } else if (last) {
      if (!rest.endsWith(after)) return undefined;
      end = rest.length - after.length;
    } else {
      end = rest.indexOf(after);
      if (end < 0) return undefined;
    }
    const value = rest.slice(0, end);
    if (value === '' || (!reserved && value.includes('/'))) return undefined;
    let decoded: string;
    try {
      decoded = decodeURIComponent(value);
    } catch {
      return undefined;
    }
    variables[name] = decoded;
    rest = rest.slice(end + after.length);
  }
  return rest === '' ? variables : undefined;
}
