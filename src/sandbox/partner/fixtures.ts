// Stand-ins for what a real session captures (documents, faces, ages, names)
// and the sandbox's own tokens and keys.
import { LAST_DATE_TIME_MS } from '../common/clock.js';
import { base64, randomBase64url, randomHex } from '../common/random.js';
import type { components } from '../../../generated/types/partner.js';
import type { DocumentData, PersonName } from './records.js';

type S = components['schemas'];

export const E164 = /^\+[1-9][0-9]{1,14}$/;
export const CALENDAR_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

const NAMES = ['Lena Hoffmann', 'Jan de Vries', 'Zofia Nowak', 'Matteo Rossi', 'Aoife Byrne'];
/** The `turn`-th stand-in name, in rotation (the state counts the turns); the first word is the first name. */
export function someName(turn: number): PersonName {
  const [firstName, ...lastName] = NAMES[turn % NAMES.length].split(' ');
  return { firstName, lastName: lastName.join(' ') };
}

export const sessionToken = () => randomBase64url(24);
export const newAuthKey = () => `sbx_${randomHex(16)}`;
export const newDeviceId = () => `dev_${randomHex(5)}`;
export const newFingerprintId = () => `fp_${randomHex(6)}`;
export const newFingerprintEventId = () => `evt_${randomHex(5)}`;

/** The device every opened link reports (the sandbox has no real browser). */
export const DEVICE = {
  userAgent:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  screen: { width: 390, height: 844 },
  timezone: 'Europe/Berlin',
};

const JFIF_HEADER = [
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
  0x00,
];
/** A JPEG-looking base64 blob (a JFIF header, then random bytes): the sandbox has no camera, only the shape of an image field. */
export const faceImage = () => base64(Uint8Array.from([...JFIF_HEADER, ...crypto.getRandomValues(new Uint8Array(48))]));

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
  given: Partial<DocumentData>,
): DocumentData {
  const issued = yearsFrom(now, -3);
  return {
    type: 'Passport',
    firstName: name.firstName,
    lastName: name.lastName,
    dateOfBirth: dateOfBirth ?? '1991-07-23',
    placeOfBirth: 'Leipzig',
    nationality: 'DEU',
    serialNo: `C01X${randomHex(3).toUpperCase().slice(0, 5)}`,
    issuedAt: dateOnly(issued),
    // Ten years after issue, held at the last day a date can say: the clock may stand in 9999 (S28).
    expiryAt: dateOnly(new Date(Math.min(yearsFrom(issued, 10).getTime(), LAST_DATE_TIME_MS))),
    issuingAuthority: 'Stadt Leipzig',
    placeOfIssue: 'Leipzig',
    ...given,
  };
}

/** The brackets of `EstimatedAge` above `under8`: `over30`, `over25`, … */
const AGE_STEPS = [30, 25, 21, 18, 16, 13, 8];

/** The face model's bracket for a known date of birth. */
export function ageBracket(dateOfBirth: string, now: Date): S['EstimatedAge'] {
  const birth = new Date(`${dateOfBirth}T00:00:00.000Z`);
  if (Number.isNaN(birth.getTime())) return 'unknown';
  const monthDay = (d: Date) => d.toISOString().slice(5, 10);
  const age = now.getUTCFullYear() - birth.getUTCFullYear() - (monthDay(now) < monthDay(birth) ? 1 : 0);
  const years = AGE_STEPS.find((step) => age >= step);
  return years === undefined ? 'under8' : (`over${years}` as S['EstimatedAge']);
}
