import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
let start: NodeJS.CpuUsage; let file = '';
beforeAll(() => { start = process.cpuUsage(); file = expect.getState().testPath ?? '?'; });
afterAll(() => { const d = process.cpuUsage(start); appendFileSync('/tmp/cpu-per-file.txt', `${((d.user + d.system) / 1e6).toFixed(2)} ${file}\n`); });
