// The examples tell one story: a user, a verification, an event or a key shown by
// several examples is the same in each, seen at different moments, in the three bundles
// and the samples renderers assemble. Each check is shown to find the contradictions planted for it.
import { describe, expect, it } from 'vitest';
import type { Json } from './helpers/openapi.js';
import { readWorld, type World } from './helpers/story.js';
import * as checks from './helpers/story-checks.js';
import * as history from './helpers/story-history-checks.js';

const world = readWorld();
const { partner, v2 } = world;

// Each check states its rule where it is written.
const RULES = [history, checks].flatMap((namespace) => Object.entries(namespace));

describe('the examples tell one story', () => {
  it('reads the entities of the examples', () => {
    expect(new Set(partner.users.map((u) => u.id)).size).toBeGreaterThanOrEqual(3);
    expect(partner.users.some((u) => u.deleted)).toBe(true);
    expect(new Set(partner.verifications.map((v) => v.id)).size).toBeGreaterThanOrEqual(6);
    expect(partner.webhookRecords.length).toBeGreaterThanOrEqual(4);
    expect(partner.userDevices.length).toBeGreaterThanOrEqual(2);
    expect(partner.externalUserBatches.length).toBeGreaterThanOrEqual(2);
    expect(partner.externalUserBatches.some((b) => b.value.externalUsersWithSuccess.length)).toBe(true);
    expect(partner.authKeyLists.length).toBeGreaterThanOrEqual(3);
    expect(partner.historyPages.length).toBeGreaterThanOrEqual(2);
    expect(partner.userPages.some((p) => /all users/i.test(p.description ?? ''))).toBe(true);
    expect(v2.v2Sessions.length).toBeGreaterThanOrEqual(4);
    expect(world.readings.length).toBeGreaterThanOrEqual(3);
    expect(world.documents.filter((d) => d.where.includes('#/components/schemas/')).length).toBeGreaterThanOrEqual(4);
    expect(world.samples.filter((s) => typeof s.value.eventId === 'string').length).toBeGreaterThanOrEqual(7);
    expect(new Set(world.urls.filter((u) => u.token).map((u) => u.verificationId)).size).toBeGreaterThanOrEqual(12);
    expect(world.listed.length - new Set(world.listed.map((u) => u.value.id)).size).toBeGreaterThanOrEqual(2);
    const sampled = world.v2Sessions.filter((s) => s.where.includes('#/components/schemas/') && s.value.id);
    expect(sampled.filter((s) => s.value.expiresAt).length).toBeGreaterThanOrEqual(2);
  });

  it.each(RULES)('%s finds no contradiction', (_, check) => {
    expect(check(world)).toEqual([]);
  });

  it('each check finds the contradictions planted for it', () => {
    /** Plants a contradiction in a copy of the world: the check must find it. */
    const finds = (check: (w: World) => string[], plant: (w: World) => unknown) => {
      const copy = structuredClone(world);
      plant(copy);
      expect(check(copy), plant.toString()).not.toEqual([]);
    };
    const FOREIGN_ID = '00000000-0000-4000-8000-000000000000';
    const LATER = '2099-01-01T00:00:00.000Z';
    const planted = <T>(value: T) => ({ where: 'planted', value });
    const lena = (w: World) => structuredClone(w.partner.users.find((u) => u.externalUsers.size > 1)!);
    const lenaAgain = (w: World, change: object) => w.partner.users.push({ ...lena(w), where: 'planted', ...change });
    const gone = (w: World) => w.partner.users.find((u) => u.deleted)!;
    const link = (w: World) =>
      w.partner.externalUserBatches.find((b) => b.value.externalUsersWithSuccess.length)!.value
        .externalUsersWithSuccess[0];

    finds(history.userProblems, (w) => lenaAgain(w, { dateOfBirth: '1990-01-01' }));
    finds(history.userProblems, (w) => lenaAgain(w, { at: LATER, phones: new Map() }));
    finds(history.deletionProblems, (w) => w.partner.userMentions.push({ where: 'planted', userId: gone(w).id }));
    finds(history.ownershipProblems, (w) => {
      const [ext] = lena(w).externalUsers.keys();
      const owner = { ...structuredClone(gone(w)), id: 'usr_planted', deleted: false };
      w.partner.users.push({ ...owner, externalUsers: new Map([[ext, owner.createdAt]]) });
    });
    finds(history.verificationProblems, (w) => {
      const one = w.partner.verifications[0];
      w.partner.verifications.push({ ...one, where: 'planted', value: { ...one.value, externalUserId: FOREIGN_ID } });
    });
    finds(history.eventProblems, (w) =>
      w.partner.events.push(planted({ ...w.partner.events[0].value, createdAt: LATER })),
    );
    const pageOf = (w: World, type: string) =>
      w.partner.historyPages.find((p) => p.value.webhooks.length > 1 && p.value.webhooks[0].type === type)!;
    finds(history.historyProblems, (w) => Object.assign(pageOf(w, 'verification').value, { count: 1 }));
    // Lena's history: the examples show 4 of her webhooks; the merge owes a second shareholder.verified.
    finds(history.historyProblems, (w) => {
      const about = w.partner.events.filter((e) => e.value.data.userId === lena(w).id);
      pageOf(w, 'user').value.count = new Set(about.map((e) => e.value.eventId)).size;
    });
    finds(history.userListProblems, (w) => {
      const all = w.partner.userPages.find((p) => /all users/i.test(p.description ?? ''))!;
      all.value = { users: all.value.users.slice(1), count: all.value.count - 1 };
    });
    finds(history.externalLinkProblems, (w) => Object.assign(link(w), { externalUserId: FOREIGN_ID }));
    finds(checks.partnerUserIdProblems, (w) => Object.assign(link(w), { partnerUserId: w.partner.users[0].id }));
    finds(checks.deviceProblems, (w) => {
      const device = w.partner.userDevices.find((d) =>
        d.value.linkedUsersByDevice.some((x: Json) => x.users.length > 1),
      )!;
      const users = device.value.linkedUsersByDevice.flatMap((x: Json) => x.users);
      const neighbour = users.find((u: Json) => u.userId !== device.value.userId).userId;
      w.partner.userDevices.push(planted({ userId: neighbour, linkedUsersByDevice: [] }));
    });
    finds(checks.accountProblems, (w) => {
      const keys = w.partner.authKeyLists[0].value.authKeys.map((k: Json) => ({ ...k, key: 'ak_live_planted' }));
      w.partner.authKeyLists.push(planted({ authKeys: keys }));
    });
    const sample = (w: World, test: (s: World['samples'][number]) => boolean) => w.samples.find(test)!.value;
    finds(checks.idProblems, (w) => {
      const created = sample(w, (s) => s.value.eventType === 'verification.created');
      sample(w, (s) => s.value.eventType === 'verification.updated').eventId = created.eventId;
    });
    finds(checks.idProblems, (w) => {
      sample(w, (s) => s.schema === 'UserWebhookRecord').id = w.partner.verifications[0].id;
    });
    finds(checks.previousUserProblems, (w) =>
      w.samples.push({ where: 'planted', schema: 'Verification', value: { previousUserId: w.partner.users[0].id } }),
    );
    finds(checks.v2Problems, (w) =>
      w.v2.v2Sessions.push(planted({ ...w.v2.v2Sessions[0].value, phoneNo: '+4930123456' })),
    );
    const reading = (w: World) => w.readings.find((r) => r.value.phoneNo === '+4915112345678')!.value;
    finds(checks.crossApiProblems, (w) => Object.assign(reading(w), { faceScan: { ageEstimation: 'OVER_18' } }));
    finds(checks.crossApiProblems, (w) => Object.assign(reading(w), { expiresAt: '2026-03-21T09:26:53.589Z' }));
    finds(checks.documentProblems, (w) => w.documents.push(planted({ ...w.documents[0].value, lastName: 'Planted' })));
    const served = (w: World) => w.urls.find((u) => u.origin !== 'http://127.0.0.1:4020' && u.token)!;
    const otherToken = Buffer.from(JSON.stringify({ sid: 'planted' })).toString('base64url');
    finds(checks.urlTokenProblems, (w) => w.urls.push({ ...served(w), where: 'planted', token: otherToken }));
    // Alone, so that only the token is wrong: the one the audit found (hex digits pasted where base64url
    // belongs), another verification's, and none.
    for (const token of [`eyJzaWQiOiI${served(world).verificationId.slice(0, 8)}In0`, otherToken, undefined])
      finds(checks.urlTokenProblems, (w) => {
        w.urls = [{ ...served(w), token }];
      });
    finds(checks.urlTokenProblems, (w) => Object.assign(served(w), { ownerId: FOREIGN_ID }));
    expect(checks.urlTokenProblems({ ...world, urls: [served(world)] })).toEqual([]);
    const listed = (w: World) => w.listed.find((u) => u.value.externalUsers.length > 2)!.value;
    finds(checks.listingProblems, (w) =>
      w.listed.push(planted({ ...listed(w), externalUsers: listed(w).externalUsers.slice(0, 2) })),
    );
    finds(checks.listingProblems, (w) => w.listed.push(planted({ ...listed(w), updatedAt: listed(w).createdAt })));
    finds(checks.v2Problems, (w) => {
      const session = w.v2.v2Sessions[0].value;
      const weekLater = new Date(Date.parse(session.expiresAt) + 7 * 24 * 3600_000).toISOString();
      w.v2Sessions.push(planted({ ...session, expiresAt: weekLater }));
    });
  });
});
