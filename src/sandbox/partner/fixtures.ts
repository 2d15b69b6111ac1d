// Realistic stand-ins for what a real session would capture: documents,
// face images, age estimates, names, and the sandbox's own tokens and keys
// (from Web Crypto). Deterministic where a test may compare.
import { base64, hexThenRandom, randomBase64url, randomHex } from '../common/random.js';
import type { components } from '../../../generated/types/partner.js';
import type { DocumentData, PersonName } from './records.js';

type S = components['schemas'];

export const E164 = /^\+[1-9][0-9]{1,14}$/;
export const CALENDAR_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

const NAMES: PersonName[] = [
  { firstName: 'Lena', lastName: 'Hoffmann' },
  { firstName: 'Jan', lastName: 'de Vries' },
  { firstName: 'Zofia', lastName: 'Nowak' },
  { firstName: 'Matteo', lastName: 'Rossi' },
  { firstName: 'Aoife', lastName: 'Byrne' },
];
/** The `turn`-th stand-in name, in rotation (the state counts the turns). */
export function someName(turn: number): PersonName {
  return NAMES[turn % NAMES.length];
}

const hex = randomHex;
export const sessionToken = () => randomBase64url(24);
export const newAuthKey = () => `sbx_${hex(16)}`;
export const newDeviceId = () => `dev_${hex(5)}`;
export const newFingerprintId = () => `fp_${hex(6)}`;
export const newFingerprintEventId = () => `evt_${hex(5)}`;

/** A JPEG-looking base64 blob: the sandbox has no camera, only the shape of an image field. */
export function faceImage(): string {
  return base64(hexThenRandom('ffd8ffe000104a46494600010100000100010000', 48));
}

const dateOnly = (d: Date) => d.toISOString().slice(0, 10);
const yearsFrom = (d: Date, years: number) => {
  const r = new Date(d);
  r.setUTCFullYear(r.getUTCFullYear() + years);
  return r;
};

/** The document a scan reads, from the partner's and the user's data where known. */
export function scannedDocument(
  now: Date,
  name: PersonName,
  dateOfBirth: string | undefined,
  given: Partial<DocumentData> = {},
): DocumentData {
  const issued = yearsFrom(now, -3);
  return {
    type: 'Passport',
    firstName: name.firstName,
    lastName: name.lastName,
    dateOfBirth: dateOfBirth ?? '1991-07-23',
    placeOfBirth: 'Leipzig',
    nationality: 'DEU',
    serialNo: `C01X${hex(3).toUpperCase().slice(0, 5)}`,
    issuedAt: dateOnly(issued),
    expiryAt: dateOnly(yearsFrom(issued, 10)),
    issuingAuthority: 'Stadt Leipzig',
    placeOfIssue: 'Leipzig',
    ...given,
  };
}

const AGE_STEPS: [number, S['EstimatedAge']][] = [[30, 'over30'], [25, 'over25'], [21, 'over21'], [18, 'over18'], [16, 'over16'], [13, 'over13'], [8, 'over8']];

/** The face model's bracket for a known date of birth. */
export function ageBracket(dateOfBirth: string, now: Date): S['EstimatedAge'] {
  const birth = new Date(`${dateOfBirth}T00:00:00.000Z`);
  if (Number.isNaN(birth.getTime())) return 'unknown';
  let age = now.getUTCFullYear() - birth.getUTCFullYear();
  const beforeBirthday =
    now.getUTCMonth() < birth.getUTCMonth() ||
    (now.getUTCMonth() === birth.getUTCMonth() && now.getUTCDate() < birth.getUTCDate());
  if (beforeBirthday) age -= 1;
  return AGE_STEPS.find(([years]) => age >= years)?.[1] ?? 'under8';
}
