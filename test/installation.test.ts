/**
 * What installing shapeshot installs (README.md, "What an installation contains"): a
 * self-hosted server installs nothing that reports to a third party, and nothing whose
 * install script npm 11 asks its user to approve. Read from package-lock.json, the tree
 * `npm ci` installs; test/browser/installed-package.test.ts checks an installed tarball.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TELEMETRY_PACKAGES } from './support/installation-rules.ts';

interface LockedPackage {
  dev?: boolean;
  hasInstallScript?: boolean;
}

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));
const lock: { packages: Record<string, LockedPackage> } = read('package-lock.json');
const manifest: { allowScripts?: Record<string, boolean> } = read('package.json');
/** A locked path's package name: node_modules/a/node_modules/@b/c → @b/c. */
const packageName = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
const locked = Object.entries(lock.packages).filter(([path]) => path !== '');

describe('what npm ci installs', () => {
  it('holds no telemetry package', () => {
    expect(locked.map(([path]) => packageName(path)).filter((name) => TELEMETRY_PACKAGES.includes(name))).toEqual([]);
  });

  it('has a decision in allowScripts for every install script, so npm 11 neither runs an unreviewed one nor warns', () => {
    const withScripts = locked.filter(([, entry]) => entry.hasInstallScript).map(([path]) => packageName(path));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts) expect(manifest.allowScripts, name).toHaveProperty([name]);
  });

  it('needs no install script for what the published package depends on', () => {
    expect(locked.filter(([, entry]) => entry.hasInstallScript && !entry.dev).map(([path]) => packageName(path))).toEqual([]);
  });

  it('puts the runtimes the tests start where node_modules/.bin points: Bun runs, and Deno is no Node wrapper a signal stops at', () => {
    expect(execFileSync('node_modules/.bin/bun', ['--version'], { encoding: 'utf8' })).toMatch(/^\d+\.\d+/);
    expect(realpathSync('node_modules/.bin/deno')).not.toMatch(/\.c?js$/);
  });
});
