import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

describe('deno.json', () => {
  it('imports every dependency of package.json, at the same version range, and nothing else', () => {
    const { dependencies } = readJson('package.json') as { dependencies: Record<string, string> };
    const expected = Object.fromEntries(
      Object.entries(dependencies).flatMap(([name, range]) => [
        [name, `npm:${name}@${range}`],
        [`${name}/`, `npm:/${name}@${range}/`],
      ]),
    );
    expect(readJson('deno.json').imports).toEqual(expected);
  });
});
