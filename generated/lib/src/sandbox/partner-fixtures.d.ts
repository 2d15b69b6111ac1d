import type { components } from '../../generated/types/partner.js';
import type { DocumentData, PersonName } from './partner-records.js';
type S = components['schemas'];
export declare const E164: RegExp;
export declare const CALENDAR_DATE: RegExp;
export declare function someName(): PersonName;
export declare const hex: (bytes: number) => string;
export declare const sessionToken: () => string;
export declare const newAuthKey: () => string;
export declare const newDeviceId: () => string;
export declare const newFingerprintId: () => string;
export declare const newFingerprintEventId: () => string;
/** A JPEG-looking base64 blob: the sandbox has no camera, only the shape of an image field. */
export declare function faceImage(): string;
/** The document a scan reads, from the partner's and the user's data where known. */
export declare function scannedDocument(now: Date, name: PersonName, dateOfBirth: string | undefined, given?: Partial<DocumentData>): DocumentData;
/** The face model's bracket for a known date of birth. */
export declare function ageBracket(dateOfBirth: string, now: Date): S['EstimatedAge'];
export {};
