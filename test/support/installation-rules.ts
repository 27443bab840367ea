/**
 * What an installation of shapeshot may not contain (README.md, "What an installation
 * contains"), for the checks of the lock file and of an installed tarball.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Packages whose purpose is to report installations or use to their makers. */
export const TELEMETRY_PACKAGES = ['@scarf/scarf'];

/** The lifecycle scripts npm runs when it installs a package, which npm 11 asks to approve. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'];

interface Manifest {
  name: string;
  scripts?: Record<string, string>;
}

/** Every package npm installed in `project`, as npm itself lists them. */
export function installedPackages(project: string): Manifest[] {
  const folders = execFileSync('npm', ['ls', '--all', '--parseable'], { cwd: project, encoding: 'utf8' }).trim().split('\n').slice(1);
  return folders.map((folder) => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest);
}

export const hasInstallScript = ({ scripts }: Manifest) => INSTALL_SCRIPTS.some((name) => scripts?.[name] !== undefined);
