/**
 * Resolving the Target a run tests: a candidate reachable by URL, or the embedded reference
 * started in this process. Also the zod shapes of everything a target is described by.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { request } from 'undici';
import { z } from 'zod';
import { PROFILE_PARTS, TargetProfile } from '../spec/profile.ts';
import {
  type StaticAccount,
  type StaticCredentials,
  type Target,
} from '../suites/harness/target.ts';
import type { ImageOptions } from './container.ts';
import { missingPart, type PartName } from './parts.ts';
import type { LatitudeVary } from '../latitude/choice.ts';
import type { FreedomId } from '../spec/latitude.ts';
import type { TargetSpec } from './target-spec.ts';
import type { MachineRowsTaken } from '../reports/schema.ts';

const Id = z.string().min(1);

/** One pre-provisioned account of a credentials file (see StaticAccount). */
export const StaticAccountSchema = z
  .object({
    organizationId: Id,
    userScopedKey: Id.optional(),
    orgBoundKey: Id.optional(),
    projectId: Id.optional(),
    projects: z.array(Id).optional(),
    members: z.array(z.object({ userScopedKey: Id, hubUserId: Id.optional() }).strict()).optional(),
    roles: z
      .array(
        z
          .object({
            id: Id,
            projectId: Id.optional(),
            permissions: z.record(z.string(), z.boolean()),
          })
          .strict(),
      )
      .optional(),
    applications: z.array(Id).optional(),
    dashboards: z.array(Id).optional(),
    agents: z.array(Id).optional(),
    connections: z.array(Id).optional(),
  })
  .strict();

/**
 * A credentials file: one account at the top level (the first shape), or `accounts`, or both
 * (the top-level one comes first). Read back normalised: `accounts` holds every account and
 * the first one's fields also sit at the top level.
 */
export const StaticCredentialsSchema = StaticAccountSchema.partial({ organizationId: true })
  .extend({ accounts: z.array(StaticAccountSchema).min(1).optional() })
  .strict()
  .refine((c) => c.organizationId !== undefined || c.accounts !== undefined, {
    message: 'give organizationId (one account) or accounts (several)',
  })
  .transform((c): StaticCredentials => {
    const { accounts = [], ...top } = c;
    const listed =
      top.organizationId === undefined
        ? accounts
        : [top, ...accounts.filter((a) => a.organizationId !== top.organizationId)];
    // Optional members are absent, never undefined (exactOptionalPropertyTypes).
    const all = listed.map((a) => stripUndefined(a) as StaticAccount);
    const head = all[0] as StaticAccount;
    return { ...head, accounts: all };
  });

const HttpUrl = z.url({ protocol: /^https?$/ }).transform((url) => url.replace(/\/+$/, ''));

/** A Target as it crosses the process boundary (in `EAC_RUN`). */
export const TargetSchema = z.object({
  baseUrl: HttpUrl,
  hubUrl: HttpUrl.optional(),
  hooksUrl: HttpUrl.optional(),
  hooks: z.array(z.string()).default([]),
  implementation: z.string().optional(),
  checkDecisions: z.boolean().default(false),
  credentials: StaticCredentialsSchema.optional(),
  seed: z.number().int().min(0).max(0xffffffff).optional(),
  profile: TargetProfile.optional(),
});

/** What a target announces at `GET {hooksUrl}/capabilities`. */
export const CapabilitiesSchema = z.object({
  implementation: z.string(),
  version: z.string(),
  hooks: z.array(z.string()),
});
export type Capabilities = z.infer<typeof CapabilitiesSchema>;

/** A problem with the target or its description; the CLI exits 2 on it. */
export class TargetError extends Error {
  override readonly name = 'TargetError';
}

export const REFERENCE_IMPLEMENTATION = 'eac-reference';
const TIMEOUT_MS = 10_000;

export function randomSeed(): number {
  return Math.floor(Math.random() * 0x100000000);
}

/** Parses a seed given as text (`--seed`, `EAC_SEED`): an unsigned 32-bit integer. */
export function parseSeed(text: string, source: string): number {
  const seed = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(seed) || seed > 0xffffffff) {
    throw new TargetError(`${source} must be an integer from 0 to 4294967295, got "${text}"`);
  }
  return seed;
}

/** An error in one line: its code when the message does not already say it, and its cause. */
export function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const cause =
      error.cause instanceof Error && !error.message.includes(error.cause.message)
        ? `: ${error.cause.message}`
        : '';
    const said = `${error.message}${cause}`;
    return code !== undefined && !said.includes(code) ? `${code} ${said}` : said;
  }
  return String(error);
}

