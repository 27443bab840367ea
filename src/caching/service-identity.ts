/**
 * The service's part of every picture's ETag (ARCHITECTURE.md, "Cross-cutting concerns"): what
 * shapes the bytes besides the data and the request, and nothing that differs between the
 * instances of one deployment, which must tag the same answer alike (docs/api.md, "Caching").
 */
import { packageVersion } from '../config/package-folders.ts';
import type { Config } from '../config/schema.ts';

/**
 * What shapes every answer's bytes besides the data and the request: this version of
 * shapeshot (its drawing code, fonts, built-in rules), the runtime's deflate, which makes
 * the PNG bytes (Node, Deno and Bun each compress differently, README "Same answers"), and
 * the configured settings an answer shows (limits among them where they shape a picture rather
 * than refuse it). Nothing that differs between instances of one
 * deployment (the instance name only reaches the TraceId).
 */
export function serviceIdentity(config: Pick<Config, 'render' | 'envelope'> & { limits: Pick<Config['limits'], 'maxCategories' | 'maxLabels'> }) {
  return {
    version: packageVersion(),
    deflate: deflateIdentity(),
    pngCompression: config.render.pngCompression,
    jpegQuality: config.render.jpegQuality,
    copyright: config.envelope.copyright,
    schemaNamespace: config.envelope.schemaNamespace,
    // A styled picture's classes and labels: how many categories stand alone, how many labels are placed.
    maxCategories: config.limits.maxCategories,
    maxLabels: config.limits.maxLabels,
  };
}

/** Deno reports Node's zlib version but deflates otherwise, so the runtime is named too. */
function deflateIdentity(): string {
  const { bun, deno, zlib } = process.versions as NodeJS.ProcessVersions & { bun?: string; deno?: string };
  const runtime = bun !== undefined ? `bun ${bun}` : deno !== undefined ? `deno ${deno}` : 'node';
  return `${runtime} zlib ${zlib}`;
}
