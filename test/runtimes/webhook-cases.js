// The webhook cases every runtime runs (Node, Bun, Deno, workerd, Chromium):
// plain JavaScript with no imports, given the installed package's
// `@verification-service/contracts/webhooks` module and the data the test wrote
// (signature vectors and the documented examples). Returns one result per
// case; a case that throws where it should not is a failure, not a crash.
export async function runWebhookCases(wh, data) {
  const results = [];
  const check = async (name, fn) => {
    try {
      const detail = await fn();
      results.push({ name, pass: detail === true, detail: detail === true ? '' : String(detail) });
    } catch (err) {
      results.push({ name, pass: false, detail: `threw ${err && err.name}: ${err && err.message}` });
    }
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
  const outcome = (fn) => {
    try {
      fn();
      return 'returned';
    } catch (err) {
      return err instanceof wh.WebhookSignatureError ? 'signature' : err instanceof wh.WebhookPayloadError ? 'payload' : `other ${err && err.name}`;
    }
  };
  const request = (body, signature) =>
    new Request('https://receiver.example/webhooks', { method: 'POST', body, headers: signature === undefined ? {} : { 'X-SIGNATURE': signature } });
  const rejection = async (promise) => {
    try {
      await promise;
      return 'returned';
    } catch (err) {
      return err instanceof wh.WebhookSignatureError ? 'signature' : err instanceof wh.WebhookPayloadError ? 'payload' : `other ${err && err.name}`;
    }
  };

  for (const v of data.vectors) {
    for (const [kind, hold] of Object.entries(holders)) {
      await check(`vector ${v.key} as ${kind}: signed and verified`, () => {
        const signature = wh.signWebhookPayload(hold(v.body), v.key);
        if (signature !== v.signature) return `signed ${signature}`;
        return wh.verifyWebhookSignature(hold(v.body), v.signature, [data.otherKey, v.key]) === true || 'not verified';
      });
    }
    await check(`vector ${v.key}: a changed byte, another key, an upper-case signature are refused`, () =>
      [
        wh.verifyWebhookSignature(`${v.body} `, v.signature, v.key),
        wh.verifyWebhookSignature(v.body, v.signature, data.otherKey),
        wh.verifyWebhookSignature(v.body, v.signature.toUpperCase(), v.key),
      ].every((r) => r === false) || 'accepted',
    );
    await check(`vector ${v.key}: verifyWebhookSignatureAsync agrees`, async () =>
      ((await wh.verifyWebhookSignatureAsync(utf8(v.body), v.signature, v.key)) === true && (await wh.verifyWebhookSignatureAsync(v.body, v.signature, data.otherKey)) === false) || 'disagrees',
    );
  }

  await check('never throws on odd arguments', () => {
    const odd = [undefined, null, 0, {}, [], Symbol('x'), () => 1, 10n, new String('x')];
    for (const a of odd) for (const b of odd) if (wh.verifyWebhookSignature(a, b, a) !== false) return 'accepted an odd argument';
    for (const a of odd) if (outcome(() => wh.parseWebhookEvent(a, data.vectors[0].signature, data.key)) !== 'payload') return `body ${String(a)} not refused as payload`;
    return true;
  });

  for (const example of data.examples) {
    const text = JSON.stringify(example);
    const signature = wh.signWebhookPayload(text, data.key);
    for (const [kind, hold] of Object.entries(holders)) {
      await check(`parses ${example.eventType} held as ${kind}`, () => {
        const event = wh.parseWebhookEvent(hold(text), signature, data.key);
        return JSON.stringify(event) === text || 'parsed to something else';
      });
    }
    await check(`verifyWebhookRequest resolves ${example.eventType}`, async () => {
      const event = await wh.verifyWebhookRequest(request(text, signature), [data.otherKey, data.key]);
      return event.eventId === example.eventId || 'other event';
    });
    await check(`verifyWebhookRequestBody resolves ${example.eventType} to its text, and to null under another key`, async () => {
      const body = await wh.verifyWebhookRequestBody(request(text, signature), [data.otherKey, data.key]);
      if (body !== text) return `resolved ${String(body).slice(0, 40)}`;
      return (await wh.verifyWebhookRequestBody(request(text, signature), data.otherKey)) === null || 'accepted under another key';
    });
  }

  for (const c of data.parseCases) {
    const text = JSON.stringify(c.value);
    const signature = c.signature ?? wh.signWebhookPayload(text, data.key);
    await check(`parse case: ${c.name} -> ${c.expected}`, () => outcome(() => wh.parseWebhookEvent(text, signature, data.key)) === c.expected || outcome(() => wh.parseWebhookEvent(text, signature, data.key)));
    await check(`request case: ${c.name} -> ${c.expected}`, async () => (await rejection(wh.verifyWebhookRequest(request(text, signature), data.key))) === c.expected || 'other outcome');
  }
  await check('verifyWebhookRequestBody without X-SIGNATURE, or with a changed body, resolves to null', async () => {
    const text = JSON.stringify(data.examples[0]);
    const signature = wh.signWebhookPayload(text, data.key);
    const results = [await wh.verifyWebhookRequestBody(request(text), data.key), await wh.verifyWebhookRequestBody(request(`${text} `, signature), data.key)];
    return results.every((r) => r === null) || 'accepted';
  });
  await check('verifyWebhookRequest without X-SIGNATURE rejects with WebhookSignatureError (missing)', async () => {
    try {
      await wh.verifyWebhookRequest(request('{}'), data.key);
      return 'resolved';
    } catch (err) {
      return (err instanceof wh.WebhookSignatureError && err.problem === 'missing') || `${err.name} ${err.problem}`;
    }
  });
  return results;
}
