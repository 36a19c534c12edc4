/**
 * `eac.config.yaml` (or `.yml`, `.json`): what `eac run` and `eac doctor` would otherwise take on
 * every command line. Found in the working folder, or named with `--config FILE`; flags given on
 * the command line override it, and paths in it are read from the folder that holds it.
 *
 * Published as JSON Schema in spec/config.schema.json (generated from `EacConfig`; a unit test
 * keeps it fresh). `eac init` writes one.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { parseMaxNotRun, parseMinCoverage } from './thresholds.ts';

/** The names looked for in the working folder, in this order. */
export const CONFIG_NAMES = ['eac.config.yaml', 'eac.config.yml', 'eac.config.json'] as const;

const Url = z.url({ protocol: /^https?$/ });
/** A file or folder; relative to the config file's folder. */
const FilePath = z.string().min(1);
const LIMIT = /^\d+(\.\d+)?%$|^\d+$/;

/** Each member says what it is in the published schema too, where editors show it. */
export const EacConfig = z
  .strictObject({
    $schema: z.string().describe('A pointer to spec/config.schema.json, for editors.').optional(),
    target: Url.describe(
      'Base URL of the implementation under test; the embedded reference when absent.',
    ).optional(),
    hub: Url.describe(
      "Origin of the target's embedded pages (§4.17); hub tests are not-run without it.",
    ).optional(),
    hooks: Url.describe(
      "Base URL of the target's host hooks; tests that need a hook are not-run without it.",
    ).optional(),
    profile: FilePath.describe(
      'What the target serves and how it answers the open shapes (spec/profile.schema.json).',
    ).optional(),
    credentials: FilePath.describe(
      'JSON {organizationId, userScopedKey?, orgBoundKey?, projectId?} for a target without an accounts hook.',
    ).optional(),
    expectations: FilePath.describe(
      'Known outcomes per test or clause id (spec/expectations.schema.json).',
    ).optional(),
    ca: FilePath.describe(
      'An extra certificate authority (PEM) for a target on TLS with a private one.',
    ).optional(),
    report: FilePath.describe(
      'Reports root: each run goes to <report>/runs/<stamp>/ (default: reports).',
    ).optional(),
    selection: z
      .strictObject({
        only: z
          .array(z.string().trim().min(1))
          .describe('Areas (folders under suites/) or clause ids and id prefixes; all when absent.')
          .optional(),
        seed: z
          .int()
          .min(0)
          .max(0xffffffff)
          .describe('Seed of the run; random when absent.')
          .optional(),
        concurrency: z.int().min(1).max(64).describe('Test files run at once.').optional(),
        bail: z.boolean().describe('Stop at the first failing test.').optional(),
        checkDecisions: z
          .boolean()
          .describe("Hold probes to the reference's decisions.")
          .optional(),
      })
      .describe('Which tests run, and how (--only, --seed, --concurrency, --bail).')
      .optional(),
    gates: z
      .strictObject({
        maxNotRun: z
          .union([
            z.int().min(0),
            z
              .string()
              .regex(LIMIT)
              .refine((t) => typeof parseMaxNotRun(t) !== 'string', {
                message: 'a share is at most 100%',
              }),
          ])
          .describe("At most this many tests (10), or this share ('10%'), end not-run.")
          .optional(),
        minCoverage: z
          .array(
            z.string().refine((t) => typeof parseMinCoverage(t) !== 'string', {
              message: 'takes KIND[@SECTION]=N or =P% (KIND: portable, covered, security, probed)',
            }),
          )
          .describe('Coverage floors, KIND[@SECTION]=N|P%, e.g. portable=60%, covered@4.6=3.')
          .optional(),
      })
      .describe('What a run must have tested; a breached gate exits 3.')
      .optional(),
  })
  .superRefine((config, ctx) => {
    for (const member of ['hub', 'hooks'] as const) {
      if (config[member] !== undefined && config.target === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [member],
          message: `${member} describes a target; give target too`,
        });
    }
  });
export type EacConfig = z.infer<typeof EacConfig>;

/** A mistake in a config file: the message names the file and the member. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** A config as read: its file, and its paths made absolute against the file's folder. */
export interface LoadedConfig {
  readonly file: string;
  readonly config: EacConfig;
}

const PATH_MEMBERS = ['profile', 'credentials', 'expectations', 'ca', 'report'] as const;

export function parseConfig(file: string, text: string): LoadedConfig {
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const kind = file.endsWith('.json') ? 'JSON' : 'YAML';
    throw new ConfigError(`${file}: not ${kind}: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = EacConfig.safeParse(raw ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => {
      const member = issue.path.map(String).join('.');
      const unknown =
        issue.code === 'unrecognized_keys'
          ? `unknown member ${issue.keys.map((k) => (member === '' ? k : `${member}.${k}`)).join(', ')}`
          : undefined;
      return unknown ?? `${member === '' ? '(top level)' : member}: ${issue.message}`;
    });
    throw new ConfigError(`${file}: ${issues.join('; ')}`);
  }
  const folder = path.dirname(file);
  const config: EacConfig = { ...parsed.data };
  for (const member of PATH_MEMBERS) {
    const value = parsed.data[member];
    if (value !== undefined) config[member] = path.resolve(folder, value);
  }
  return { file, config };
}

/**
 * The config of a command line: `--config FILE` (relative to `cwd`), else the first of
 * CONFIG_NAMES in `cwd`; none when `cwd` is not given (the parser's tests) or no file is there.
 */
export function loadConfig(
  explicit: string | undefined,
  cwd: string | undefined,
): LoadedConfig | undefined {
  let file: string | undefined;
  if (explicit !== undefined) file = path.resolve(cwd ?? process.cwd(), explicit);
  else if (cwd !== undefined) {
    const found = CONFIG_NAMES.map((name) => path.join(cwd, name)).filter((f) => existsSync(f));
    if (found.length > 1)
      throw new ConfigError(
        `${found.map((f) => path.basename(f)).join(' and ')} are both in ${cwd}; keep one, or name it with --config`,
      );
    file = found[0];
  }
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `cannot read the config file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return parseConfig(file, text);
}

/** The JSON Schema published as spec/config.schema.json. */
export function generateConfigSchema(): string {
  const schema = z.toJSONSchema(EacConfig, { io: 'input', target: 'draft-2020-12' });
  return `${JSON.stringify({ ...schema, title: 'EAC config file (eac.config.yaml)' }, null, 2)}\n`;
}

export const CONFIG_SCHEMA_FILE = new URL('../spec/config.schema.json', import.meta.url);
