/** Reads a bundled OpenAPI document of the package. */
export declare function readBundledDocument(api: 'v2' | 'partner' | 'sandbox'): Record<string, any>;
/** Reads a bundled Arazzo workflow file of the package (generated/openapi/workflows/<name>.arazzo.json). */
export declare function readBundledWorkflows(name: string): Record<string, any>;
