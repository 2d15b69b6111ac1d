// The sandbox's options are declared once (src/sandbox/options.ts): each is a
// flag of `sandbox --help` (unless only code can give it), and every door takes
// and refuses it alike; the Host and Origin guard reads one allowlist.
import { describe, expect, it } from 'vitest';
import { SANDBOX_USAGE, sandboxCommand, settingsFromFlags } from '../src/cli/sandbox.js';
import { createSandboxFetch } from '../src/sandbox/fetch.js';
import { doorRefusal, LOOPBACK_NAMES } from '../src/sandbox/http/control-guard.js';
import { startSandbox, type StartSandboxOptions } from '../src/sandbox/in-process.js';
import { LISTEN_OPTIONS, SANDBOX_OPTIONS } from '../src/sandbox/options.js';

type Declared = keyof typeof SANDBOX_OPTIONS;

// A right value of each: tsc fails here until an option added to the declaration has one.
const RIGHT: { [Name in Declared]-?: NonNullable<StartSandboxOptions[Name]> } = {
  authKey: 'sbx_options_test_key',
  accessToken: 'v2_options_test_token',
  webhookUrl: 'http://127.0.0.1:9/webhooks',
  retryIntervalSeconds: 60,
  deliveryTimeoutSeconds: 2,
  allowUnknownFields: true,
  webhookFaults: ['duplicate'],
  allowedHosts: ['sandbox.test'],
  onWebhook: () => undefined,
  onDeliveryFailure: () => undefined,
};
// A wrong value of each, of the right type where it has one.
const WRONG: { [Name in Declared]-?: unknown } = {
  authKey: ' ',
  accessToken: '',
  webhookUrl: 'partner.example.test/hooks',
  retryIntervalSeconds: 0,
  deliveryTimeoutSeconds: -1,
  allowUnknownFields: 'yes',
  webhookFaults: 'duplicate',
  allowedHosts: ['sandbox:4020'],
  onWebhook: 'https://partner.example.test/hooks',
  onDeliveryFailure: 'stderr',
};
const DECLARED = Object.keys(SANDBOX_OPTIONS) as Declared[];
const refuse = (message: string): never => {
  throw new Error(message);
};

