/**
 * Faults the generated requests found in today's code that are being fixed elsewhere (issue
 * 18). While listed, a request that meets one is either not sent (`unsafe`: it harms the
 * server for every request after it) or its matching problems are tolerated and recorded,
 * so that the suite lands and still fails on anything new. Fixing a fault means deleting its
 * entry here, and the `test.fails` that reproduces it becomes a plain `test`.
 */
import { PROTOTYPE_NAMES, type GeneratedRequest } from './request-arbitraries.ts';

export interface KnownFault {
  id: string;
  /** What is wrong, with the item of issue 18 that fixes it. */
  description: string;
  /** Requests not sent while the fault is known. */
  unsafe?: (request: GeneratedRequest) => boolean;
  /** Whether `problem` on `request` is this fault. */
  explains?: (request: GeneratedRequest, problem: string) => boolean;
}

const lower = (text: string) => text.toLowerCase();
const param = (request: GeneratedRequest, name: string) => request.params.filter(([given]) => lower(given) === name).map(([, value]) => value);

export const KNOWN_FAULTS: KnownFault[] = [
  {
    id: 'unbudgeted-hot-spots',
    description:
      'issue 18 item 1: a map of every point of a large file with includeHotSpots=1 as an envelope builds all hot spots (and their attributes) ' +
      'in one stretch on the event loop with no budget: 20,000 points × 20 fields took 16 s and 1.6 GB (XML), and 100,000 kill the process.',
    unsafe: (request) =>
      request.route === 'map' &&
      param(request, 'file').some((file) => lower(file.trim()) === 'points') &&
      param(request, 'includehotspots').includes('1') &&
      param(request, 'fid').length === 0 &&
      !param(request, 'format').some((format) => ['png', 'jpeg'].includes(lower(format))),
  },
  {
    id: 'ogc-key-in-any-case-quoted',
    description: "issue 18 item 6: /ogc quotes the values of a parameter named 'KEY' (any case but 'key') given twice with different values, the valid key among them.",
    explains: (request, problem) =>
      problem === 'the body quotes the key' && /^\/ogc/i.test(request.target) && request.params.some(([name]) => name !== 'key' && lower(name) === 'key'),
  },
  {
    id: 'path-echoed',
    description: 'issue 18 item 6: a 404 for an unknown path (or an unknown collection or feature under /ogc) quotes the path, so a key pasted into the path comes back.',
    explains: (request, problem) => problem === 'the body quotes the key' && request.keyPlacement === 'in-path',
  },
  {
    id: 'prototype-parameter-names',
    description: "issue 18 item 7: images and map refuse a parameter named like an Object.prototype key (?__proto__=x, ?constructor=x, ?toString=x) as 'given more than once'.",
    explains: (request, problem) =>
      problem.startsWith('ignored parameter changed the answer') && request.params.some(([name]) => PROTOTYPE_NAMES.includes(lower(name)) || PROTOTYPE_NAMES.includes(name)),
  },
  {
    id: 'png-draws-every-image',
    description: 'issue 18 item 2: format=png|svg draws every image of the fid list and answers the first, so a long list is refused by limits.maxPixelsPerRequest (or costs up to 155 times the CPU) for one picture.',
    explains: (_request, problem) => problem.startsWith('one picture:') && problem.includes('limits.maxPixelsPerRequest'),
  },
  {
    id: 'head-refusal-with-body',
    description:
      'found by these tests (not in issue 18): a HEAD request whose URL or headers pass 16 KiB gets its 414/431 envelope as a body ' +
      '(src/runtime/node.ts answerClientError writes it whatever the method), which HTTP forbids: the client fails to parse the answer.',
    explains: (request, problem) =>
      request.method === 'HEAD' && problem.startsWith('no answer: connection failed: Parse Error') && (request.target.length > 16_000 || Object.values(request.headers).some((value) => value.length > 16_000)),
  },
  {
    id: 'cql-text-refused',
    description:
      "found by these tests (not in issue 18): /ogc items refuse filter-lang=cql-text with 400 (\"must be 'cql2-text'\"), though decisions.md " +
      '(Browsing and selecting) says /ogc accepts it as well as cql2-text, for GDAL 3.6 and clients of its age; src/ogc/parameters.ts filterLang.',
    explains: (request, problem) => problem.startsWith('a 400 for a request whose every parameter is valid') && request.params.some(([name, value]) => name === 'filter-lang' && value === 'cql-text'),
  },
];

/** The known fault that explains `problem`, if one does. */
export function knownFaultOf(request: GeneratedRequest, problem: string): KnownFault | undefined {
  return KNOWN_FAULTS.find((fault) => fault.explains?.(request, problem));
}

/** The known fault that makes `request` unsafe to send, if one does. */
export function unsafeBecause(request: GeneratedRequest): KnownFault | undefined {
  return KNOWN_FAULTS.find((fault) => fault.unsafe?.(request));
}

/** Known faults met during a run, with one example each, for the run's summary. */
export class FaultLog {
  private readonly seen = new Map<string, { count: number; example: string }>();

  record(fault: KnownFault, request: GeneratedRequest, problem: string): void {
    const entry = this.seen.get(fault.id);
    if (entry) entry.count++;
    else this.seen.set(fault.id, { count: 1, example: `${request.method} ${request.target.slice(0, 300)} → ${problem}` });
  }

  summary(): string {
    if (this.seen.size === 0) return 'no known fault met';
    return [...this.seen].map(([id, { count, example }]) => `${id}: ${count} time(s), e.g. ${example}`).join('\n');
  }
}
