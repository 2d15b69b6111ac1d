// Delivery made worse on purpose (`--webhook-faults`), as the documents allow the service to deliver, so a receiver
// that survives here holds in production; bodies, signatures and records stay as documented (S47).

/** How long `reorder` gathers webhooks before it sends them shuffled: long enough to catch one API call's events and the next call's. */
export const REORDER_WINDOW_MS = 1000;
/** How long `delay` holds each attempt, first and retries alike: "a few seconds", so a receiver's test sees webhooks come late. */
export const DELAY_MS = 3000;

export const WEBHOOK_FAULTS = {
  duplicate: 'each webhook delivered twice (same body and eventId)',
  reorder: `webhooks held ${REORDER_WINDOW_MS / 1000} s, then sent in a shuffled order`,
  delay: `each delivery attempt held ${DELAY_MS / 1000} s`,
} as const;

export type WebhookFaultName = keyof typeof WEBHOOK_FAULTS;

/** Why a list of webhook faults is refused, naming the option as `name`, or undefined when every entry is one. */
export function webhookFaultsRefusal(faults: unknown, name: string): string | undefined {
  const known = Object.keys(WEBHOOK_FAULTS).join(', ');
  if (!Array.isArray(faults)) return `${name} must be a list of fault names (${known}), not ${JSON.stringify(faults)}`;
  const unknown = faults.find((f) => typeof f !== 'string' || !(f in WEBHOOK_FAULTS));
  if (unknown !== undefined)
    return `${name} has an unknown webhook fault ${JSON.stringify(unknown)}; the webhook faults are: ${known}`;
  return undefined;
}

/** The events of a batch in a random order, never the order given when there are two or more (Fisher–Yates). */
export function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  // A shuffle that left the order as generated would hide what the fault is for.
  if (out.length > 1 && out.every((item, i) => item === items[i])) out.push(out.shift()!);
  return out;
}
