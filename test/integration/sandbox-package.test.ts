// `@verification-service/contracts/sandbox` (and `/sandbox/fetch`) as a
// partner's test suite gets it: the package packed and installed from the
// tarball into a fresh project with vitest and MSW, the sandbox guide's two
// vitest examples (on a port, and through MSW) written there as they stand,
// type-checked (strict, NodeNext) and run by that project's vitest. Also the
// in-process sandbox with a state file, and the control client's refusals
// of a wrong base URL, from the installed package.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, TSC_NATIVE } from '../../scripts/lib/paths.mjs';
import { exec, installInto, sharedInstall } from '../helpers/packed-package.js';
import { HANG_CEILING_MS } from '../helpers/ceilings.js';

const work = mkdtempSync(path.join(os.tmpdir(), 'vc-sandbox-package-'));
const project = path.join(work, 'partner-suite');

/** A test file of the guide: the TypeScript block that starts with `// <name>`. */
function guideExample(name: string): string {
  const guide = readFileSync(path.join(ROOT, 'guides', 'sandbox.md'), 'utf8');
  const block = [...guide.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((code) => code.startsWith(`// ${name}\n`));
  if (!block) throw new Error(`guides/sandbox.md has no \`\`\`ts block starting with "// ${name}"`);
  return block;
}
const EXAMPLES = ['sandbox.test.ts', 'msw.test.ts'];

beforeAll(async () => {
  // The run's one tarball, installed here with the project's own vitest.
  const { tarball } = await sharedInstall();
  await installInto(project, tarball, ['vitest@4.1.12', '@types/node@20.19.43', 'msw@2.9.0']);
  for (const name of EXAMPLES) writeFileSync(path.join(project, name), guideExample(name));
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      // The package's own declarations are checked with skipLibCheck off by
      // consumer.test.ts; here that would check vitest's and vite's too (9 s of CPU).
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
      },
      files: EXAMPLES,
    }),
  );
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('@verification-service/contracts/sandbox from the packed tarball', () => {
  it(
    "type-checks the sandbox guide's vitest examples, on a port and through MSW (strict, NodeNext)",
    async () => {
      // The native compiler (T1): TypeScript 5 builds the consumer fixture, which imports this entry too.
      await exec(process.execPath, [TSC_NATIVE, '-p', project]);
    },
    HANG_CEILING_MS,
  );

  it(
    "runs the guide's vitest examples with the project's own vitest, and they pass",
    async () => {
      const { stdout } = await exec(
        process.execPath,
        [path.join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter', 'verbose'],
        {
          cwd: project,
          env: { ...process.env, CI: 'true', NODE_OPTIONS: '' },
        },
      );
      expect(stdout).toMatch(/a passed scan completes the verification and creates a user/);
      expect(stdout).toMatch(/a verification started by plain fetch reaches the sandbox through MSW/);
      expect(stdout).toMatch(/2 passed/);
    },
    HANG_CEILING_MS,
  );

  it('keeps a state file (its folders made) across an in-process restart, and the control client refuses a base URL with a path', async () => {
    const script = `
      import { createSandboxClient, startSandbox } from '@verification-service/contracts/sandbox';
      const state = ${JSON.stringify(path.join(work, 'not-yet', 'there', 'state.jsonl'))};
      const first = await startSandbox({ state, authKey: 'suite-key' });
      const control = createSandboxClient({ baseUrl: first.url });
      const moved = await control.POST('/_sandbox/clock/advance', { body: { minutes: 90 } });
      const seeded = await control.POST('/_sandbox/seed');
      await first.close();
      const second = await startSandbox({ state });
      const again = createSandboxClient({ baseUrl: second.url });
      const { data: clock } = await again.GET('/_sandbox/clock');
      const { data: credentials } = await again.GET('/_sandbox/credentials');
      await second.close();
      const refused = [];
      for (const baseUrl of [second.url + '/_sandbox', 'localhost:4020']) {
        try { createSandboxClient({ baseUrl }); } catch (err) { refused.push(err.message); }
      }
      console.log(JSON.stringify({ moved: moved.response.status, seeded: seeded.data.verificationIds.length, offset: clock.offsetMinutes, key: credentials.authKey, sameKey: second.authKey, refused }));
    `;
    writeFileSync(path.join(project, 'restart.mjs'), script);
    const { stdout } = await exec(process.execPath, [path.join(project, 'restart.mjs')], { cwd: project });
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ moved: 200, seeded: 6, offset: 90, key: 'suite-key', sameKey: 'suite-key' });
    expect(result.refused).toEqual([
      expect.stringMatching(
        /^createSandboxClient: baseUrl ".*\/_sandbox" ends in a path; give the sandbox URL without it/,
      ),
      expect.stringMatching(
        /^createSandboxClient: baseUrl must be the sandbox URL, such as "http:\/\/127\.0\.0\.1:4020"/,
      ),
    ]);
  }, 60_000);
});