describe('each declared option', () => {
  it('is a flag of `sandbox --help` that the command reads as the value code gives, unless only code can give it (a function)', () => {
    const flagged = DECLARED.filter((name) => typeof RIGHT[name] !== 'function');
    expect(flagged.length).toBeGreaterThanOrEqual(7);
    for (const name of flagged) {
      const flag = SANDBOX_OPTIONS[name].flag?.name;
      expect(flag, name).toBeDefined();
      expect(SANDBOX_USAGE, name).toMatch(new RegExp(`^  --${flag}\\b`, 'm'));
      const right = RIGHT[name];
      const text = Array.isArray(right) ? right.join(',') : typeof right === 'boolean' ? right : String(right);
      expect(settingsFromFlags({ [flag!]: text }, refuse), name).toEqual({ [name]: right });
    }
  });

  it.each(DECLARED)(
    '%s is accepted by startSandbox and createSandboxFetch, and the wrong type or a wrong value refused by both, naming it, before anything starts',
    async (name) => {
      const fetchDoor = await createSandboxFetch({ [name]: RIGHT[name] });
      fetchDoor.close();
      const portDoor = await startSandbox({ [name]: RIGHT[name] });
      await portDoor.close();
      expect(fetchDoor.url).toBe('http://sandbox.localhost');
      expect(portDoor.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      for (const wrong of [{ [name]: { wrong: true } }, { [name]: WRONG[name] }]) {
        await expect(createSandboxFetch(wrong)).rejects.toThrow(new RegExp(`^createSandboxFetch: ${name} must be `));
        await expect(startSandbox(wrong)).rejects.toThrow(new RegExp(`^startSandbox: ${name} must be `));
      }
    },
  );

  it('read from the command line is checked by the same rule, naming the flag', () => {
    expect(() => settingsFromFlags({ 'retry-interval': '0' }, refuse)).toThrow(
      '--retry-interval must be a positive number of seconds',
    );
    expect(() => settingsFromFlags({ 'webhook-url': 'hooks.example' }, refuse)).toThrow(
      '--webhook-url must be an http:// or https:// URL, not "hooks.example"',
    );
    expect(
      settingsFromFlags(
        { 'retry-interval': '1.5', 'allow-unknown-fields': true, 'webhook-faults': 'delay,delay' },
        refuse,
      ),
    ).toEqual({
      retryIntervalSeconds: 1.5,
      allowUnknownFields: true,
      webhookFaults: ['delay'],
    });
  });
});

describe('each option only a port needs (host, port, state)', () => {
  // A wrong value of each, as typed and as code gives it.
  const WRONG: { [Name in keyof typeof LISTEN_OPTIONS]-?: [string, unknown] } = {
    host: [' ', ' '],
    port: ['65536', 65536],
    state: ['', ''],
  };

  it.each(Object.entries(WRONG))(
    '%s is a flag of `sandbox --help`, and its wrong value is refused by the command and by startSandbox by one rule',
    async (name, [typed, given]) => {
      const flag = LISTEN_OPTIONS[name as keyof typeof WRONG].flag!.name;
      expect(SANDBOX_USAGE).toMatch(new RegExp(`^  --${flag}\\b`, 'm'));
      const byCommand = await sandboxCommand([`--${flag}`, typed], () => undefined).catch((err: Error) => err.message);
      const byCode = await startSandbox({ [name]: given }).catch((err: Error) => err.message);
      expect(byCommand).toMatch(new RegExp(`^--${flag} must be `));
      expect(byCode).toMatch(new RegExp(`^startSandbox: ${name} must be `));
      // The same rule in the same words, whichever door (the command quotes the text it was given).
      const rule = (message: string, named: string) => message.replace(named, '').replace(/ not .*$/, '');
      expect(rule(String(byCode), `startSandbox: ${name}`)).toBe(rule(String(byCommand), `--${flag}`));
    },
  );
});

const OTHER_TEST =
  /^the sandbox answers only requests to localhost:4020, 127\.0\.0\.1:4020, \[::1\]:4020 or sandbox\.test, not Host "other\.test:4020"; call it by one of those names, or start the sandbox with --allowed-hosts other\.test \(or SANDBOX_ALLOWED_HOSTS, or allowedHosts of startSandbox\) to allow that name$/;
const ALLOWLISTS = {
  loopback: { names: LOOPBACK_NAMES, port: 4020 },
  wider: { names: [...LOOPBACK_NAMES, 'sandbox.dev.internal'], port: 4020 },
  added: { names: LOOPBACK_NAMES, port: 4020, allowedHosts: ['sandbox.test'] },
};

describe("the Host and Origin guard's one allowlist (allowedHosts, --allowed-hosts, SANDBOX_ALLOWED_HOSTS)", () => {
  // [allowlist, target, Host, Origin, what the 403 says (answered when undefined)]: Host on every route,
  // Origin on the control API; this machine's names only with the port, an added name on any port.
  it.each([
    ['loopback', '/partners', 'localhost:4020', 'https://attacker.example', undefined],
    ['loopback', '/_sandbox/clock', '[::1]:4020', 'http://127.0.0.1:5173', undefined],
    ['loopback', '/s/v1?token=t', 'attacker.example:4020', undefined, /^the sandbox answers only requests to /],
    [
      'loopback',
      '/partners',
      'localhost:4021',
      undefined,
      /^the sandbox answers only requests to localhost:4020, 127\.0\.0\.1:4020 or \[::1\]:4020, not Host "localhost:4021"/,
    ],
    ['loopback', '/_sandbox/clock', 'localhost:4020', 'null', /not Origin "null"/],
    ['wider', '/_sandbox/reset', 'sandbox.dev.internal:4020', 'https://sandbox.dev.internal', undefined],
    ['loopback', '/partners', 'sandbox.dev.internal:4020', undefined, /not Host/],
    ['wider', '/_sandbox/reset', 'localhost:4020', 'https://dev.internal', /not Origin/],
    ['added', '/_sandbox/credentials', 'sandbox.test:4020', undefined, undefined],
    ['added', '/_sandbox/credentials', 'sandbox.test', undefined, undefined],
    ['added', '/_sandbox/credentials', 'SANDBOX.test:8080', undefined, undefined],
    ['added', '/partners', 'localhost:8080', undefined, /not Host/],
    ['added', '/_sandbox/reset', 'sandbox.test', 'http://sandbox.test:3000', undefined],
    ['added', '/partners', 'other.test:4020', undefined, OTHER_TEST],
    [
      'added',
      '/_sandbox/reset',
      'sandbox.test',
      'https://evil.test',
      /not Origin "https:\/\/evil\.test"; start the sandbox with --allowed-hosts evil\.test /,
    ],
  ] as const)('%s: %s with Host %s and Origin %s', (allowlist, target, host, origin, refused) => {
    const headers: Record<string, string | undefined> = { host, origin };
    const refusal = doorRefusal(ALLOWLISTS[allowlist], target, (name) => headers[name]);
    if (refused === undefined) expect(refusal).toBeUndefined();
    else expect(refusal).toEqual({ status: 403, message: expect.stringMatching(refused) });
  });

  it('takes host names only: a scheme, a port or a path is refused naming the flag or the variable read', () => {
    expect(settingsFromFlags({ 'allowed-hosts': 'sandbox, sandbox.test' }, refuse)).toEqual({
      allowedHosts: ['sandbox', 'sandbox.test'],
    });
    for (const wrong of ['sandbox:4020', 'http://sandbox', 'sandbox/x', 'a,,b', 'user@sandbox']) {
      expect(() => settingsFromFlags({ 'allowed-hosts': wrong }, refuse), wrong).toThrow(/^--allowed-hosts/);
    }
    const variable = { SANDBOX_ALLOWED_HOSTS: 'sandbox.test' };
    expect(settingsFromFlags({}, refuse, variable)).toEqual({ allowedHosts: ['sandbox.test'] });
    // The flag wins over the variable.
    expect(settingsFromFlags({ 'allowed-hosts': 'ci.test' }, refuse, variable)).toEqual({ allowedHosts: ['ci.test'] });
    expect(() => settingsFromFlags({}, refuse, { SANDBOX_ALLOWED_HOSTS: 'sandbox.test:4020' })).toThrow(
      /^SANDBOX_ALLOWED_HOSTS must be a list of host names/,
    );
  });

  it('guards a fetch handler given it by the URL host, on the control API by Origin too, and leaves one without it open', async () => {
    const guarded = await createSandboxFetch({ allowedHosts: ['sandbox.test'], url: 'https://sandbox.example' });
    const open = await createSandboxFetch();
    try {
      const credentials = (base: string, init?: RequestInit) => new Request(`${base}/_sandbox/credentials`, init);
      expect((await guarded.fetch(credentials('https://sandbox.test'))).status).toBe(200);
      expect((await guarded.fetch(credentials('http://localhost:8787'))).status).toBe(200);
      expect((await guarded.fetch(credentials('https://sandbox.example'))).status).toBe(200);
      const rebound = await guarded.fetch(credentials('http://rebind.attacker.test:8787'));
      expect(rebound.status).toBe(403);
      const body = await rebound.text();
      expect(body).not.toContain(guarded.accessToken);
      expect(JSON.parse(body).message).toContain(
        'not Host "rebind.attacker.test:8787"; call it by one of those names, or create the handler with createSandboxFetch({ allowedHosts: [\'rebind.attacker.test\'] }) to allow that name',
      );
      const page = credentials('https://sandbox.test', { headers: { Origin: 'https://attacker.test' } });
      expect((await guarded.fetch(page)).status).toBe(403);
      expect((await open.fetch(credentials('http://rebind.attacker.test'))).status).toBe(200);
    } finally {
      guarded.close();
      open.close();
    }
  });
});
