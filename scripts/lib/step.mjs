// @ts-check
import { pathToFileURL } from 'node:url';
import { GENERATED } from './paths.mjs';
import { main } from './run.mjs';

// Lets a step module run on its own (`node scripts/bundle.mjs`)
// and still be imported by scripts/build.mjs.
/**
 * @param {ImportMeta} meta
 * @param {(out: string) => unknown} step
 */
export function runIfMain(meta, step) {
  if (process.argv[1] && meta.url === pathToFileURL(process.argv[1]).href) {
    main(() => step(GENERATED));
  }
}
