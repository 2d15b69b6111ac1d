const id = (req, name) => String(req.params[name]);
const paging = (req) => ({ page: req.query.page, limit: req.query.limit });
// Success statuses as the document decides them (DECISIONS P1): 201 for the
// three operations that create something, 200 for the rest.
export function partnerHandlers(state) {
    return {
        getPartner: () => [200, state.getPartner()],
        updatePartner: (req) => [200, state.updatePartner(req.body)],
        listAuthKeys: (req) => [200, state.listAuthKeys(paging(req))],
        createAuthKey: () => [201, state.rotateAuthKey()],
        createVerification: (req) => [201, state.createVerification(req.body)],
        revertVerification: (req) => [200, state.revertVerification(req.body)],
        listVerifications: (req) => [200, state.listVerifications(req.query)],
        getVerification: (req) => [200, state.getVerification(id(req, 'verificationId'))],
        listVerificationUserActivities: (req) => [200, state.userActivities(id(req, 'verificationId'))],
        getVerificationLinkedByDevice: (req) => [200, state.verificationLinkedByDevice(id(req, 'verificationId'))],
        listVerificationWebhooks: (req) => [200, state.verificationWebhooks(id(req, 'verificationId'), paging(req))],
        listUsers: (req) => [200, state.listUsers(req.query)],
        getUser: (req) => [200, state.getUser(id(req, 'userId'))],
        getUserLinkedByDevice: (req) => [200, state.userLinkedByDevice(id(req, 'userId'))],
        getUserShares: (req) => [200, state.userShares(id(req, 'userId'))],
        createExternalUsers: (req) => [201, state.createExternalUsers(req.body)],
        listUserFingerprints: (req) => [200, state.userFingerprints(id(req, 'userId'), paging(req))],
        listUserWebhooks: (req) => [200, state.userWebhooks(id(req, 'userId'), paging(req))],
    };
}
