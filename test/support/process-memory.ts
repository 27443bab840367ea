/**
 * What a server process holds in memory, read from /proc (Linux): its resident set now and
 * the most it ever held, worker threads included. Tests bound these, since a runaway answer
 * shows in the process long before it kills it.
 */
import { readFileSync } from 'node:fs';

export interface ProcessMemory {
  /** Resident set size now, in bytes (VmRSS). */
  residentBytes: number;
  /** The largest resident set size so far, in bytes (VmHWM). */
  peakResidentBytes: number;
}

/** The memory of process `pid`; undefined if it is gone (or /proc does not exist). */
export function processMemory(pid: number): ProcessMemory | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { residentBytes: kilobytes('VmRSS'), peakResidentBytes: kilobytes('VmHWM') };
}
