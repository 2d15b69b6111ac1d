// The sandbox's options are declared once (src/sandbox/options.ts): every
// declared option is a flag of `sandbox --help` (or one code alone can
// give), accepted by both in-process doors and refused by both, naming it,
// when its value is wrong. The node:http door's Host and Origin guard is one
// allowlist, which takes more names than this machine's.
import { describe, expect, it } from 'vitest';
import { SANDBOX_USAGE, settingsFromFlags } from '../src/cli/sandbox.js';
import { createSandboxFetch } from '../src/sandbox/fetch.js';
import { doorRefusal, LOOPBACK_NAMES } from '../src/sandbox/http/control-guard.js';
import { startSandbox, type StartSandboxOptions } from '../src/sandbox/in-process.js';
import { SANDBOX_OPTIONS } from '../src/sandbox/options.js';

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
  onWebhook: () => undefined,
  onDeliveryFailure: () => undefined,
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

  it.each(DECLARED)('%s is accepted by startSandbox and createSandboxFetch', async (name) => {
    const fetchDoor = await createSandboxFetch({ [name]: RIGHT[name] });
    fetchDoor.close();
    const portDoor = await startSandbox({ [name]: RIGHT[name] });
    await portDoor.close();
    expect(fetchDoor.url).toBe('http://sandbox.localhost');
    expect(portDoor.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it.each(DECLARED)(
    '%s given the wrong type is refused by both doors, naming it, before anything starts',
    async (name) => {
      const wrong = { [name]: { wrong: true } };
      await expect(createSandboxFetch(wrong)).rejects.toThrow(new RegExp(`^createSandboxFetch: ${name} must be `));
      await expect(startSandbox(wrong)).rejects.toThrow(new RegExp(`^startSandbox: ${name} must be `));
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

describe("the node:http door's allowlist", () => {
  const header = (headers: Record<string, string>) => (name: string) => headers[name];
  const loopback = { names: LOOPBACK_NAMES, port: 4020 };
  const wider = { names: [...LOOPBACK_NAMES, 'sandbox.dev.internal'], port: 4020 };

  it('decides Host on every route and Origin on the control API from one list of names and the port', () => {
    expect(
      doorRefusal(loopback, '/partners', header({ host: 'localhost:4020', origin: 'https://attacker.example' })),
    ).toBeUndefined();
    expect(
      doorRefusal(loopback, '/_sandbox/clock', header({ host: '[::1]:4020', origin: 'http://127.0.0.1:5173' })),
    ).toBeUndefined();
    expect(doorRefusal(loopback, '/s/v1?token=t', header({ host: 'attacker.example:4020' }))?.status).toBe(403);
    const otherPort = doorRefusal(loopback, '/partners', header({ host: 'localhost:4021' }));
    expect(otherPort?.message).toMatch(
      /^the sandbox answers only requests to localhost:4020, 127\.0\.0\.1:4020 or \[::1\]:4020, not Host "localhost:4021"/,
    );
    expect(
      doorRefusal(loopback, '/_sandbox/clock', header({ host: 'localhost:4020', origin: 'null' }))?.message,
    ).toContain('not Origin "null"');
  });

  it('takes more names: a name added is allowed as Host and as Origin, and nothing else is', () => {
    const added = header({ host: 'sandbox.dev.internal:4020', origin: 'https://sandbox.dev.internal' });
    expect(doorRefusal(wider, '/_sandbox/reset', added)).toBeUndefined();
    expect(doorRefusal(loopback, '/partners', header({ host: 'sandbox.dev.internal:4020' }))?.status).toBe(403);
    expect(
      doorRefusal(wider, '/_sandbox/reset', header({ host: 'localhost:4020', origin: 'https://dev.internal' }))?.status,
    ).toBe(403);
  });
});
