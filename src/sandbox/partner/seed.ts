// A small, realistic starting data set, built only through the engine's
// operations (lifecycle.ts) so it carries the same webhooks and histories as hand-made data.
import type { components } from '../../../generated/types/partner.js';
import type { PartnerState } from './state.js';

/** The operations seeding drives: the partner API's create and the control API's lifecycle. */
type SeedOperations = Pick<
  PartnerState,
  'createVerification' | 'openLink' | 'enterName' | 'enterDateOfBirth' | 'verifyPhone' | 'scan' | 'markShareholder'
>;

// Fresh partner-side ids on every run, so seeding twice never meets its own
// in-review session (409) and adds a second set instead.
export function seedPartnerState(state: SeedOperations, randomUUID: () => string) {
  const create = (phoneNumber: string, extra: Partial<components['schemas']['VerificationCreate']> = {}) =>
    state.createVerification({
      phoneNumbers: [{ phoneNumber, isVerified: false }],
      externalUserId: randomUUID(),
      redirectUrl: 'https://app.northwind-mobility.example/verification/done',
      errorRedirectUrl: 'https://app.northwind-mobility.example/verification/error',
      requirements: [{ type: 'firstAndLastName' }, { type: 'dateOfBirth' }, { type: 'document' }],
      reason: 'Age check before the first e-scooter rental',
      author: 'onboarding-service',
      metadata: { channel: 'mobile-app' },
      ...extra,
    }).id;

  // Lena completes, becomes a shareholder, then verifies for a second account: a merge with `shareholder.verified`.
  const lena = create('+4915112345678', { metadata: { orderId: 'NW-2026-004817', channel: 'mobile-app' } });
  state.openLink(lena, { deviceId: 'dev_4f9a2c7e1b' });
  state.enterName(lena, { firstName: 'Lena', lastName: 'Hoffmann' });
  state.enterDateOfBirth(lena, { dateOfBirth: '1991-07-23' });
  state.verifyPhone(lena);
  const lenaUser = state.scan(lena, { outcome: 'pass', document: { type: 'Passport', placeOfBirth: 'Leipzig' } })
    .userId!;
  state.markShareholder(lenaUser, { sharesNumber: 250 });
  const lenaAgain = create('+4915112345678', { requirements: [{ type: 'document' }] });
  state.openLink(lenaAgain, { deviceId: 'dev_4f9a2c7e1b' });
  state.scan(lenaAgain, {
    outcome: 'pass',
    document: { firstName: 'Lena', lastName: 'Hoffmann', dateOfBirth: '1991-07-23' },
  });

  // Jan waits for a reviewer.
  const jan = create('+31612345678', { firstName: 'Jan', lastName: 'de Vries' });
  state.openLink(jan);
  state.enterName(jan, { firstName: 'Jan', lastName: 'de Vries' });
  state.enterDateOfBirth(jan, { dateOfBirth: '1987-02-14' });
  state.scan(jan, {
    outcome: 'review',
    document: {
      type: 'Driver License',
      nationality: 'NLD',
      placeOfBirth: 'Utrecht',
      issuingAuthority: 'Gemeente Utrecht',
      placeOfIssue: 'Utrecht',
    },
  });

  // Zofia scanned but has not typed her name yet.
  const zofia = create('+48601234567', { requirements: [{ type: 'firstAndLastName' }, { type: 'document' }] });
  state.openLink(zofia);
  state.scan(zofia, {
    outcome: 'pass',
    document: {
      firstName: 'Zofia',
      lastName: 'Nowak',
      nationality: 'POL',
      placeOfBirth: 'Kraków',
      issuingAuthority: 'Prezydent Miasta Krakowa',
      placeOfIssue: 'Kraków',
    },
  });

  // Matteo's scan failed.
  const matteo = create('+393471234567', { requirements: [{ type: 'document' }] });
  state.openLink(matteo);
  state.scan(matteo, {
    outcome: 'fail',
    document: { firstName: 'Matteo', lastName: 'Rossi', nationality: 'ITA', placeOfBirth: 'Torino' },
  });

  // Aoife has the link but has not opened it; she uses the deprecated fields.
  const aoife = create('+353851234567', {
    phoneNumbers: undefined,
    phoneNumber: '+353851234567',
    isPhoneNumberVerified: true,
    requirements: undefined,
    requireFirstAndLastName: true,
    timeToExpiry: 1440,
  });

  return { verificationIds: [lena, lenaAgain, jan, zofia, matteo, aoife], userIds: [lenaUser] };
}
