// The partner document's "States and transitions" table (copied here, as tests
// do not read the source documents; P55 adds revert rule 1's move), row by row,
// through the control API and the end user's page, and no pair it leaves out.
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../generated/types/partner.js';
import { createPartnerClient, type PartnerClient } from '../src/partner.js';
import { createV2Client } from '../src/v2.js';
import type { WebhookEvent } from '../src/webhooks/events.js';
import { webhookPayloadIssues } from '../src/webhooks/parse.js';
import { useServedSandbox } from './helpers/served-sandbox.js';

type Status = components['schemas']['VerificationStatus'];
const NAME = { firstName: 'Lena', lastName: 'Hoffmann' };

/** How a move is made: a control or partner call, or a button of the end user's page. */
type Way =
  | { control: string; body?: unknown }
  | { clock: 'validTo' }
  | { create: 'samePhone' }
  | { revert: true }
  | { page: 'open' | 'complete' | 'waiting' | 'review' | 'decline' };

type Row = { from: Status; to: Status; ways: Way[] };

const scan = (outcome: string): Way => ({ control: 'scan', body: { outcome } });

// The rows of "States and transitions", each source line quoted above its
// entries; "closed / expired" rows are split in two.
const TABLE: Row[] = [
  // | `created` | user opens the link | | `started` | `verification.updated` |
  { from: 'created', to: 'started', ways: [{ control: 'open' }, { page: 'open' }] },
  // | `created` | partner action or new session | closed, usually because a new verification is made for the same phone number | `closed` | |
  { from: 'created', to: 'closed', ways: [{ create: 'samePhone' }, { control: 'close' }] },
  // | `created` | time | `validTo` reached | `expired` | |
  { from: 'created', to: 'expired', ways: [{ clock: 'validTo' }, { control: 'expire' }] },
  // | `started` | user progress | face scanned, but name or date of birth still needed | `waitingForUserInput` | |
  { from: 'started', to: 'waitingForUserInput', ways: [scan('pass'), { page: 'waiting' }] },
  // | `started` | user progress | manual review needed | `inReview` | |
  { from: 'started', to: 'inReview', ways: [scan('review'), { page: 'review' }] },
  // | `started` | user progress | passed without review | `completed` | |
  { from: 'started', to: 'completed', ways: [scan('pass'), { page: 'complete' }] },
  // | `started` | user progress | failed (for example the phone number belongs to another user) | `declined` | |
  { from: 'started', to: 'declined', ways: [scan('fail'), { page: 'decline' }] },
  // | `started` | closure / time | closed or `validTo` reached | `closed` / `expired` | |
  { from: 'started', to: 'closed', ways: [{ create: 'samePhone' }, { control: 'close' }] },
  { from: 'started', to: 'expired', ways: [{ clock: 'validTo' }, { control: 'expire' }] },
  // | `waitingForUserInput` | user progress | manual review needed | `inReview` | |
  { from: 'waitingForUserInput', to: 'inReview', ways: [scan('review'), { page: 'review' }] },
  // | `waitingForUserInput` | user progress | passed | `completed` | |
  {
    from: 'waitingForUserInput',
    to: 'completed',
    ways: [{ control: 'name', body: NAME }, { page: 'complete' }],
  },
  // | `waitingForUserInput` | user progress | failed | `declined` | |
  { from: 'waitingForUserInput', to: 'declined', ways: [scan('fail'), { page: 'decline' }] },
  // | `waitingForUserInput` | closure / time | closed or `validTo` reached | `closed` / `expired` | |
  { from: 'waitingForUserInput', to: 'closed', ways: [{ control: 'close' }] },
  { from: 'waitingForUserInput', to: 'expired', ways: [{ clock: 'validTo' }, { control: 'expire' }] },
  // | `inReview` | manual review | accepted | `completed` | a review may create a user (`user.created`) |
  { from: 'inReview', to: 'completed', ways: [{ control: 'review/accept' }] },
  // | `completed` | revert operation, or the service's own later analysis that finds irregularities | | `reverted` | `previousUserId` becomes available |
  { from: 'completed', to: 'reverted', ways: [{ revert: true }] },
  // Revert rule 1: "Allowed only when status is `completed`, or
  // `waitingForUserInput` with ID scan already required" (P55).
  { from: 'waitingForUserInput', to: 'reverted', ways: [{ revert: true }] },
];
const ALLOWED = new Set(TABLE.map((r) => `${r.from} -> ${r.to}`));

/**
 * Every action a verification can be given, for the pairs the table leaves out:
 * each way of the table but the page's opening and the clock, and the steps no
 * row names.
 */
const ACTIONS: Way[] = [
  ...new Map(
    TABLE.flatMap((row) => row.ways)
      .filter((way) => !('clock' in way) && !('page' in way && way.page === 'open'))
      .map((way) => [describeWay(way), way]),
  ).values(),
  { control: 'date-of-birth', body: { dateOfBirth: '1991-07-23' } },
  { control: 'phone-verification' },
];

