import type { components, operations } from '../../generated/types/v2.js';
import type { SandboxRandom } from './random.js';
export type V2Verification = components['schemas']['Verification'];
type ListQuery = NonNullable<operations['listVerifications']['parameters']['query']>;
/** What the control API takes to create a session; the rest is assigned. */
export type V2SessionInput = Partial<Omit<V2Verification, 'id' | 'createdAt' | 'updatedAt'>> & Pick<V2Verification, 'externalId' | 'country' | 'phoneNo'>;
export declare class V2State {
    private readonly seedSessions;
    private readonly clock;
    private publicUrl;
    private readonly random;
    private sessions;
    constructor(seedSessions: () => V2Verification[], clock: {
        now(): Date;
    }, publicUrl: string, random: SandboxRandom);
    reset(): void;
    /** The base of new session `url`s (a replay uses the one of the process that made the change). */
    usePublicUrl(url: string): void;
    /** Every session, for a --state snapshot. */
    saved(): V2Verification[];
    load(sessions: V2Verification[]): void;
    get(id: string): V2Verification;
    list(query: ListQuery): components['schemas']['VerificationList'];
    create(input: V2SessionInput): V2Verification;
}
export {};
