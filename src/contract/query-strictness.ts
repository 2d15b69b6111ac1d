// Query strings as a wrongly configured generator writes them (an unknown name, bracket
// style, a list in the other form): the service may ignore them and answer a wider list;
// the sandbox refuses them with the form it expects (S15), so the mistake shows early.
import type { RouteParam, Violation } from './routes.js';

/** How one declared query parameter is written (OpenAPI `style: form`). */
type QueryForm = Pick<RouteParam, 'name' | 'array' | 'explode'>;

const BRACKETS = /^(.+?)\[[0-9]*\]$/;

/** What a client should send for a parameter: its name in the documented form. */
function expectedForm(p: QueryForm): string {
  if (!p.array) return `${p.name}=VALUE, once`;
  return p.explode ? `${p.name}=VALUE1&${p.name}=VALUE2` : `${p.name}=VALUE1,VALUE2, once`;
}

/** A refusal that ends by naming the form to send instead, in its message and as `expected`. */
function sendInstead(field: string, reasonCode: string, said: string, form: QueryForm, extra = {}): Violation {
  const expected = expectedForm(form);
  return { field, reasonCode, params: { ...extra, expected, message: `${said}${expected}` } };
}

/** Violations of the query's serialisation, and the declared names they concern (not checked again). */
export function queryFormViolations(
  query: URLSearchParams,
  forms: QueryForm[],
): { violations: Violation[]; refused: Set<string> } {
  const byName = new Map(forms.map((p) => [p.name, p]));
  const violations: Violation[] = [];
  const refused = new Set<string>();
  for (const name of new Set(query.keys())) {
    const form = byName.get(name);
    if (!form) {
      const declared = byName.get(BRACKETS.exec(name)?.[1] ?? '');
      if (declared) {
        refused.add(declared.name);
        const extra = { parameter: declared.name };
        violations.push(sendInstead(name, 'UNSUPPORTED_STYLE', 'is bracket style; send ', declared, extra));
      } else {
        const known = forms.map((p) => p.name);
        const message = `is not a parameter of this operation (it takes: ${known.join(', ') || 'none'})`;
        violations.push({ field: name, reasonCode: 'UNKNOWN_PARAMETER', params: { known, message } });
      }
      continue;
    }
    const count = query.getAll(name).length;
    if (count > 1 && !(form.array && form.explode)) {
      refused.add(name);
      const what = form.array ? 'a comma-separated list' : 'a single value';
      violations.push(
        sendInstead(name, 'NOT_REPEATABLE', `is sent ${count} times; it is ${what}: send `, form, { count }),
      );
    }
  }
  return { violations, refused };
}

/** A repeated (exploded) parameter whose value was written comma-separated, or undefined. */
export function commaJoinedViolation(form: QueryForm, texts: string[]): Violation | undefined {
  if (!form.array || !form.explode || !texts.some((t) => t.includes(','))) return undefined;
  return sendInstead(form.name, 'UNSUPPORTED_STYLE', 'is comma-separated; send ', form);
}
