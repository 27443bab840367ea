import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A module of ours named by its TypeScript source, or the JavaScript it was built to: the
 * published package ships only the build (npm run build), and a `new URL('./x.ts',
 * import.meta.url)` is not rewritten by the compiler the way an import is.
 */
export function moduleFile(source: URL): URL {
  if (!source.pathname.endsWith('.ts') || existsSync(fileURLToPath(source))) return source;
  return new URL(source.href.replace(/\.ts$/, '.js'));
}
