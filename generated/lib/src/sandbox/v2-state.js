import { SandboxError } from './partner-api.js';
import { jsonCopy } from './json-copy.js';
const DEFAULT_PAGE_SIZE = 15;
export class V2State {
    seedSessions;
    clock;
    publicUrl;
    random;
    sessions = new Map();
    constructor(seedSessions, clock, publicUrl, random) {
        this.seedSessions = seedSessions;
        this.clock = clock;
        this.publicUrl = publicUrl;
        this.random = random;
        this.reset();
    }
    reset() {
        this.sessions = new Map(this.seedSessions().map((s) => [s.id, jsonCopy(s)]));
    }
    /** The base of new session `url`s (a replay uses the one of the process that made the change). */
    usePublicUrl(url) {
        this.publicUrl = url;
    }
    /** Every session, for a --state snapshot. */
    saved() {
        return [...this.sessions.values()];
    }
    load(sessions) {
        this.sessions = new Map(sessions.map((s) => [s.id, s]));
    }
    get(id) {
        const session = this.sessions.get(id);
        if (!session)
            throw new SandboxError(404, 'Not found');
        return session;
    }
    list(query) {
        const statuses = query.statuses?.length ? new Set(query.statuses) : null;
        const from = query.createdFrom ? Date.parse(query.createdFrom) : -Infinity;
        const to = query.createdTo ? Date.parse(query.createdTo) : Infinity;
        const matches = [...this.sessions.values()]
            .filter((s) => (query.id === undefined || s.id === query.id) && (query.externalId === undefined || s.externalId === query.externalId))
            .filter((s) => !statuses || statuses.has(s.status))
            .filter((s) => {
            const created = Date.parse(s.createdAt);
            return created >= from && created <= to; // both bounds inclusive, as documented
        })
            .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
        const size = query.pageSize ?? DEFAULT_PAGE_SIZE;
        const page = Math.floor(query.page ?? 0);
        return { items: matches.slice(page * size, page * size + size), count: matches.length };
    }
    create(input) {
        const now = this.clock.now().toISOString();
        const id = this.random.uuid();
        const session = {
            workflowId: 'wf_kyc_standard',
            requirements: [{ type: 'DOCUMENT_SCAN' }, { type: 'FACE_SCAN' }],
            url: `${this.publicUrl}/s/${id}?token=${this.random.uuid()}`,
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
