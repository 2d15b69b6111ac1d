// The scenario test/integration/runtime-installed.test.ts runs in workerd and Chromium: plain JavaScript with no
// imports, given the installed package's createSandboxFetch (bundled for the browser platform). A partner's test of one
// verification: created through the partner API, its page opened and its form posted as the end user would, read back
// through the partner and v2 APIs, and the webhooks received in-process, each signature checked with Web Crypto.
// Returns a JSON summary; the test asserts on it.
export async function runSandboxFetchScenario(createSandboxFetch) {
  const hooks = [];
  const sandbox = await createSandboxFetch({
    webhookUrl: 'https://hooks.example.test/in',
    fetch: async (request) => {
      hooks.push({ url: request.url, signature: request.headers.get('x-signature'), body: await request.text() });
      return new Response('ok');
    },
  });
  const api = 'https://api.example.test';
  // The partner document asks for both headers on every call.
  const partner = { 'X-Auth-Key': sandbox.authKey, 'Content-Type': 'application/json' };
  const statusOf = async (id) => {
    const res = await sandbox.fetch(new Request(`${api}/verifications/${id}`, { headers: partner }));
    return { status: res.status, verificationStatus: (await res.json()).status };
  };
  try {
    const redirectUrl = 'https://shop.example/done';
    const createdRes = await sandbox.fetch(
      new Request(`${api}/verifications`, {
        method: 'POST',
        headers: partner,
        body: JSON.stringify({ externalUserId: crypto.randomUUID(), phoneNumber: '+4915112345678', redirectUrl }),
      }),
    );
    const verification = await createdRes.json();
    const created = { status: createdRes.status, verificationStatus: verification.status };

    // The end user opens the verification's url, then chooses "Complete".
    const pageRes = await sandbox.fetch(new Request(verification.url));
    const html = await pageRes.text();
    const page = {
      status: pageRes.status,
      contentType: pageRes.headers.get('content-type'),
      hasForm: /<form method="post"/.test(html),
      after: (await statusOf(verification.id)).verificationStatus,
    };
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? '';
    const formRes = await sandbox.fetch(
      new Request(new URL(action, verification.url), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ outcome: 'complete' }),
      }),
    );
    const form = { status: formRes.status, toRedirectUrl: formRes.headers.get('location') === redirectUrl };

    const readBack = await statusOf(verification.id);
    const v2Res = await sandbox.fetch(
      new Request(`${api}/v2/verifications/`, { headers: { Authorization: `Bearer ${sandbox.accessToken}` } }),
    );
    const v2Body = await v2Res.json();
    const v2 = { status: v2Res.status, hasItems: Array.isArray(v2Body.items) && v2Body.items.length > 0 };

    // Deliveries run beside the answers: wait for the created and the completed webhook, and the
    // user.created completion sends after it (so the summary is the same in every run).
    const events = () => hooks.map((h) => JSON.parse(h.body));
    const has = (test) => events().some(test);
    const arrived = () =>
      has((e) => e.eventType === 'verification.created') &&
      has((e) => e.data?.status === 'completed') &&
      has((e) => e.eventType === 'user.created');
    for (const deadline = Date.now() + 10_000; !arrived() && Date.now() < deadline; )
      await new Promise((r) => setTimeout(r, 10));

    const encoder = new TextEncoder();
    const key = await crypto.subtle.importKey(
      'raw',
      encoder.encode(sandbox.authKey),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
    const expected = await Promise.all(
      hooks.map(async (h) => hex(await crypto.subtle.sign('HMAC', key, encoder.encode(h.body)))),
    );
    const webhooks = {
      arrived: arrived(),
      eventTypes: [...new Set(events().map((e) => e.eventType))].sort(),
      verificationStatuses: [
        ...new Set(
          events()
            .map((e) => e.data?.status)
            .filter(Boolean),
        ),
      ].sort(),
      toWebhookUrl: hooks.every((h) => h.url === 'https://hooks.example.test/in'),
      signaturesValid: hooks.length > 0 && hooks.every((h, i) => h.signature === expected[i]),
    };
    return { created, page, form, readBack, v2, webhooks };
  } finally {
    sandbox.close();
  }
}
