// The time limit of a test or hook that installs, bundles or drives other
// processes (npm, esbuild, Chromium, workerd, a sandbox under load). It is a
// ceiling for a hang, not a measure: on a loaded machine such a step runs many
// times slower than on a quiet one, and a test must fail for what it asserts,
// never for the load beside it. Speed is measured by `npm run bench`.
export const HANG_CEILING_MS = 20 * 60_000;