const events: WebhookEvent[] = [];
const served = useServedSandbox({ onWebhook: (event) => events.push(event) });
const control = served.control;
let partner: PartnerClient;
beforeAll(() => {
  partner = createPartnerClient({ baseUrl: served.sandbox.url, authKey: served.sandbox.authKey });
});

let n = 0;
type Session = { id: string; url: string; phone: string };

async function statusOf(id: string): Promise<Status> {
  const { data } = await partner.GET('/verifications/{verificationId}', { params: { path: { verificationId: id } } });
  return data!.status as Status;
}

/** The control calls that bring a new verification (a name requirement left missing) to each status; typed by the document, so it names every status. */
const REACH: Record<Status, [string, unknown?][]> = {
  created: [],
  started: [['open']],
  waitingForUserInput: [['open'], ['scan', { outcome: 'pass' }]],
  inReview: [['open'], ['scan', { outcome: 'review' }]],
  completed: [['open'], ['scan', { outcome: 'pass' }], ['name', NAME]],
  declined: [['open'], ['scan', { outcome: 'fail' }]],
  closed: [['close']],
  expired: [['expire']],
  reverted: [['open'], ['scan', { outcome: 'pass' }], ['name', NAME]],
};
const STATUSES = Object.keys(REACH) as Status[];

/**
 * A verification in `status`, moved there through the control API; unless
 * `name` is false, a name requirement is left missing, so a passed scan waits
 * for it.
 */
async function reach(status: Status, options: { minutes?: number; document?: boolean; name?: boolean } = {}) {
  const phone = `+49152${String(10_000_000 + ++n)}`;
  const requirements = [
    ...(options.name === false ? [] : [{ type: 'firstAndLastName' as const }]),
    ...(options.document === false ? [] : [{ type: 'document' as const }]),
  ];
  const { data, response } = await partner.POST('/verifications', {
    body: {
      externalUserId: crypto.randomUUID(),
      redirectUrl: 'https://partner.example.com/kyc/done',
      errorRedirectUrl: 'https://partner.example.com/kyc/error',
      phoneNumbers: [{ phoneNumber: phone, isVerified: false }],
      requirements,
      timeToExpiry: options.minutes,
    },
  });
  expect(response.status).toBe(201);
  const v: Session = { id: data!.id, url: data!.url, phone };
  for (const [step, body] of REACH[status]) {
    const answer = await control(`/verifications/${v.id}/${step}`, body);
    expect(answer.status, `${step}: ${answer.text}`).toBe(200);
  }
  if (status === 'reverted') await revert(v);
  expect(await statusOf(v.id)).toBe(status);
  return v;
}

async function revert(v: Session) {
  const { response } = await partner.POST('/verifications/revert', {
    body: { verificationId: v.id, author: 'lifecycle-table' },
  });
  return response.status;
}

/** The end user's page: a GET (opening the link), or the form posted with a button's outcome. */
async function page(v: Session, outcome: string) {
  if (outcome === 'open') return (await fetch(v.url, { redirect: 'manual' })).status;
  const res = await fetch(v.url, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: served.sandbox.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
  });
  await res.arrayBuffer();
  return res.status;
}

/** The buttons the page shows (by outcome), or none when it hands the user back or refuses. */
async function buttons(v: Session): Promise<string[]> {
  const res = await fetch(v.url, { redirect: 'manual' });
  const html = await res.text();
  return [...html.matchAll(/<button [^>]*value="([a-z]+)"/g)].map((m) => m[1]);
}

/** Makes the move; returns the HTTP status of the call that made it. */
async function move(v: Session, way: Way, minutes = 0): Promise<number> {
  if ('control' in way) return (await control(`/verifications/${v.id}/${way.control}`, way.body)).status;
  if ('clock' in way) return (await control('/clock/advance', { minutes })).status;
  if ('create' in way) {
    const body = { externalUserId: crypto.randomUUID(), redirectUrl: 'https://partner.example.com/kyc/done' };
    const phoneNumbers = [{ phoneNumber: v.phone, isVerified: false }];
    return (await served.call('POST', '/verifications', { ...body, phoneNumbers })).status;
  }
  if ('revert' in way) return revert(v);
  return page(v, way.page);
}

function describeWay(way: Way) {
  if ('control' in way) {
    const outcome = (way.body as { outcome?: string } | undefined)?.outcome;
    return `control ${way.control}${outcome ? ` ${outcome}` : ''}`;
  }
  if ('clock' in way) return 'the clock passing validTo';
  if ('create' in way) return 'a new verification for the same phone number';
  return 'revert' in way ? 'POST /verifications/revert' : `the page: ${way.page}`;
}

/** The statuses of the `verification.updated` webhooks about one verification since a mark. */
type Updated = Extract<WebhookEvent, { eventType: 'verification.updated' }>;
const updatesOf = (id: string, mark: number) =>
  events
    .slice(mark)
    .filter((e): e is Updated => e.eventType === 'verification.updated' && e.data.verificationId === id)
    .map((e) => e.data);

