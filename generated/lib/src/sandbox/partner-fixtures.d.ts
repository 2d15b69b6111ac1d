import type { components } from '../../generated/types/partner.js';
import type { DocumentData, PersonName } from './partner-records.js';
import type { SandboxRandom } from './random.js';
type S = components['schemas'];
export declare const E164: RegExp;
export declare const CALENDAR_DATE: RegExp;
/** The `turn`-th stand-in name, in rotation (the state counts the turns). */
export declare function someName(turn: number): PersonName;
export declare const sessionToken: (rand: SandboxRandom) => string;
export declare const newAuthKey: (rand: SandboxRandom) => string;
export declare const newDeviceId: (rand: SandboxRandom) => string;
export declare const newFingerprintId: (rand: SandboxRandom) => string;
export declare const newFingerprintEventId: (rand: SandboxRandom) => string;
/** A JPEG-looking base64 blob: the sandbox has no camera, only the shape of an image field. */
export declare function faceImage(rand: SandboxRandom): string;
/** The document a scan reads, from the partner's and the user's data where known. */
export declare function scannedDocument(rand: SandboxRandom, now: Date, name: PersonName, dateOfBirth: string | undefined, given?: Partial<DocumentData>): DocumentData;
/** The face model's bracket for a known date of birth. */
export declare function ageBracket(dateOfBirth: string, now: Date): S['EstimatedAge'];
export {};
