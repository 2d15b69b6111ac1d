// Part 2: the typed clients against a raw fetch of the same URL with the same
// headers, on a local node:http server that answers a fixed JSON body.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../paths.mjs';
import { MeasureError, builtFile } from './proc.mjs';
import { V2_ID } from './mock.mjs';

const lib = (file) => pathToFileURL(builtFile(ROOT, 'src', file)).href;

function fixedBody() {
  const doc = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'openapi', 'v2.json'), 'utf8'));
  const example = Object.values(doc.components.examples).find((e) => e.value?.id === V2_ID)?.value;
  return JSON.stringify(example ?? { id: V2_ID, status: 'APPROVED' });
}

export async function benchClients({ requests = 3000, rounds = 12, log }) {
  const { createV2Client } = await import(lib('v2.js'));
  const { createPartnerClient } = await import(lib('partner.js'));
  const body = fixedBody();
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${server.address().port}`;

  const accessToken = 'bench-access-token';
  const authKey = 'bench-auth-key';
  const v2 = createV2Client({ baseUrl, accessToken });
  const partner = createPartnerClient({ baseUrl, authKey });
  const partnerId = '2f6a9c14-8e3b-4d71-a5c2-7b0e9d4f1a38';
  // The headers each client sends, sent by hand.
  const v2Headers = { Authorization: `Bearer ${accessToken}` };
  const partnerHeaders = { 'Content-Type': 'application/json', 'X-Auth-Key': authKey };

  const variants = {
    v2Raw: async () => {
      const res = await fetch(`${baseUrl}/v2/verifications/${V2_ID}`, { headers: v2Headers });
      if (!res.ok) throw new MeasureError(`raw fetch got ${res.status}`);
      return res.json();
    },
    v2Client: async () => {
      const { data, response } = await v2.GET('/v2/verifications/{id}', { params: { path: { id: V2_ID } } });
      if (!response.ok) throw new MeasureError(`createV2Client GET got ${response.status}`);
      return data;
    },
    partnerRaw: async () => {
      const res = await fetch(`${baseUrl}/verifications/${partnerId}`, { headers: partnerHeaders });
      if (!res.ok) throw new MeasureError(`raw fetch got ${res.status}`);
      return res.json();
    },
    partnerClient: async () => {
      const { data, response } = await partner.GET('/verifications/{verificationId}', {
        params: { path: { verificationId: partnerId } },
      });
      if (!response.ok) throw new MeasureError(`createPartnerClient GET got ${response.status}`);
      return data;
    },
  };
  const names = Object.keys(variants);
  const totals = Object.fromEntries(names.map((n) => [n, 0]));
  const perRound = Math.ceil(requests / rounds);
  try {
    // Warm-up: JIT, the connection pool.
    for (const n of names) for (let i = 0; i < 200; i++) await variants[n]();
    log(`  ${names.length} variants × ${perRound * rounds} sequential requests in ${rounds} interleaved rounds`);
    for (let r = 0; r < rounds; r++) {
      // Each round runs every variant once, in an order that rotates, so
      // drift of the machine spreads over all of them.
      const order = names.map((_, i) => names[(i + r) % names.length]);
      for (const n of order) {
        const fn = variants[n];
        const start = performance.now();
        for (let i = 0; i < perRound; i++) await fn();
        totals[n] += performance.now() - start;
      }
    }
  } finally {
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
  const count = perRound * rounds;
  const us = Object.fromEntries(names.map((n) => [n, (totals[n] * 1000) / count]));
  return {
    requests: count,
    rounds,
    bodyBytes: Buffer.byteLength(body),
    usPerRequest: us,
    ratio: { v2: us.v2Client / us.v2Raw, partner: us.partnerClient / us.partnerRaw },
  };
}
