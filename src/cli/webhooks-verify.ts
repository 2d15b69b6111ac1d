import { readFile } from 'node:fs/promises';
import { webhookJson } from '../webhooks/body.js';
import { isKnownEventType, webhookPayloadIssues } from '../webhooks/parse.js';
import { signatureProblem, verifyWebhookSignature } from '../webhooks/signature.js';
import { EXIT, parseOptions, UsageError } from './usage.js';

export const VERIFY_USAGE = `Usage: verification-contracts webhooks verify --key KEY [--key OLD_KEY] --signature SIG [FILE|-]

Tells whether a captured webhook body (FILE, or standard input for - or no
FILE) and its X-SIGNATURE header match, and why not; then whether the body is
a webhook of the partner contract.

Options:
  --key KEY          the integration auth key; repeat it to try the previous
                     key too (after POST /auth-keys)
  --signature SIG    the X-SIGNATURE header as received
  -h, --help         this text

Exit status: 0 when the signature matches and the body is a valid webhook,
1 when it does not, 2 on bad arguments or an unreadable file.`;

const REASONS = {
  missing: 'the signature is empty',
  malformed: 'the signature is not 64 lowercase hexadecimal characters (the service sends lowercase hex)',
  'no-key': 'no usable key was given',
  mismatch:
    'the signature does not match this body under the given key(s): the body was changed or re-serialized (capture the raw bytes), or it was signed with another key',
} as const;

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function verifyCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parseOptions(
    'webhooks verify',
    argv,
    {
      key: { type: 'string', multiple: true },
      signature: { type: 'string' },
    },
    true,
  );
  if (values.help) {
    out(VERIFY_USAGE);
    return EXIT.ok;
  }
  if (!values.key?.length) throw new UsageError('--key is required', 'webhooks verify');
  if (values.signature === undefined) throw new UsageError('--signature is required', 'webhooks verify');
  if (positionals.length > 1) throw new UsageError('give one FILE at most', 'webhooks verify');
  const source = positionals[0] ?? '-';
  let body: Buffer;
  try {
    body = source === '-' ? await readStdin() : await readFile(source);
  } catch (err) {
    throw new UsageError(`cannot read ${source}: ${(err as Error).message}`);
  }

  const problem = signatureProblem(body, values.signature, values.key);
  if (problem) {
    out(`invalid: ${REASONS[problem]}.`);
    const last = body.at(-1);
    if (problem === 'mismatch' && (last === 0x0a || last === 0x0d)) {
      const trimmed = body.subarray(0, body.length - (body.at(-2) === 0x0d && last === 0x0a ? 2 : 1));
      if (verifyWebhookSignature(trimmed, values.signature, values.key)) {
        out('hint: it matches the body without its final newline; the capture added one.');
      }
    }
    return EXIT.failed;
  }
  out('signature: valid.');
  let payload: unknown;
  try {
    // Decoded as parseWebhookEvent decodes: bytes that are not UTF-8 are refused, not replaced.
    payload = webhookJson(body);
  } catch (err) {
    out(`payload: invalid, not UTF-8 JSON (${(err as Error).message}).`);
    return EXIT.failed;
  }
  const issues = webhookPayloadIssues(payload);
  if (issues.length) {
    out('payload: does not match the partner contract:');
    for (const i of issues) out(`  ${i.path || '(body)'} ${i.message}`);
    return EXIT.failed;
  }
  const { eventType } = payload as { eventType: string };
  // What parseWebhookEvent returns as an UnknownWebhookEvent: a receiver answers 200 and ignores it.
  if (!isKnownEventType(eventType))
    out(
      `payload: a valid webhook of event type ${eventType}, which this version does not know; a receiver answers 200 and ignores it.`,
    );
  else out(`payload: a valid ${eventType} webhook.`);
  return EXIT.ok;
}
