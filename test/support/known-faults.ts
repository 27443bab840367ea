/**
 * Faults the generated requests found in today's code that are being fixed elsewhere (issue
 * 18). While listed, a request that meets one is either not sent (`unsafe`: it harms the
 * server for every request after it) or its matching problems are tolerated and recorded,
 * so that the suite lands and still fails on anything new. Fixing a fault means deleting its
 * entry here, and the `test.fails` that reproduces it becomes a plain `test`.
 */
import type { GeneratedRequest } from './request-arbitraries.ts';

export interface KnownFault {
  id: string;
  /** What is wrong, with the item of issue 18 that fixes it. */
  description: string;
  /** Requests not sent while the fault is known. */
  unsafe?: (request: GeneratedRequest) => boolean;
  /** Whether `problem` on `request` is this fault. */
  explains?: (request: GeneratedRequest, problem: string) => boolean;
}

export const KNOWN_FAULTS: KnownFault[] = [
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
