/** A key as a pointer token: `~` becomes `~0`, `/` becomes `~1`. */
export declare const escapePointerToken: (key: string) => string;
/** A pointer token as the key it names: `~1` becomes `/`, then `~0` becomes `~`. */
export declare const unescapePointerToken: (token: string) => string;
/**
 * The value at `pointer` (`""` or `"/a/b"`, or a fragment `"#/a/b"`) inside
 * `value`; undefined where a step is missing or not an object.
 */
export declare function valueAtPointer(value: unknown, pointer: string): unknown;
/**
 * Follows a node's local `$ref` (and a chain of them) inside `doc`; a node
 * without one is returned as it is. Throws when a `$ref` leads nowhere or
 * loops, naming it, since a bundle that does is broken.
 */
export declare function resolveRef(doc: unknown, node: unknown): any;
