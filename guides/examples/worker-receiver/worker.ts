// worker.ts: a Cloudflare Worker receiving the verification service's
// webhooks, deployed with wrangler.jsonc beside it (`npx wrangler types`
// writes the Cloudflare types it uses). The Worker verifies each webhook;
// one Durable Object, with SQLite storage, keeps the handled eventIds and
// each record's data, so what the receiver knows outlives every isolate.
// The rules are those of the webhooks guide's handle-webhook.ts.
import { DurableObject } from 'cloudflare:workers';
import { createPartnerClient } from '@verification-service/contracts/partner';
import {
  verifyWebhookRequest,
  WebhookPayloadError,
  WebhookSignatureError,
  type ReceivedWebhookEvent,
} from '@verification-service/contracts/webhooks';

interface Env {
  AUTH_KEY: string;
  PREVIOUS_AUTH_KEY?: string; // while a key rotation settles
  PARTNER_URL: string;
  WEBHOOKS: DurableObjectNamespace<WebhookStore>;
}

type Data = { status?: string; updatedAt?: string | null; [field: string]: unknown } | null; // null: a deleted user
const time = (iso: string | null | undefined) => (iso == null ? Number.NaN : Date.parse(iso));

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    // One object for every record: small, and it sees each record's events in one place.
    const store = env.WEBHOOKS.get(env.WEBHOOKS.idFromName('webhooks'));
    let event: ReceivedWebhookEvent;
    try {
      event = await verifyWebhookRequest(
        request,
        [env.AUTH_KEY, env.PREVIOUS_AUTH_KEY].filter((k) => k !== undefined),
      );
    } catch (err) {
      if (err instanceof WebhookSignatureError) return new Response(null, { status: 401 });
      // Signed by the service, yet not an event this code can read: park it and
      // answer 200, since the service retries anything else every 15 minutes
      // and the same body would fail forever.
      if (err instanceof WebhookPayloadError && err.verifiedBody !== undefined) {
        await store.park(err.message, err.verifiedBody);
        return new Response(null, { status: 200 });
      }
      throw err; // the body could not be read: a 500, and the service sends it again
    }
    await store.handle(event);
    return new Response(null, { status: 200 });
  },
};

export class WebhookStore extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS handled (event_id TEXT PRIMARY KEY);
      CREATE TABLE IF NOT EXISTS records (record TEXT PRIMARY KEY, at INTEGER NOT NULL, data TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS parked (received_at TEXT NOT NULL, problem TEXT NOT NULL, body TEXT NOT NULL)`);
  }

  /** Keeps a body the service signed that this code cannot parse, to look at later. */
  park(problem: string, body: string): void {
    this.ctx.storage.sql.exec('INSERT INTO parked VALUES (?, ?, ?)', new Date().toISOString(), problem, body);
    console.error(`parked (${problem}): ${body}`);
  }

  // Delivery is at least once, in no promised order beyond the order events
  // are generated in, and several changes of one record may carry the same
  // time (a completion sends verification.updated and user.created in one
  // millisecond). So a repeat changes nothing, data older than what is stored
  // is ignored, and on a tie the record is read from the service, since the
  // events cannot say which change came last.
  async handle(event: ReceivedWebhookEvent): Promise<void> {
    const { sql } = this.ctx.storage;
    if (sql.exec('SELECT 1 FROM handled WHERE event_id = ?', event.eventId).toArray().length)
      return console.log(`${event.eventId} again: already handled`);
    const partner = () => createPartnerClient({ baseUrl: this.env.PARTNER_URL, authKey: this.env.AUTH_KEY });
    switch (event.dataType) {
      case 'verification': {
        const path = { verificationId: event.data.verificationId };
        await this.keep(
          `verification ${path.verificationId}`,
          event.data.updatedAt ?? event.createdAt,
          event.data,
          async () => {
            const { data, error, response } = await partner().GET('/verifications/{verificationId}', {
              params: { path },
            });
            if (response.status === 404) return undefined; // unknown to the service (a test's event): keep what is stored
            if (error) throw new Error(`GET /verifications/${path.verificationId}: ${JSON.stringify(error)}`);
            return data;
          },
        );
        break;
      }
      case 'user': {
        // User data carries no updatedAt: the event's createdAt dates it. A deleted user reads as 404.
        const path = { userId: event.data.userId };
        const data = event.eventType === 'user.deleted' ? null : event.data;
        await this.keep(`user ${path.userId}`, event.createdAt, data, async () => {
          const { data, error, response } = await partner().GET('/users/{userId}', { params: { path } });
          if (response.status === 404) return null;
          if (error) throw new Error(`GET /users/${path.userId}: ${JSON.stringify(error)}`);
          return data;
        });
        break;
      }
      default:
        // shareholder.verified, or an event type added after this version of the package.
        console.log(`acknowledged ${event.eventType} ${event.eventId}`);
    }
    // Marked handled after what it changed is stored: an event sent again after a failure in between ends the same.
    sql.exec('INSERT OR IGNORE INTO handled VALUES (?)', event.eventId);
  }

  // Keeps `data` when `eventTime` (compared as a time, not a string) is later
  // than what is stored; on a tie, or with a time that cannot be read, keeps
  // what `read` answers instead: undefined when the service does not know the
  // record. Other events may be handled while `read` waits for the service:
  // what is stored is looked at again after it.
  private async keep(
    record: string,
    eventTime: string | undefined,
    data: Data,
    read: () => Promise<Data | undefined>,
  ): Promise<void> {
    let at = time(eventTime);
    const storedAt = this.storedAt(record);
    if (at < storedAt) return console.log(`${record}: older than what is stored, ignored`);
    if (!(at > storedAt)) {
      const current = await read();
      if (current === undefined) return console.log(`${record}: unknown to the service, what is stored is kept`);
      data = current;
      const readAt = time(current?.updatedAt);
      at = Number.isNaN(readAt) ? storedAt : Math.max(storedAt, readAt);
    }
    if (at < this.storedAt(record)) return; // a newer one was kept meanwhile
    this.ctx.storage.sql.exec(
      'INSERT INTO records VALUES (?, ?, ?) ON CONFLICT (record) DO UPDATE SET at = excluded.at, data = excluded.data',
      record,
      at,
      JSON.stringify(data),
    );
    console.log(`${record} is ${data?.status ?? (data ? 'kept' : 'deleted')}`);
  }

  private storedAt(record: string): number {
    const [row] = this.ctx.storage.sql
      .exec<{ at: number }>('SELECT at FROM records WHERE record = ?', record)
      .toArray();
    return row?.at ?? -Infinity;
  }
}
