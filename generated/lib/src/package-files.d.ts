/** Reads a bundled OpenAPI document of the package (`v2` or `partner`). */
export declare function readBundledDocument(api: 'v2' | 'partner'): Record<string, any>;
