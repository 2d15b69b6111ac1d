// What a save under openapi/ rebuilds in `npm run dev`, and what `npm run
// diff` holds each bundle to: an API's root and every file its `$ref`s reach.
import path from 'node:path';
import { expect, it } from 'vitest';
import { apisTouchedBy, readSources } from '../scripts/lib/dev-sources.mjs';
import { ROOT } from '../scripts/lib/paths.mjs';

const sources = await readSources();

it.each([
  ['openapi/v2/openapi.yaml', ['v2']],
  ['openapi/v2/components/schemas/Error.yaml', ['v2']],
  ['openapi/partner/paths/verifications.yaml', ['partner']],
  ['openapi/partner/components/schemas/Verification.yaml', ['partner', 'sandbox']],
  ['openapi/sandbox/openapi.yaml', ['sandbox']],
  ['openapi/DECISIONS.md', []],
])('a change of %s reaches the bundles of %j', (file, apis) => {
  expect(sources.has(path.join(ROOT, file)), file).toBe(true);
  expect(apisTouchedBy([path.join(ROOT, file)], sources)).toEqual(apis);
});

it('counts a removed file its root still refers to', () => {
  const removed = path.join(ROOT, 'openapi', 'partner', 'components', 'schemas', 'Verification.yaml');
  const without = new Map([...sources].filter(([file]) => file !== removed));
  expect(apisTouchedBy([removed], without)).toEqual(['partner', 'sandbox']);
});
