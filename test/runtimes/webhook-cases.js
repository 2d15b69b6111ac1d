// The webhook cases every runtime runs (Node, Bun, Deno, workerd, Chromium): plain JavaScript with no imports, given
// the installed package's webhooks module and the test's data (signature vectors, examples signed in Node, whether
// node:crypto is expected). Where node:crypto is, the synchronous functions verify; where not, each throws a TypeError
// naming what to use instead; the asynchronous ones (Web Crypto) verify in both. One result per case: a case that
// throws is a failure, not a crash. How a key list is read is the same everywhere: webhooks-untrusted-input judges it.
export async function runWebhookCases(wh, data) {
  const results = [];
  const check = async (name, fn) => {
    const detail = await Promise.resolve()
      .then(fn)
      .catch((err) => `threw ${err?.name}: ${err?.message}`);
    results.push({ name, pass: detail === true, detail: detail === true ? '' : String(detail) });
  };
  const utf8 = (s) => new TextEncoder().encode(s);
  const holders = {
    string: (s) => s,
    Uint8Array: (s) => utf8(s),
    ArrayBuffer: (s) => utf8(s).buffer,
    DataView: (s) => {
      const b = utf8(`..${s}..`);
      return new DataView(b.buffer, 2, b.length - 4);
    },
  };
  const kindOf = (err) =>
    err instanceof wh.WebhookSignatureError
      ? 'signature'
      : err instanceof wh.WebhookPayloadError
        ? 'payload'
        : `other ${err?.name}: ${err?.message}`;
  const outcome = (fn) => {
    try {
      fn();
      return 'returned';
    } catch (err) {
      return kindOf(err);
    }
  };
  const rejection = (promise) => promise.then(() => 'returned', kindOf);
  /** true when `fn` throws a TypeError whose message names `instead`. */
  const refused = (fn, instead) => {
    try {
      fn();
      return 'returned where the runtime has no node:crypto';
    } catch (err) {
      return (err instanceof TypeError && err.message.includes(instead)) || `threw ${err?.name}: ${err?.message}`;
    }
  };
  // A synchronous call: its own check where node:crypto is, the TypeError naming the alternative where not.
  const sync = (fn, check, instead) => (data.nodeCrypto ? check(fn) : refused(fn, instead));
  const verifies = (fn, expected) =>
    sync(fn, (f) => f() === expected || `answered ${!expected}`, 'verifyWebhookSignatureAsync');
  const parses = (fn, expected) => sync(fn, (f) => outcome(f) === expected || outcome(f), 'verifyWebhookRequest');
  const request = (body, signature) =>
    new Request('https://receiver.example/webhooks', {
      method: 'POST',
      body,
      headers: signature === undefined ? {} : { 'X-SIGNATURE': signature },
    });
  const all = (...answers) => answers.find((a) => a !== true) ?? true;

  await check(`node:crypto is ${data.nodeCrypto ? '' : 'not '}reachable, as this runtime is expected to`, () => {
    let found = false;
    try {
      found = typeof globalThis.process?.getBuiltinModule?.('node:crypto')?.createHmac === 'function';
    } catch {
      // A runtime whose process object refuses: no node:crypto.
    }
    return found === data.nodeCrypto || `found ${found}`;
  });

  for (const v of data.vectors) {
    for (const [kind, hold] of Object.entries(holders)) {
      await check(`vector ${v.key} as ${kind}: signed and verified`, async () =>
        all(
          sync(
            () => wh.signWebhookPayload(hold(v.body), v.key),
            (f) => f() === v.signature || `signed ${f()}`,
            'node:crypto',
          ),
          verifies(() => wh.verifyWebhookSignature(hold(v.body), v.signature, [data.otherKey, v.key]), true),
          (await wh.verifyWebhookSignatureAsync(hold(v.body), v.signature, [data.otherKey, v.key])) === true ||
            'not verified by verifyWebhookSignatureAsync',
        ),
      );
    }
    await check(`vector ${v.key}: a changed byte, another key, an upper-case signature are refused`, async () => {
      const wrong = [
        [`${v.body} `, v.signature, v.key],
        [v.body, v.signature, data.otherKey],
        [v.body, v.signature.toUpperCase(), v.key],
      ];
      for (const args of wrong)
        if ((await wh.verifyWebhookSignatureAsync(...args)) !== false) return `accepted ${args[1]}`;
      return all(...wrong.map((args) => verifies(() => wh.verifyWebhookSignature(...args), false)));
    });
  }

  const odd = [undefined, null, 0, {}, [], Symbol('x'), () => 1, 10n, new String('x')];
  await check('odd arguments: refused, never a throw (the synchronous functions: where node:crypto is)', async () => {
    for (const a of odd) {
      for (const b of odd) {
        const answer = verifies(() => wh.verifyWebhookSignature(a, b, a), false);
        if (answer !== true) return `${String(a)}, ${String(b)}: ${answer}`;
        if ((await wh.verifyWebhookSignatureAsync(a, b, a)) !== false)
          return `async accepted ${String(a)}, ${String(b)}`;
      }
      const answer = parses(() => wh.parseWebhookEvent(a, data.vectors[0].signature, data.key), 'payload');
      if (answer !== true) return `body ${String(a)}: ${answer}`;
    }
    return true;
  });

  const v = data.vectors[1];
  await check('a detached ArrayBuffer is refused: false, or WebhookPayloadError', async () => {
    const detached = () => {
      const buffer = utf8(v.body).buffer;
      structuredClone(buffer, { transfer: [buffer] });
      return buffer;
    };
    return all(
      verifies(() => wh.verifyWebhookSignature(detached(), v.signature, v.key), false),
      (await wh.verifyWebhookSignatureAsync(detached(), v.signature, v.key)) === false ||
        'verifyWebhookSignatureAsync accepted it',
      parses(() => wh.parseWebhookEvent(detached(), v.signature, v.key), 'payload'),
    );
  });

  for (const example of data.examples) {
    for (const [kind, hold] of Object.entries(holders)) {
      await check(`parses ${example.eventType} held as ${kind}`, () =>
        sync(
          () => wh.parseWebhookEvent(hold(example.text), example.signature, data.key),
          (f) => JSON.stringify(f()) === example.text || 'parsed to something else',
          'verifyWebhookRequest',
        ),
      );
    }
    const signed = () => request(example.text, example.signature);
    const keys = [data.otherKey, data.key];
    await check(`verifyWebhookRequest resolves ${example.eventType}`, async () => {
      const event = await wh.verifyWebhookRequest(signed(), keys);
      return event.eventId === example.eventId || 'other event';
    });
    await check(
      `verifyWebhookRequestBody: ${example.eventType}, null unsigned, changed or under another key`,
      async () => {
        const body = await wh.verifyWebhookRequestBody(signed(), keys);
        if (body !== example.text) return `resolved ${String(body).slice(0, 40)}`;
        const refused = [
          [signed(), data.otherKey],
          [request(example.text), keys],
          [request(`${example.text} `, example.signature), keys],
        ];
        for (const [i, [req, k]] of refused.entries())
          if ((await wh.verifyWebhookRequestBody(req, k)) !== null) return `accepted refused request ${i}`;
        return true;
      },
    );
  }

  // The same cases through parseWebhookEvent are test/webhooks.test.ts's; here the Request is the runtime's.
  for (const c of data.parseCases) {
    await check(
      `request case: ${c.name} -> ${c.expected}`,
      async () =>
        (await rejection(wh.verifyWebhookRequest(request(c.text, c.signature), data.key))) === c.expected ||
        'other outcome',
    );
  }
  await check('verifyWebhookRequest without X-SIGNATURE rejects with WebhookSignatureError (missing)', () =>
    wh.verifyWebhookRequest(request('{}'), data.key).then(
      () => 'resolved',
      (err) => (err instanceof wh.WebhookSignatureError && err.problem === 'missing') || `${err.name} ${err.problem}`,
    ),
  );
  return results;
}
