// Starts one Prism mock per API of the package on free loopback ports, for the
// whole test run, and hands their URLs to the tests.
import type { TestProject } from 'vitest/node';
import { MOCKED_APIS as APIS } from '../../scripts/lib/apis.mjs';
import { freePort, mockDocumentOf, startPrism } from '../../scripts/lib/prism.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrls: Record<string, string>;
  }
}

export default async function setup(project: TestProject) {
  const servers = await Promise.all(
    APIS.map(async ({ name }) => {
      const server = await startPrism({ document: mockDocumentOf(name), port: await freePort(), logLevel: 'silent' });
      return [name, server] as const;
    }),
  );
  project.provide('mockUrls', Object.fromEntries(servers.map(([name, s]) => [name, s.url])));
  return async () => {
    await Promise.all(servers.map(([, s]) => s.stop()));
  };
}