export async function fetchCapabilities(hooksUrl: string): Promise<Capabilities> {
  const url = `${hooksUrl}/capabilities`;
  let status: number;
  let body: unknown;
  try {
    const response = await request(url, {
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
      headers: { accept: 'application/json' },
    });
    status = response.statusCode;
    body = await response.body.json().catch(() => undefined);
  } catch (error) {
    throw new TargetError(`cannot reach the hooks at ${url}: ${describe(error)}`);
  }
  if (status !== 200) throw new TargetError(`GET ${url} answered ${status}, expected 200`);
  // Hooks answer in the service's success envelope: {status: 'success', data: {...}}.
  const parsed = z
    .object({ status: z.literal('success'), data: CapabilitiesSchema })
    .safeParse(body);
  if (!parsed.success) {
    throw new TargetError(
      `GET ${url} did not answer {status: 'success', data: {implementation, version, hooks[]}}: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
    );
  }
  return parsed.data.data;
}

/** Any HTTP answer proves the service is there; only a transport error is fatal. */
export async function checkReachable(baseUrl: string): Promise<void> {
  try {
    const response = await request(baseUrl, {
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    await response.body.dump();
  } catch (error) {
    throw new TargetError(`cannot reach the target at ${baseUrl}: ${describe(error)}`);
  }
}

export async function readCredentials(file: string): Promise<StaticCredentials> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new TargetError(`cannot read the credentials file ${file}: ${describe(error)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new TargetError(`the credentials file ${file} is not JSON: ${describe(error)}`);
  }
  const parsed = StaticCredentialsSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new TargetError(
      `the credentials file ${file} is not {organizationId, userScopedKey?, orgBoundKey?, projectId?, ...} nor {accounts: [...]}: ${issues}`,
    );
  }
  return parsed.data;
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** The reference's own profile: the default of every run (fixtures/profiles/reference.json). */
export const REFERENCE_PROFILE_FILE = fileURLToPath(
  new URL('../fixtures/profiles/reference.json', import.meta.url),
);

/** How the reports name the document-only profile a target given no --profile is read with. */
export const DOCUMENT_ONLY_SOURCE = 'document-only (no --profile)';

/**
 * What a run assumes of a foreign target given no `--profile`: every part of the document, and
 * nothing beyond it (no open shape, no followed decision, no hub locator). Tests that need a
 * stated shape end not-run; the closing lines count them.
 */
export const DOCUMENT_ONLY_PROFILE: TargetProfile = {
  description: 'document-only: no --profile given, so nothing beyond the document is assumed',
  serves: [...PROFILE_PARTS],
  shapes: {},
};

function referenceProfileSync(): TargetProfile {
  return TargetProfile.parse(JSON.parse(readFileSync(REFERENCE_PROFILE_FILE, 'utf8')));
}

/** Reads a target profile, JSON or YAML, and checks it against spec/profile.ts. */
export async function readProfile(file: string): Promise<TargetProfile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new TargetError(`cannot read the profile ${file}: ${describe(error)}`);
  }
  let data: unknown;
  try {
    data = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new TargetError(
      `the profile ${file} is not ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${describe(error)}`,
    );
  }
  const parsed = TargetProfile.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new TargetError(
      `the profile ${file} does not follow spec/profile.schema.json: ${issues}`,
    );
  }
  return parsed.data;
}

/** A run through the latitude proxy: what it chose and how many answers each entry changed. */
export interface LatitudeRun {
  readonly vary: string;
  readonly chosen: readonly FreedomId[];
  counts(): Readonly<Record<string, number>>;
}

export interface ResolvedTarget {
  readonly target: Target;
  /** True when this process started the reference (no `--target`). */
  readonly embedded: boolean;
  /** With `--image`: the image as given, the engine's id of it, and its `--image*` arguments. */
  readonly image?: { readonly name: string; readonly id: string; readonly args: readonly string[] };
  /** With `--latitude`: the proxy's choice and counts. */
  readonly latitude?: LatitudeRun;
  /**
   * The embedded reference's count of the rows its machines took (reports/schema.ts
   * MachineRowsTaken); absent for any other target, whose rows are not known.
   */
  readonly machineRows?: () => readonly MachineRowsTaken[];
  close(): Promise<void>;
}

function url(text: string, option: string): string {
  const parsed = HttpUrl.safeParse(text);
  if (!parsed.success) throw new TargetError(`${option} must be an http(s) URL, got "${text}"`);
  return parsed.data;
}

