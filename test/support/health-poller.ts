/**
 * A process of its own that asks a server's /health again and again, one request at a time
 * on one kept-alive connection, and times each answer: from the request written to the last
 * byte of the answer, by this process's clock, which nothing of the test holds up (the test's
 * own process decodes PNGs and compares masks, which would show as latency there). Started by
 * health-poll.ts: `node --import tsx health-poller.ts ORIGIN`, driven by lines on its stdin:
 *
 * - `mark NAME`: starts a window; printed back as `marked NAME` once an answer sent after the
 *   mark has come (the poll is running);
 * - `report NAME`: ends the window once the request in flight has its answer, and prints
 *   `report NAME {json}`: every answer in the window (count, slowest, those past 100 ms) and
 *   every request that got none.
 *
 * On a machine loaded past what a test means (other work beside the busy loops), this
 * process itself may wait for a core while the server has long answered. A ticker every
 * TICK_MS tells when it did (a gap between ticks); each answer's time is reported whole and
 * less the time this process was held up meanwhile.
 *
 * The server's event loop may likewise wait for a core behind the busy loops: the kernel
 * keeps, per thread, how long it was ready to run and waited (/proc/PID/task/PID/schedstat,
 * its second field; Linux, with the server's pid as the third argument). That wait is the
 * machine's, not the event loop's: what `slow` judges is the answer's time less both waits,
 * what the server's own work kept it.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';

const origin = process.argv[2];
const serverPid = process.argv[3];
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
/** A pause between polls: a hundred or so a second, not a flood that would load the server's event loop itself. */
const PAUSE_MS = 5;
const SLOW_MS = 100;
const TICK_MS = 5;

interface Answer {
  /** When the request was written, in ms since this process started. */
  at: number;
  ms: number;
  /** How long the server's main thread waited for a core meanwhile. */
  queuedMs: number;
  status: number | 'failed';
  reason?: string;
}

/** Spans (start, end) during which this process's ticker did not run on time, the latest last. */
const held: [number, number][] = [];
let lastTick = performance.now();
setInterval(() => {
  const now = performance.now();
  if (now - lastTick > 2 * TICK_MS) held.push([lastTick + TICK_MS, now]);
  lastTick = now;
  while (held.length > 0 && held[0][1] < now - 600_000) held.shift();
}, TICK_MS);

/** How long, in ms, the server's main thread has waited ready for a core, in all; 0 where the kernel does not say. */
function serverQueuedMs(): number {
  if (!serverPid) return 0;
  try {
    return Number(readFileSync(`/proc/${serverPid}/task/${serverPid}/schedstat`, 'utf8').split(' ')[1]) / 1e6 || 0;
  } catch {
    return 0;
  }
}

function heldWithin(start: number, end: number): number {
  let total = 0;
  for (const [from, to] of held) total += Math.max(0, Math.min(to, end) - Math.max(from, start));
  return total;
}

let window: { name: string; answers: Answer[]; marked: boolean } | undefined;
let inFlight: Promise<void> = Promise.resolve();

function poll(): Promise<Answer> {
  const at = performance.now();
  const queuedBefore = serverQueuedMs();
  return new Promise((resolve) => {
    const done = (status: number | 'failed', reason?: string) =>
      resolve({ at, ms: performance.now() - at, queuedMs: serverQueuedMs() - queuedBefore, status, ...(reason ? { reason } : {}) });
    const req = request(`${origin}/health`, { agent }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode ?? 0));
      response.on('error', (error) => done('failed', error.message));
    });
    req.on('error', (error) => done('failed', error.message));
    req.end();
  });
}

async function loop(): Promise<never> {
  for (;;) {
    let settle!: () => void;
    inFlight = new Promise((resolve) => (settle = resolve));
    const current = window;
    const answer = await poll();
    if (current && window === current) {
      current.answers.push(answer);
      if (!current.marked) {
        current.marked = true;
        console.log(`marked ${current.name}`);
      }
    }
    settle();
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
}

createInterface({ input: process.stdin }).on('line', async (line) => {
  const [command, name] = line.trim().split(/\s+/);
  if (command === 'mark') {
    window = { name, answers: [], marked: false };
  } else if (command === 'report' && window?.name === name) {
    await inFlight;
    // After a tick: a hold that ended with an answer's arrival is seen by the ticker only once the timers run, after the answer's callbacks.
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
    const answers = window.answers.map((answer) => ({ ...answer, heldMs: heldWithin(answer.at, answer.at + answer.ms) }));
    window = undefined;
    const answered = answers.filter((answer) => answer.status === 200);
    const serverMs = (answer: { ms: number; heldMs: number; queuedMs: number }) => Math.max(0, answer.ms - answer.heldMs - answer.queuedMs);
    const serverTimes = answered.map(serverMs).sort((a, b) => a - b);
    const report = {
      answers: answered.length,
      maxMs: serverTimes.length ? serverTimes[serverTimes.length - 1] : null,
      medianMs: serverTimes.length ? serverTimes[Math.floor(serverTimes.length / 2)] : null,
      rawMaxMs: answered.length ? Math.max(...answered.map((answer) => answer.ms)) : null,
      pollerHeldMaxMs: Math.max(0, ...answers.map((answer) => answer.heldMs)),
      serverQueuedMaxMs: Math.max(0, ...answers.map((answer) => answer.queuedMs)),
      slow: answers
        .filter((answer) => serverMs(answer) > SLOW_MS)
        .map(({ at, ms, heldMs, queuedMs, status }) => ({ at: Math.round(at), ms: Math.round(ms), heldMs: Math.round(heldMs), queuedMs: Math.round(queuedMs), status })),
      failed: answers.filter((answer) => answer.status !== 200).map(({ status, reason }) => `${status}${reason ? `: ${reason}` : ''}`),
    };
    console.log(`report ${name} ${JSON.stringify(report)}`);
  }
});
// The test runner gone (stdin closed): nothing is left to report to.
process.stdin.on('end', () => process.exit(0));

void loop();
