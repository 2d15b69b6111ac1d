// Query strings as a wrongly configured generator writes them (an unknown name, bracket
// style, a list in the other form): the service may ignore them and answer a wider list;
// the sandbox refuses them with the form it expects (S15), so the mistake shows early.
import type { Violation } from './routes.js';

/** How one declared query parameter is written (OpenAPI `style: form`). */
export interface QueryForm {
  name: string;
  array: boolean;
  /** `status=a&status=b` when true, `status=a,b` when false. */
  explode: boolean;
}

const BRACKETS = /^(.+?)\[[0-9]*\]$/;

/** What a client should send for a parameter: its name in the documented form. */
function expectedForm(p: QueryForm): string {
  if (!p.array) return `${p.name}=VALUE, once`;
  return p.explode ? `${p.name}=VALUE1&${p.name}=VALUE2` : `${p.name}=VALUE1,VALUE2, once`;
}

function violation(field: string, reasonCode: string, message: string, extra: Record<string, unknown> = {}): Violation {
  return { field, reasonCode, params: { ...extra, message } };
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
      const base = BRACKETS.exec(name)?.[1];
      const declared = base === undefined ? undefined : byName.get(base);
      if (declared) {
        refused.add(declared.name);
        violations.push(
          violation(name, 'UNSUPPORTED_STYLE', `is bracket style; send ${expectedForm(declared)}`, {
            parameter: declared.name,
            expected: expectedForm(declared),
          }),
        );
      } else {
        const known = forms.map((p) => p.name).join(', ') || 'none';
        violations.push(
          violation(name, 'UNKNOWN_PARAMETER', `is not a parameter of this operation (it takes: ${known})`, {
            known: forms.map((p) => p.name),
          }),
        );
      }
      continue;
    }
    const count = query.getAll(name).length;
    if (count > 1 && !(form.array && form.explode)) {
      refused.add(name);
      const what = form.array ? 'a comma-separated list' : 'a single value';
      violations.push(
        violation(name, 'NOT_REPEATABLE', `is sent ${count} times; it is ${what}: send ${expectedForm(form)}`, {
          count,
          expected: expectedForm(form),
        }),
      );
    }
  }
  return { violations, refused };
}

/** A repeated (exploded) parameter whose value was written comma-separated, or undefined. */
export function commaJoinedViolation(form: QueryForm, texts: string[]): Violation | undefined {
  if (!form.array || !form.explode || !texts.some((t) => t.includes(','))) return undefined;
  return violation(form.name, 'UNSUPPORTED_STYLE', `is comma-separated; send ${expectedForm(form)}`, {
    expected: expectedForm(form),
  });
}
