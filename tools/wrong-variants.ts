/**
 * Wrong variants of the reference: each one breaks a single rule on purpose, in a scratch
 * copy of the project, and runs the suites against it. A variant the suites do not catch is
 * a hole in the suites. Figures go to bench/results/wrong-variants.json.
 *
 *   npx tsx tools/wrong-variants.ts [--only NAME] [--suite AREA]
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

interface Variant {
  readonly name: string;
  readonly file: string;
  readonly from: string;
  readonly to: string;
}

export const variants: readonly Variant[] = [
  {
    name: 'role update merges permissions instead of replacing them',
    file: 'spec/machines/identity.ts',
    from: 'permissions: c.permissions === undefined ? current.permissions : { ...c.permissions },',
    to: 'permissions: { ...current.permissions, ...c.permissions },',
  },
  {
    name: 'a deleted role stays on its users',
    file: 'spec/machines/identity.ts',
    from: 'users[id] = { ...user, userRoleId: null };',
    to: 'users[id] = user;',
  },
  {
    name: 'readOnly does not override an editing flag',
    file: 'spec/machines/permissions.ts',
    from: 'if (permissions === null || permissions.readOnly === true) return false;',
    to: 'if (permissions === null) return false;',
  },
  {
    name: 'default expiration is 2h instead of 1h',
    file: 'spec/schemas/common.ts',
    from: "export const DEFAULT_EXPIRATION: Expiration = '1h';",
    to: "export const DEFAULT_EXPIRATION: Expiration = '2h';",
  },
  {
    name: 'expiresAt written at +02:00 instead of UTC',
    file: 'spec/machines/token.ts',
    from: 'return { iat, exp, expiresAt: new Date(exp * 1000).toISOString() };',
    to: "return { iat, exp, expiresAt: new Date((exp + 7200) * 1000).toISOString().replace('Z', '+02:00') };",
  },
  {
    name: 'user update merges properties instead of replacing them',
    file: 'spec/machines/identity.ts',
    from: 'properties: c.properties === undefined ? current.properties : { ...c.properties },',
    to: 'properties: { ...current.properties, ...(c.properties ?? {}) },',
  },
  {
    name: 'register-user stores an externalId without resolving it',
    file: 'spec/machines/identity.ts',
    from: 'return { organizationId: found.projectOrganizationId } as const;',
    to: 'return { organizationId: organization } as const;',
  },
  {
    name: 'an organization-bound key is refused without organizationId',
    file: 'reference/http/auth.ts',
    from: '    const account = ctx.world.account(owner.organizationId);\n',
    to: "    if (organizationId === undefined) return fail(unauthorized('organization-id-required', 'wrong on purpose'));\n    const account = ctx.world.account(owner.organizationId);\n",
  },
  {
    name: 'a token is still accepted 5 s after it expires',
    file: 'spec/machines/token.ts',
    from: "return now < exp * 1000 ? 'valid' : 'expired';",
    to: "return now < exp * 1000 + 5000 ? 'valid' : 'expired';",
  },
  {
    name: 'user-scoped keys act on any organization (membership not checked)',
    file: 'reference/http/auth.ts',
    from: 'if (account === undefined || !owner.hubUser.memberships.has(account.organizationId)) {',
    to: 'if (account === undefined) {',
  },
  {
    name: 'a key of another account reaches this account\u2019s project',
    file: 'spec/machines/identity.ts',
    from: "if (state.projects[command.projectId] === undefined) return fail(notFound('project'));",
    to: "if (state.projects[command.projectId] === undefined && command.type !== 'registerOrganization') return fail(notFound('project'));",
  },
  // Runtime variants: the machine stays right and the reference's glue goes wrong, which
  // is what the model-based suite (machine as oracle) is there to catch.
  {
    name: 'runtime: user update drops the properties it was sent',
    file: 'reference/http/users.ts',
    from: '        ...(properties === undefined ? {} : { properties }),\n',
    to: '',
  },
  {
    name: 'runtime: register-user ignores userRoleId',
    file: 'reference/http/users.ts',
    from: "        ...(body.userRoleId === undefined ? {} : { userRoleId: body.userRoleId }),\n        ...(body.projectOrganizationId === undefined\n          ? {}\n          : { projectOrganizationId: body.projectOrganizationId }),\n      });\n      if (!done.ok) return done;\n      if (done.value.kind !== 'user')",
    to: "        ...(body.projectOrganizationId === undefined\n          ? {}\n          : { projectOrganizationId: body.projectOrganizationId }),\n      });\n      if (!done.ok) return done;\n      if (done.value.kind !== 'user')",
  },
];

const root = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({
  options: { only: { type: 'string' }, suite: { type: 'string', default: 'identity' } },
});

function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'eac-variant-'));
  cpSync(root, dir, {
    recursive: true,
    filter: (src) =>
      !/[\\/](node_modules|\.git|reports[\\/]runs|reports[\\/]latest|\.eac-tmp)(?:[\\/]|$)/.test(
        src.slice(root.length - 1),
      ),
  });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  // The service document sits beside the project; the copy needs it at the same distance.
  const shared = join(root, '..', 'shared');
  try {
    symlinkSync(shared, join(dir, '..', 'shared'));
  } catch {
    /* already there: tmpdir() holds one shared link for every copy */
  }
  return dir;
}

interface Outcome {
  readonly variant: string;
  readonly file: string;
  readonly pass: number;
  readonly fail: number;
  readonly failing: readonly string[];
  readonly caught: boolean;
  /** The variant's text is no longer in the file: update the variant. */
  readonly stale?: boolean;
}

const outcomes: Outcome[] = [];
for (const v of variants.filter((x) => values.only === undefined || x.name.includes(values.only))) {
  const dir = scratchCopy();
  try {
    const path = join(dir, v.file);
    const source = readFileSync(path, 'utf8');
    if (source.split(v.from).length !== 2) {
      // The code moved on: say so and go on, so one stale variant does not hide the others.
      outcomes.push({
        variant: v.name,
        file: v.file,
        pass: 0,
        fail: 0,
        failing: [],
        caught: false,
        stale: true,
      });
      console.log(`STALE   ${v.name}: the text to replace is not in ${v.file} exactly once`);
      continue;
    }
    writeFileSync(path, source.replace(v.from, v.to));
    try {
      execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          'bin/eac.ts',
          'run',
          '--only',
          values.suite ?? 'identity',
          '--report',
          'out',
          '--quiet-progress',
          '--seed',
          '7',
        ],
        {
          cwd: dir,
          stdio: 'pipe',
        },
      );
    } catch {
      /* exit 1 is what a caught variant looks like */
    }
    const results = JSON.parse(
      readFileSync(join(dir, 'out', 'latest', 'results.json'), 'utf8'),
    ) as {
      summary: { pass: number; fail: number };
      results: { name: string; outcome: string }[];
    };
    const failing = results.results.filter((r) => r.outcome === 'fail').map((r) => r.name);
    const outcome = {
      variant: v.name,
      file: v.file,
      pass: results.summary.pass,
      fail: results.summary.fail,
      failing,
      caught: failing.length > 0,
    };
    outcomes.push(outcome);
    console.log(`${outcome.caught ? 'caught ' : 'MISSED '} ${v.name}: ${outcome.fail} failing`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(root, 'bench', 'results', 'wrong-variants.json'),
  `${JSON.stringify({ measuredAt: new Date().toISOString(), suite: values.suite, outcomes }, null, 2)}\n`,
);
if (outcomes.some((o) => !o.caught)) process.exitCode = 1;
