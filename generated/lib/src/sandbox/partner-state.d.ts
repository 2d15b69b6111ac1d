import type { components } from '../../generated/types/partner.js';
import { type Paging, type PartnerApi } from './partner-api.js';
import { PartnerLifecycle } from './partner-lifecycle.js';
export type { PartnerStateOptions, PartnerSnapshot } from './partner-store.js';
type S = components['schemas'];
type Query<Op extends 'listVerifications' | 'listUsers'> = Parameters<PartnerApi[Op]>[0];
export declare class PartnerState extends PartnerLifecycle implements PartnerApi {
    getPartner(): S['Partner'];
    updatePartner(body: S['PartnerUpdate']): S['Partner'];
    listAuthKeys(paging: Paging): S['AuthKeyList'];
    rotateAuthKey(): S['AuthKeyList'];
    activeAuthKey(): string;
    createVerification(body: S['VerificationCreate']): S['CreatedVerification'];
    revertVerification(body: S['VerificationRevert']): S['VerificationRevertResult'];
    listVerifications(query: Query<'listVerifications'>): S['VerificationList'];
    getVerification(verificationId: string): S['Verification'];
    userActivities(verificationId: string): S['UserActivityList'];
    verificationLinkedByDevice(verificationId: string): S['VerificationLinkedByDevice'];
    verificationWebhooks(verificationId: string, paging: Paging): S['VerificationWebhookRecordList'];
    listUsers(query: Query<'listUsers'>): S['UserList'];
    getUser(userId: string): S['UserDetails'];
    userLinkedByDevice(userId: string): S['UserLinkedByDevice'];
    userShares(userId: string): S['Shares'];
    createExternalUsers(body: S['ExternalUsersCreate']): S['ExternalUsersResult'];
    userFingerprints(userId: string, paging: Paging): S['FingerprintList'];
    userWebhooks(userId: string, paging: Paging): S['UserWebhookRecordList'];
}