/** The profile of a target given without --hub: the same, less the hub part. */
function withoutHub(profile: TargetProfile): TargetProfile {
  return profile.serves.includes('hub')
    ? { ...profile, serves: profile.serves.filter((part) => part !== 'hub') }
    : profile;
}

/** A usage error (exit 2) naming what to install when `part` is not installed. */
function needPart(part: PartName): void {
  const missing = missingPart(part);
  if (missing !== undefined) throw new TargetError(missing);
}

/** Starts the embedded reference with hooks on an ephemeral port and describes it. */
export async function startEmbedded(seed: number): Promise<ResolvedTarget> {
  needPart('reference');
  // Loaded lazily: commands that do not need the reference must not pay for (or break on) it.
  const { start } = await import('../reference/server.ts');
  const running = await start({ hooks: true, seed });
  // The embedded reference shares this process, where an outside server has its own: an
  // exception nothing catches (a reference that would crash) must not take the run with it.
  // It stops the reference, as a crash stops a server, and the run goes on: the tests that
  // follow fail the way they would against a server that went down, and the cause is printed.
  let down = false;
  const crash = (error: unknown) => {
    if (down) return;
    down = true;
    process.stderr.write(
      `\neac: the embedded reference crashed (an exception nothing caught); it no longer answers:\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    running.close().catch(() => undefined);
  };
  process.on('uncaughtException', crash);
  try {
    const hooksUrl = running.hooksUrl;
    const capabilities = hooksUrl !== undefined ? await fetchCapabilities(hooksUrl) : undefined;
    const target: Target = {
      baseUrl: running.url.replace(/\/+$/, ''),
      hubUrl: running.hubUrl.replace(/\/+$/, ''),
      ...(hooksUrl !== undefined ? { hooksUrl: hooksUrl.replace(/\/+$/, '') } : {}),
      hooks: capabilities?.hooks ?? [],
      implementation: capabilities?.implementation ?? REFERENCE_IMPLEMENTATION,
      checkDecisions: true,
      seed,
      profile: await readProfile(REFERENCE_PROFILE_FILE),
    };
    return {
      target,
      embedded: true,
      machineRows: () => running.machineRows(),
      close: async () => {
        process.off('uncaughtException', crash);
        if (!down) await running.close();
      },
    };
  } catch (error) {
    process.off('uncaughtException', crash);
    await running.close();
    throw error;
  }
}

/**
 * Starts the embedded reference (taking the chosen behaviour entries) behind the latitude
 * proxy, and resolves the proxy as a foreign target: it announces an implementation of its own,
 * so no decision of ours is enforced through it, and it is held to the profile it prints.
 */
async function resolveLatitude(
  spec: TargetSpec & { latitude: LatitudeVary },
  seed: number,
): Promise<ResolvedTarget> {
  needPart('reference');
  const [{ startLatitudeOnReference }, { chosenIds, varyText }] = await Promise.all([
    import('../latitude/embedded.ts'),
    import('../latitude/choice.ts'),
  ]);
  const running = await startLatitudeOnReference({ vary: spec.latitude, seed });
  try {
    const { latitude, ...rest } = spec;
    const resolved = await resolveTarget(
      {
        ...rest,
        target: running.url,
        hub: running.hubUrl,
        ...(running.hooksUrl !== undefined ? { hooks: running.hooksUrl } : {}),
      },
      seed,
    );
    return {
      ...resolved,
      target: {
        ...resolved.target,
        profile: spec.profile !== undefined ? resolved.target.profile : running.printedProfile,
      },
      embedded: true,
      machineRows: () => running.machineRows(),
      latitude: {
        vary: varyText(latitude),
        chosen: chosenIds(latitude),
        counts: () => running.counts(),
      },
      close: async () => {
        await resolved.close();
        await running.close();
      },
    };
  } catch (error) {
    await running.close();
    throw error;
  }
}

/** Starts the image of `--image` and resolves the target it serves; stops it on any error. */
async function resolveImage(
  spec: TargetSpec & { image: ImageOptions },
  seed: number,
): Promise<ResolvedTarget> {
  needPart('image');
  const { imageArgs, startImage } = await import('./container.ts');
  const { image, ...rest } = spec;
  let started: Awaited<ReturnType<typeof startImage>>;
  try {
    started = await startImage(image);
  } catch (error) {
    throw new TargetError(`cannot start the image ${image.image}: ${describe(error)}`);
  }
  try {
    const resolved = await resolveTarget(
      {
        ...rest,
        target: started.baseUrl,
        hub: started.hubUrl,
        ...(started.hooksUrl !== undefined ? { hooks: started.hooksUrl } : {}),
      },
      seed,
    );
    return {
      ...resolved,
      image: { name: image.image, id: started.imageId, args: imageArgs(image) },
      close: () => started.stop(),
    };
  } catch (error) {
    const logs = await started.logs().catch(() => '');
    await started.stop().catch(() => undefined);
    if (error instanceof TargetError && logs.trim() !== '')
      throw new TargetError(
        `${error.message}\n--- the container's last lines ---\n${logs.trimEnd()}`,
      );
    throw error;
  }
}