describe('every row of the table is produced, with its verification.updated webhook', () => {
  const cases = TABLE.flatMap((row) =>
    row.ways.map((way) => [`${row.from} → ${row.to} by ${describeWay(way)}`, row, way] as const),
  );

  it.each(cases)('%s', async (_, row, way) => {
    const short = 'clock' in way ? 5 : undefined;
    // Without a missing name a passed scan completes at once; with one it waits.
    const name = !(row.from === 'started' && row.to === 'completed');
    const v = await reach(row.from, { minutes: short, name });
    const mark = events.length;
    const status = await move(v, way, short);
    expect(status, describeWay(way)).toBeLessThan(400);
    expect(await statusOf(v.id)).toBe(row.to);
    const updates = updatesOf(v.id, mark);
    expect(updates.map((d) => d.status)).toEqual([row.to]);
    for (const e of events.slice(mark)) expect(webhookPayloadIssues(e), e.eventType).toEqual([]);
    if (row.to === 'reverted') {
      // P9: the user the data was detached from, or null when no user held it yet.
      const previous = (updates[0] as { previousUserId?: string | null }).previousUserId;
      if (row.from === 'completed') expect(previous).toEqual(expect.any(String));
      else expect(previous).toBeNull();
    }
  });

  it('revert from waitingForUserInput is refused (409) without an ID scan requirement, as rule 1 says (P55)', async () => {
    const v = await reach('waitingForUserInput', { document: false });
    const mark = events.length;
    expect(await revert(v)).toBe(409);
    expect(await statusOf(v.id)).toBe('waitingForUserInput');
    expect(updatesOf(v.id, mark)).toEqual([]);
  });
});

describe('no pair the table leaves out is produced', () => {
  const cases = STATUSES.flatMap((from) => ACTIONS.map((way) => [from, describeWay(way), way] as const));

  it.each(cases)('from %s, %s', async (from, _, way) => {
    const v = await reach(from);
    const mark = events.length;
    await move(v, way);
    const after = await statusOf(v.id);
    if (after !== from) expect(ALLOWED.has(`${from} -> ${after}`), `${from} -> ${after}`).toBe(true);
    // At most one status change, and its webhook says so.
    expect(updatesOf(v.id, mark).map((d) => d.status)).toEqual(after === from ? [] : [after]);
  });

  // A finished verification refuses every control action and the revert; one in review, a scan; a created one,
  // a scan until its link is opened (its page offering no button in review: the test below).
  const FINISHED: Way[] = [...ACTIONS.filter((way) => 'control' in way), { revert: true }];
  it.each([
    ['declined', FINISHED],
    ['closed', FINISHED],
    ['expired', FINISHED],
    ['reverted', FINISHED],
    ['inReview', [scan('pass'), scan('review'), scan('fail')]],
    ['created', [scan('review')]],
  ] as [Status, Way[]][])('%s refuses with 409 what it cannot take, changing nothing', async (from, ways) => {
    const v = await reach(from);
    for (const way of ways) expect(await move(v, way), describeWay(way)).toBe(409);
    expect(await statusOf(v.id)).toBe(from);
  });

  it('the page offers Complete, Needs review and Decline in waitingForUserInput, and all four while started with a name missing', async () => {
    expect(await buttons(await reach('waitingForUserInput'))).toEqual(['complete', 'review', 'decline']);
    expect(await buttons(await reach('started'))).toEqual(['complete', 'waiting', 'review', 'decline']);
    for (const status of ['inReview', 'completed', 'declined', 'closed', 'expired', 'reverted'] as const) {
      expect(await buttons(await reach(status)), status).toEqual([]);
    }
  });
});

describe('the control API beside the table', () => {
  it('marks a shareholder, which the partner API reads and the users list filters by', async () => {
    const v = await reach('completed');
    const { userId } = (await served.call('GET', `/verifications/${v.id}`)).body;
    const shares = { isShareholder: true, sharesNumber: 120 };
    expect((await served.call('PUT', `/_sandbox/users/${userId}/shares`, { sharesNumber: 120 })).body).toEqual(shares);
    expect((await partner.GET('/users/{userId}/shares', { params: { path: { userId } } })).data).toEqual(shares);
    const holders = await partner.GET('/users', { params: { query: { isShareholder: true } } });
    expect(holders.data?.users.map((u) => u.id)).toContain(userId);
  });

  it('creates a v2 session that the v2 API lists and gets', async () => {
    const session = { externalId: 'signup-90001', country: 'PL', phoneNo: '+48601234567' };
    const created = await control('/v2/verifications', session);
    expect(created.status).toBe(201);
    const v2 = createV2Client({ baseUrl: served.sandbox.url, accessToken: served.sandbox.accessToken });
    const got = await v2.GET('/v2/verifications/{id}', { params: { path: { id: created.body.id } } });
    expect(got.data).toMatchObject({ externalId: 'signup-90001', country: 'PL', status: 'CREATED' });
    const listed = await v2.GET('/v2/verifications/', { params: { query: { externalId: 'signup-90001' } } });
    expect(listed.data?.count).toBe(1);
  });

  it('refuses an unknown control query parameter, and resets to an empty state', async () => {
    expect((await served.call('GET', '/_sandbox/clock?verbose=1')).status).toBe(400);
    expect((await control('/reset')).status).toBe(204);
    expect((await partner.GET('/verifications', {})).data?.count).toBe(0);
  });
});
