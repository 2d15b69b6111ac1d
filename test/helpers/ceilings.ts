// The time limit of a test or hook that installs, bundles or drives other processes: a ceiling for a
// hang, not a measure (a loaded machine runs such a step many times slower); `npm run bench` measures speed.
export const HANG_CEILING_MS = 20 * 60_000;
