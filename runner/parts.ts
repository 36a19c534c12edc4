/**
 * The kit's optional parts: packages a dependent installs only when a command needs them.
 * Testing a server of one's own needs none; the embedded reference needs DuckDB (its
 * dataset), `--image` a container client, and the hub's browser tests a browser driver
 * (playwright-core; without it they end not-run, suites/harness/browser-setup.ts). All are
 * optional peer dependencies in package.json (a clone has them as devDependencies), so their
 * versions are stated once there. Fastify, the reference's other library, travels inside the
 * bundle (dist/eac.cjs).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const PARTS = {
  reference: {
    what: 'the embedded reference',
    packages: ['@duckdb/node-api'],
    instead: 'or give --target to test a server of your own',
  },
  image: {
    what: '--image',
    packages: ['testcontainers'],
    instead: 'or start the image yourself and give its URLs with --target',
  },
  browser: {
    what: "the hub's browser driver",
    packages: ['playwright-core'],
    instead: "without it the hub's browser tests end not-run",
  },
} as const;

export type PartName = keyof typeof PARTS;

const PACKAGE_FILE = new URL('../package.json', import.meta.url);

/** The version range package.json states for a peer, for the install line. */
function peerRange(name: string): string | undefined {
  const manifest = JSON.parse(readFileSync(PACKAGE_FILE, 'utf8')) as {
    peerDependencies?: Record<string, string>;
  };
  return manifest.peerDependencies?.[name];
}

/** Whether a package resolves from the kit's folder (its own node_modules, then upward). */
function installed(name: string): boolean {
  try {
    createRequire(PACKAGE_FILE).resolve(name);
    return true;
  } catch {
    return false;
  }
}

/** The line that installs `packages` at the versions package.json states for them. */
export function installLine(packages: readonly string[]): string {
  const specs = packages.map((name) => {
    const range = peerRange(name);
    return range !== undefined ? `${name}@${range}` : name;
  });
  return `npm install --save-dev ${specs.join(' ')}`;
}

/**
 * The message when `part` is not installed here, or undefined: a command that needs the part
 * exits 2 with it; the hub's browser tests end not-run with it.
 */
export function missingPart(
  part: PartName,
  isInstalled: (name: string) => boolean = installed,
): string | undefined {
  const { what, packages, instead } = PARTS[part];
  const missing = packages.filter((name) => !isInstalled(name));
  if (missing.length === 0) return undefined;
  return `${what} needs ${missing.join(' and ')}, an optional part of the kit not installed here: ${installLine(missing)} (${instead})`;
}
