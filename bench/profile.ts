/** Summaries of V8 CPU profiles (`node --cpu-prof`): the functions that took the most self time, per thread. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

const TOP = 12;

export function summarizeProfiles(dir: string): string[] {
  if (!existsSync(dir)) return ['  (no profiles written)'];
  const lines: string[] = [];
  for (const name of readdirSync(dir).filter((file) => file.endsWith('.cpuprofile')).sort()) {
    const profile = JSON.parse(readFileSync(join(dir, name), 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const self = new Map<string, number>();
    let busy = 0;
    profile.samples.forEach((id, i) => {
      const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
      if (functionName === '(idle)') return;
      const where = url.startsWith('data:') ? 'worker bundle' : url.split('/').slice(-2).join('/');
      const key = `${functionName || '(anonymous)'} ${where}${lineNumber >= 0 ? `:${lineNumber}` : ''}`;
      const micros = profile.timeDeltas[i] ?? 0;
      self.set(key, (self.get(key) ?? 0) + micros);
      busy += micros;
    });
    if (busy < 200_000) continue; // a thread that hardly ran (the loader's, an idle worker)
    lines.push(`  ${name}: ${(busy / 1000).toFixed(0)} ms busy`);
    for (const [key, micros] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
      lines.push(`    ${((100 * micros) / busy).toFixed(1).padStart(5)} %  ${key}`);
    }
  }
  return lines;
}