/**
 * The Target a spec names (read and checked by target-spec.ts): the image it starts, the
 * latitude proxy, the embedded reference, or the server at `target`.
 */
export async function resolveTarget(spec: TargetSpec, seed: number): Promise<ResolvedTarget> {
  if (spec.image !== undefined) return resolveImage({ ...spec, image: spec.image }, seed);
  if (spec.latitude !== undefined)
    return resolveLatitude({ ...spec, latitude: spec.latitude }, seed);
  const profile = spec.profile !== undefined ? await readProfile(spec.profile) : undefined;
  if (spec.target === undefined) {
    const credentials =
      spec.credentials !== undefined ? await readCredentials(spec.credentials) : undefined;
    const embedded = await startEmbedded(seed);
    return {
      ...embedded,
      target: {
        ...embedded.target,
        ...(profile !== undefined ? { profile } : {}),
        ...(credentials !== undefined ? { credentials } : {}),
      },
    };
  }
  const baseUrl = url(spec.target, '--target');
  const hubUrl = spec.hub !== undefined ? url(spec.hub, '--hub') : undefined;
  const hooksUrl = spec.hooks !== undefined ? url(spec.hooks, '--hooks') : undefined;
  const credentials =
    spec.credentials !== undefined ? await readCredentials(spec.credentials) : undefined;
  await checkReachable(baseUrl);
  const capabilities = hooksUrl !== undefined ? await fetchCapabilities(hooksUrl) : undefined;
  const isReference = capabilities?.implementation === REFERENCE_IMPLEMENTATION;
  // The reference announces itself and is held to its own profile; any other target without
  // a profile is held to the document alone.
  const stated =
    profile ?? (isReference ? await readProfile(REFERENCE_PROFILE_FILE) : DOCUMENT_ONLY_PROFILE);
  const target: Target = {
    baseUrl,
    // Without --hub nobody knows where the hub is (eac serve puts it on a port of its own): no
    // address is assumed, the hub part is withdrawn, and the hub tests end not-run naming --hub.
    ...(hubUrl !== undefined ? { hubUrl } : {}),
    ...(hooksUrl !== undefined ? { hooksUrl } : {}),
    hooks: capabilities?.hooks ?? [],
    ...(capabilities !== undefined ? { implementation: capabilities.implementation } : {}),
    checkDecisions: spec.checkDecisions || isReference,
    ...(credentials !== undefined ? { credentials } : {}),
    seed,
    profile: hubUrl === undefined ? withoutHub(stated) : stated,
  };
  return {
    target,
    embedded: false,
    close: () => Promise.resolve(),
  };
}

/**
 * What `eac run` hands the conformance project's workers, once, in `EAC_RUN`: the Target
 * (its seed included), the arguments a replay line keeps, and the run's report folder (where
 * the hub tests put screenshots of failures).
 */
export interface RunHandOver {
  readonly target: Target;
  readonly replayArgs: readonly string[];
  readonly reportDir?: string;
}

const HandOverSchema = z.object({
  target: TargetSchema,
  replayArgs: z.array(z.string()).default([]),
  reportDir: z.string().optional(),
});

/** `EAC_RUN` as the global setup reads it; `undefined` when unset (a bare vitest run). */
export function handOverFromEnv(json: string | undefined): RunHandOver | undefined {
  if (json === undefined || json.trim() === '') return undefined;
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    throw new TargetError(`EAC_RUN is not JSON: ${describe(error)}`);
  }
  const parsed = HandOverSchema.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new TargetError(`EAC_RUN does not describe a run: ${issues}`);
  }
  const { seed, credentials, profile, ...rest } = parsed.data.target;
  const target = stripUndefined({
    ...rest,
    // A target given by hand without a profile: the default profile.
    profile: profile ?? referenceProfileSync(),
    ...(credentials !== undefined ? { credentials: stripUndefined(credentials) } : {}),
    seed: seed ?? randomSeed(),
  }) as Target;
  return {
    target,
    replayArgs: parsed.data.replayArgs,
    ...(parsed.data.reportDir !== undefined ? { reportDir: parsed.data.reportDir } : {}),
  };
}
