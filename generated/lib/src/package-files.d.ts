/** Reads a bundled OpenAPI document of the package. */
export declare function readBundledDocument(api: 'v2' | 'partner' | 'sandbox'): Record<string, any>;
/** Reads an Arazzo workflow file of the package, as JSON (generated/workflows/<name>.arazzo.json). */
export declare function readBundledWorkflows(name: string): Record<string, any>;
/** Where the package's reference is hosted (`homepage` in its package.json). */
export declare function packageHomepage(): string;
/** The package's version, from its package.json. */
export declare function packageVersion(): string;
