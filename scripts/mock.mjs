// Serves every API of the package from its bundled document with Prism on
// 127.0.0.1 (v2 on 4010 unless MOCK_V2_PORT says otherwise). Ctrl-C stops all.
import { existsSync } from 'node:fs';
import { MOCKED_APIS as APIS } from './lib/apis.mjs';
import { fail } from './lib/paths.mjs';
import { mockDocumentOf, mockPortOf, startPrism } from './lib/prism.mjs';

const servers = [];
let stopping = false;
async function stopAll(code) {
  stopping = true;
  await Promise.all(servers.map((s) => s.stop()));
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => stopAll(0));

try {
  for (const api of APIS) {
    const document = mockDocumentOf(api.name);
    if (!existsSync(document)) fail(`${document} is missing; run \`npm run build\` first`);
    const server = await startPrism({ document, port: mockPortOf(api) });
    servers.push(server);
    // A mock that dies alone would leave the others up and the user puzzled.
    server.exited.then(({ code }) => {
      if (stopping) return;
      console.error(`error: the ${api.name} mock stopped unexpectedly (exit ${code})`);
      stopAll(1);
    });
    console.log(`${api.title} mock: ${server.url}  (${api.mockPortEnv} to change the port)`);
  }
  console.log('Ctrl-C stops the mocks.');
} catch (err) {
  console.error(`error: ${err.message}`);
  await stopAll(1);
}
