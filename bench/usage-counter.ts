/**
 * What counting a key's use costs the event loop (docs/configuration.md, "Quotas and usage"):
 * 100,000 calls spread over 100 keys with a quota, each with its Date.now(), timed in CPU
 * time (the process's: a GC thread's too). A request takes one count and drops its receipt
 * with the request, or gives it back; asking for the usage reads one. Run alone:
 * `npx tsx bench/usage-counter.ts`.
 */
import { createUsageCounter, type Receipt } from '../src/auth/usage-counter.ts';

const CALLS = 100_000;
const KEYS = Array.from({ length: 100 }, (_, i) => i.toString(16).padStart(16, '0'));
const QUOTA = { perDay: Number.MAX_SAFE_INTEGER, perMonth: Number.MAX_SAFE_INTEGER };
const counter = createUsageCounter();

const RUNS = {
  take: () => {
    for (let i = 0; i < CALLS; i++) counter.take(KEYS[i % KEYS.length], QUOTA, Date.now());
  },
  'take, then giveBack': () => {
    for (let i = 0; i < CALLS; i++) counter.giveBack(counter.take(KEYS[i % KEYS.length], QUOTA, Date.now()) as Receipt);
  },
  usage: () => {
    for (let i = 0; i < CALLS; i++) counter.usage(KEYS[i % KEYS.length], Date.now());
  },
};

/** CPU microseconds (user and system) that `work` took. */
function cpuMicros(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const { user, system } = process.cpuUsage(before);
  return user + system;
}

for (const [name, run] of Object.entries(RUNS)) {
  // Warmed first, as a running server's counter is: the functions compiled, the keys' entries made.
  run();
  const micros = cpuMicros(run);
  console.log(`${name}: ${CALLS.toLocaleString('en-US')} calls in ${(micros / 1000).toFixed(1)} ms of CPU, ${((micros * 1000) / CALLS).toFixed(0)} ns a call`);
}
