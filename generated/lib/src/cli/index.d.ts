#!/usr/bin/env node
export declare function run(argv: string[], out?: (line: string) => void, err?: (line: string) => void): Promise<number>;
