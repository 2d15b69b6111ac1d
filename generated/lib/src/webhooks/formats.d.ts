/** Format name to check; a string of an unlisted format is not checked (the build refuses one). */
export declare const FORMATS: Record<string, (text: string) => boolean>;
