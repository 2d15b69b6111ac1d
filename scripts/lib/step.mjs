// @ts-check
import { pathToFileURL } from 'node:url';
import { GENERATED } from './paths.mjs';
import { main } from './run.mjs';

/** @type {(meta: ImportMeta, step: (out: string) => unknown) => void} A step module runs on its own, or is imported by the build. */
export function runIfMain(meta, step) {
  if (process.argv[1] && meta.url === pathToFileURL(process.argv[1]).href) {
    main(() => step(GENERATED));
  }
}
