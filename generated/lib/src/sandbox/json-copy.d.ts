export declare function jsonCopy<T>(value: T): T;
