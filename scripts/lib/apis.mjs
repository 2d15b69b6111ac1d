// @ts-check
// The APIs of the package. Every build step, the mock and the tests iterate
// over this list, so adding an API means adding its sources and one entry here
// (and in redocly.yaml).
export const APIS = [
  {
    name: 'v2',
    title: 'Verification API v2',
    summary: 'Read identity verification sessions (bearer token).',
    mockPort: 4010,
    mockPortEnv: 'MOCK_V2_PORT',
  },
  {
    name: 'partner',
    title: 'Partner Integration API',
    summary: 'Partner record, auth keys, verifications, users and the webhooks the service sends (X-Auth-Key).',
    mockPort: 4011,
    mockPortEnv: 'MOCK_PARTNER_PORT',
  },
  {
    name: 'sandbox',
    title: 'Sandbox control API',
    summary:
      'Drive the local sandbox (npx @verification-service/contracts sandbox): act as the end user or reviewer, move the clock, seed and reset.',
    // Served by the sandbox itself; a Prism mock of it would control nothing.
    mockPort: null,
  },
];

export const MOCKED_APIS = APIS.filter((api) => api.mockPort !== null);

export const sourceOf = (/** @type {{ name: string }} */ api) => `openapi/${api.name}/openapi.yaml`;
