/**
 * Where a process's CPU went, from a V8 CPU profile (`node --cpu-prof`): each sample goes to
 * the part of the house or the package that its stack reaches first from the top (the running
 * function, else its caller, and so on), so the time of a syscall or of node's internals counts
 * for whoever asked for them. bench/run.ts --profile uses it for the embedded run's processes.
 */

/** The parts of the .cpuprofile format read here. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string };
    readonly children?: readonly number[];
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Packages by what they do for the run. */
const PACKAGES: readonly (readonly [RegExp, string])[] = [
  [/^(fastify|find-my-way|avvio|light-my-request|@fastify\/.*)$/, 'http server (fastify)'],
  [/^undici$/, 'http client (undici)'],
  [/^playwright-core$/, 'browser client (playwright)'],
  [/^@duckdb\/.*$/, 'data (duckdb)'],
  [/^jose$/, 'tokens (jose)'],
  [/^zod$/, 'validation (zod)'],
  [/^@faker-js\/.*$/, 'faker'],
  [/^fast-check$/, 'fast-check'],
  [/^(vitest|@vitest\/.*|vite|rolldown|@rolldown\/.*|tinypool|tinyspy|birpc)$/, 'vitest and vite'],
  [/^(tsx|esbuild|get-tsconfig)$/, 'tsx'],
];

/** Folders of the project by what they are. */
const FOLDERS: readonly (readonly [string, string])[] = [
  ['reference/', 'reference'],
  ['spec/', 'spec'],
  ['suites/harness/', 'harness'],
  ['suites/', 'tests'],
  ['runner/', 'runner and reports'],
  ['reports/', 'runner and reports'],
  ['fixtures/', 'fixtures'],
  ['latitude/', 'latitude'],
];

/** The part a stack frame belongs to, or undefined to look at its caller. */
export function partOf(
  frame: { functionName: string; url: string },
  root: string,
): string | undefined {
  const { functionName, url } = frame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)') return 'V8';
  const inModules = url.lastIndexOf('/node_modules/');
  if (inModules >= 0) {
    const [scope = '', name = ''] = url.slice(inModules + '/node_modules/'.length).split('/');
    const pkg = scope.startsWith('@') ? `${scope}/${name}` : scope;
    return PACKAGES.find(([pattern]) => pattern.test(pkg))?.[1] ?? 'other packages';
  }
  if (url.startsWith('node:internal/modules') || url.includes('cjs-module-lexer'))
    return 'module loading';
  const prefix = `file://${root.endsWith('/') ? root : `${root}/`}`;
  if (url.startsWith(prefix)) {
    const inProject = url.slice(prefix.length);
    return FOLDERS.find(([folder]) => inProject.startsWith(folder))?.[1] ?? 'project, other';
  }
  return undefined;
}

/** Seconds of CPU by part (idle left out), largest first, rounded to 0.1 s. */
export function cpuByPart(profile: CpuProfile, root: string): Record<string, number> {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const partOfNode = new Map<number, string>();
  const resolve = (id: number): string => {
    const known = partOfNode.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    const own = node === undefined ? 'node internals' : partOf(node.callFrame, root);
    const up = parent.get(id);
    const part = own ?? (up === undefined ? 'node internals' : resolve(up));
    partOfNode.set(id, part);
    return part;
  };
  const micros = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    if (byId.get(id)?.callFrame.functionName === '(idle)') return;
    const part = resolve(id);
    micros.set(part, (micros.get(part) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return Object.fromEntries(
    [...micros.entries()]
      .map(([part, us]) => [part, Math.round(us / 1e5) / 10] as const)
      .filter(([, s]) => s > 0)
      .sort((a, b) => b[1] - a[1]),
  );
}

/** Adds `more` into `total`, part by part. */
export function addParts(total: Record<string, number>, more: Record<string, number>): void {
  for (const [part, s] of Object.entries(more))
    total[part] = Math.round(((total[part] ?? 0) + s) * 10) / 10;
}
