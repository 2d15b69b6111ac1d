/** Reads a bundled OpenAPI document of the package. */
export declare function readBundledDocument(api: 'v2' | 'partner' | 'sandbox'): Record<string, any>;
