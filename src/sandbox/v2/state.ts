// The v2 read API's sessions: seeded from the v2 document's examples, added
// through the control API, read with the documented filters and paging.
import { randomUUID } from '../common/random.js';
import type { components, operations } from '../../../generated/types/v2.js';
import type { components as ControlComponents } from '../../../generated/types/sandbox.js';
import { SandboxError } from '../common/sandbox-error.js';
import { jsonCopy } from '../common/json-copy.js';
import { filtered, type ListFilters } from '../common/list-filters.js';

export type V2Verification = components['schemas']['Verification'];
type Control = ControlComponents['schemas'];
type ListQuery = NonNullable<operations['listVerifications']['parameters']['query']>;

const DEFAULT_PAGE_SIZE = 15;

const sessionFilters: ListFilters<ListQuery, V2Verification> = {
  id: (s, id) => s.id === id,
  externalId: (s, externalId) => s.externalId === externalId,
  statuses: (s, statuses) => !statuses.length || statuses.includes(s.status),
  // Both bounds of the creation window are inclusive, as documented.
  createdFrom: (s, from) => Date.parse(s.createdAt) >= Date.parse(from),
  createdTo: (s, to) => Date.parse(s.createdAt) <= Date.parse(to),
  page: null,
  pageSize: null,
};

export class V2State {
  private sessions = new Map<string, V2Verification>();

  constructor(
    private readonly seedSessions: () => V2Verification[],
    private readonly clock: { now(): Date },
    private readonly publicUrl: string,
  ) {
    this.reset();
  }

  reset(): void {
    this.sessions = new Map(this.seedSessions().map((s) => [s.id, jsonCopy(s)]));
  }

  /** Every session, for a --state snapshot. */
  saved(): V2Verification[] {
    return [...this.sessions.values()];
  }

  /** Replaces every session with the state file's. */
  load(sessions: V2Verification[]): void {
    this.sessions = new Map(sessions.map((s) => [s.id, s]));
  }

  get(id: string): V2Verification {
    const session = this.sessions.get(id);
    if (!session) throw new SandboxError(404, 'Not found');
    return jsonCopy(session);
  }

  list(query: ListQuery): components['schemas']['VerificationList'] {
    const matches = filtered(this.sessions.values(), query, sessionFilters).sort(
      (a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id),
    );
    const size = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const page = Math.floor(query.page ?? 0);
    return { items: matches.slice(page * size, page * size + size), count: matches.length };
  }

  /** A session made through the control API, the fields it leaves out assigned. */
  create(input: Control['V2VerificationCreate']): V2Verification {
    const now = this.clock.now().toISOString();
    const id = randomUUID();
    const session: V2Verification = {
      workflowId: 'wf_kyc_standard',
      requirements: [{ type: 'DOCUMENT_SCAN' }, { type: 'FACE_SCAN' }],
      url: `${this.publicUrl}/s/${id}?token=${randomUUID()}`,
      status: 'CREATED',
      metadata: {},
      successUrl: 'https://shop.example.com/account/verified',
      errorUrl: 'https://shop.example.com/account/verification-failed',
      supportUrl: 'https://shop.example.com/help/identity',
      identityDocument: null,
      faceScan: null,
      reviewResult: null,
      createdBy: 'sandbox',
      expiresAt: new Date(this.clock.now().getTime() + 7 * 24 * 3600_000).toISOString(),
      ...input,
      id,
      createdAt: now,
      updatedAt: now,
    };
    this.sessions.set(id, session);
    return session;
  }
}
