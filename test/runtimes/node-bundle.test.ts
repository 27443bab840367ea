/**
 * How Node runs our TypeScript in a clone (src/node-bundle.js), in fresh Node processes as
 * start.js uses it: an entry bundled with its packages (native ones left to load from their
 * own files), each module told its own place, the bundle kept and used again until a file it
 * was made from changes, and a compile error named with its file.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NODE_BUNDLE = pathToFileURL(join(REPO, 'src/node-bundle.js')).href;
const CACHE = join(REPO, 'node_modules/.cache/shapeshot');
// Inside the project, as our modules are; removed with the bundles made of it.
const folder = mkdtempSync(join(REPO, 'node_modules/.cache/node-bundle-test-'));
const entry = join(folder, 'entry.ts');
const dependency = join(folder, 'dependency.ts');

afterAll(() => {
  for (const file of readdirSync(CACHE).filter((name) => name.endsWith('.json'))) {
    const manifest = JSON.parse(readFileSync(join(CACHE, file), 'utf8')) as { entry: string };
    if (manifest.entry.startsWith(pathToFileURL(folder).href)) for (const kept of [file, file.replace(/\.json$/, '.mjs')]) rmSync(join(CACHE, kept), { force: true });
  }
  rmSync(folder, { recursive: true, force: true });
});

interface Run {
  answer: number;
  place: string;
  bundle: string;
}

/** A fresh Node process bundling the entry and importing the bundle, as start.js does. */
function run(): Run {
  const script = `const { bundledForNode } = await import(${JSON.stringify(NODE_BUNDLE)});
const url = await bundledForNode(new URL(${JSON.stringify(pathToFileURL(entry).href)}));
const module = await import(url.href);
console.log(JSON.stringify({ answer: module.answer, place: module.place, bundle: url.href }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8' })) as Run;
}

describe('TypeScript on Node (node-bundle.js)', () => {
  it('bundles an entry with its packages, tells each module its place, and keeps the bundle until a source changes', () => {
    writeFileSync(dependency, 'export const value: number = 21;\n');
    writeFileSync(
      entry,
      [
        "import { geoArea } from 'd3-geo';",
        "import { value } from './dependency.ts';",
        'export const answer: number = value * 2 + geoArea({ type: "Point", coordinates: [0, 0] });',
        'export const place: string = import.meta.url;',
        "export const resvg = () => import('@resvg/resvg-js');",
      ].join('\n'),
    );
    const first = run();
    expect(first).toMatchObject({ answer: 42, place: pathToFileURL(entry).href });
    expect(fileURLToPath(first.bundle).startsWith(CACHE)).toBe(true);
    const code = readFileSync(fileURLToPath(first.bundle), 'utf8');
    // d3-geo is in the bundle; resvg, which loads its native addon from beside itself, is imported from its own files.
    expect(code).not.toMatch(/(from |import\()"file:[^"]*node_modules\/d3-geo/);
    expect(code).toMatch(/\/\/ node_modules\/d3-geo\//);
    expect(code).toMatch(/import\("file:\/\/[^"]*node_modules\/@resvg\/resvg-js\/[^"]*"\)/);

    const written = statSync(fileURLToPath(first.bundle)).mtimeMs;
    expect(run()).toEqual(first);
    expect(statSync(fileURLToPath(first.bundle)).mtimeMs).toBe(written);

    writeFileSync(dependency, 'export const value: number = 50;\n');
    expect(run()).toMatchObject({ answer: 100, bundle: first.bundle });

    // A kept manifest whose bundle is gone is no reason not to start: the bundle is made again.
    rmSync(fileURLToPath(first.bundle));
    expect(run()).toMatchObject({ answer: 100, bundle: first.bundle });
  });

  it('names the file and line a compile error is in', () => {
    writeFileSync(dependency, 'export const value: number = ;\n');
    let message = '';
    try {
      run();
    } catch (error) {
      message = String((error as { stderr?: string }).stderr);
    }
    expect(message).toContain(`cannot compile ${entry}`);
    expect(message).toMatch(/dependency\.ts:1/);
  });
});
