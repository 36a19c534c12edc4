import type { ProjectUserRole } from '../../spec/schemas/role.ts';
import { cause, type NotRunCause } from './causes.ts';
import type {
  Account,
  ChartData,
  Clock,
  CreateConnectionBody,
  HookAgent,
  HookConnection,
  HookName,
} from '../../spec/schemas/hooks.ts';
import type { RolePermissions } from '../../spec/schemas/permissions.ts';
import type { Http, Reply } from './http.ts';
import type { StaticAccount, StaticCredentials, Target } from './target.ts';
import { rolesPath } from './paths.ts';

/**
 * Whether a credentials file stands in for a hook: an account with a key for `accounts`, a
 * project for `projects`, pre-provisioned roles for `roles`, listed members for `members`.
 * The clock, migrations and the rest have no stand-in.
 */
export function provisionedFor(
  credentials: StaticCredentials | undefined,
  hook: HookName,
): boolean {
  const accounts = credentials?.accounts ?? [];
  switch (hook) {
    case 'accounts':
      return accounts.some((a) => (a.orgBoundKey ?? a.userScopedKey) !== undefined);
    case 'projects':
      return accounts[0]?.projectId !== undefined;
    case 'roles':
      return accounts.some((a) => (a.roles?.length ?? 0) > 0);
    case 'members':
      return accounts.some((a) => (a.members?.length ?? 0) > 0);
    default:
      return false;
  }
}

/** Whether two §2.2 permission sets are the same: the same flags present, each equal. */
function samePermissions(
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * The host hooks as the suites use them (spec/hooks.openapi.yaml). A hook call that fails is
 * a broken world, not a finding about the service: it throws with the answer attached.
 */
export class Hooks {
  /** Pre-provisioned roles this test was already given (each stands in for one new role). */
  private readonly rolesHandedOut = new Set<string>();
  private readonly projectsHandedOut = new Set<string>();

  constructor(
    private readonly http: Http,
    private readonly target: Target,
    private readonly notRun: (
      reason: string,
      causes?: NotRunCause | readonly NotRunCause[],
    ) => never,
  ) {}

  private provisionedAccount(organizationId: string): StaticAccount | undefined {
    return this.target.credentials?.accounts.find((a) => a.organizationId === organizationId);
  }

  /** A test reaching for a hook the target lacks ends as not-run, naming the hook. */
  private need(hook: HookName): void {
    if (!this.has(hook)) this.notRun(`the target lacks the host hook ${hook}`, cause.hook(hook));
  }

  has(hook: HookName): boolean {
    return this.target.hooks.includes(hook);
  }

  private async data<T>(reply: Promise<Reply>, what: string): Promise<T> {
    const res = await reply;
    const body = res.body as { status?: string; data?: T };
    if (res.status >= 300 || body.status !== 'success' || body.data === undefined) {
      throw new Error(`host hook "${what}" failed: ${res.status} ${res.text.slice(0, 300)}`);
    }
    return body.data;
  }

  createAccount(name?: string): Promise<Account> {
    this.need('accounts');
    return this.data(
      this.http.post('/accounts', name === undefined ? {} : { name }, { base: 'hooks' }),
      'accounts',
    );
  }

  /**
   * Makes the hub user of `userScopedKey` a member of the account. Without the hook, a
   * credentials file that lists the key among the account's members stands in for it.
   */
  addMember(organizationId: string, userScopedKey: string) {
    if (!this.has('members')) {
      const member = this.provisionedAccount(organizationId)?.members?.find(
        (m) => m.userScopedKey === userScopedKey,
      );
      if (member === undefined)
        this.notRun(
          'the target lacks the host hook members, and the credentials file lists no such member of the account',
          cause.hook('members'),
        );
      return Promise.resolve({ organizationId, hubUserId: member.hubUserId ?? '' });
    }
    return this.data<{ organizationId: string; hubUserId: string }>(
      this.http.post(`/accounts/${organizationId}/members`, { userScopedKey }, { base: 'hooks' }),
      'members',
    );
  }

  /** A new project; without the hook, a further project the credentials file lists. */
  createProject(organizationId: string, name?: string) {
    if (!this.has('projects') && this.target.credentials !== undefined)
      return Promise.resolve(this.provisionedProject(organizationId));
    this.need('projects');
    return this.data<{ projectId: string; name: string }>(
      this.http.post(`/accounts/${organizationId}/projects`, name === undefined ? {} : { name }, {
        base: 'hooks',
      }),
      'projects',
    );
  }

  createRole(
    organizationId: string,
    projectId: string,
    name: string,
    permissions: RolePermissions = {},
  ): Promise<ProjectUserRole> {
    if (!this.has('roles')) return this.provisionedRole(organizationId, projectId, permissions);
    return this.data<ProjectUserRole>(
      this.http.post(
        `/accounts/${organizationId}/projects/${projectId}/roles`,
        { name, permissions },
        { base: 'hooks' },
      ),
      'roles',
    );
  }

  /**
   * Without the roles hook: a role of the credentials file in that project with exactly the
   * wanted permissions, not yet given to this test and, as listed now, still holding them (a
   * test that updated or deleted one spoilt it). The choice among the intact ones is random, to
   * spread the tests over them; its name is the one it has, not the one asked for.
   */
  private async provisionedRole(
    organizationId: string,
    projectId: string,
    permissions: RolePermissions,
  ): Promise<ProjectUserRole> {
    const account = this.provisionedAccount(organizationId);
    const wanted = JSON.stringify(permissions);
    const missing = `the target lacks the host hook roles, and the credentials file has no unused role with exactly ${wanted} in project ${projectId}`;
    const candidates = (account?.roles ?? []).filter(
      (r) =>
        (r.projectId ?? account?.projectId) === projectId &&
        !this.rolesHandedOut.has(r.id) &&
        samePermissions(r.permissions, permissions),
    );
    if (account === undefined || candidates.length === 0) this.notRun(missing, cause.hook('roles'));
    const creds =
      account.orgBoundKey !== undefined
        ? { apiKey: account.orgBoundKey }
        : { apiKey: account.userScopedKey ?? '', organizationId };
    const res = await this.http.get(rolesPath({ projectId }), { query: creds });
    const listed = (res.body as { data?: { userRoles?: ProjectUserRole[] } }).data?.userRoles ?? [];
    const intact = listed.filter(
      (r) => candidates.some((c) => c.id === r.id) && samePermissions(r.permissions, permissions),
    );
    const role = intact[Math.floor(Math.random() * intact.length)];
    if (role === undefined)
      this.notRun(
        `every pre-provisioned role with ${wanted} in project ${projectId} was changed or deleted by other tests`,
        cause.hook('roles'),
      );
    this.rolesHandedOut.add(role.id);
    return role;
  }

  /**
   * Without the projects hook: a further project the credentials file lists for the account
   * (not its main one, and not yet given to this test).
   */
  private provisionedProject(organizationId: string): { projectId: string; name: string } {
    const account = this.provisionedAccount(organizationId);
    const projectId = (account?.projects ?? []).find(
      (p) => p !== account?.projectId && !this.projectsHandedOut.has(p),
    );
    if (projectId === undefined)
      this.notRun(
        'the target lacks the host hook projects, and the credentials file lists no further project of the account',
        cause.hook('projects'),
      );
    this.projectsHandedOut.add(projectId);
    return { projectId, name: 'pre-provisioned project' };
  }

  /**
   * A data connection of the account (hook connections): the target's own dataset, or exactly
   * the given small table with its row filters (a user sees a row only when the row's `column`
   * equals the user's property `property`).
   */
  createConnection(
    organizationId: string,
    body: CreateConnectionBody = {},
  ): Promise<HookConnection> {
    this.need('connections');
    return this.data(
      this.http.post(`/accounts/${organizationId}/connections`, body, { base: 'hooks' }),
      'connections',
    );
  }

  /** A project agent at version 1, reaching the given connection (hook agents). */
  createAgent(
    organizationId: string,
    projectId: string,
    fields: { name?: string; connectionId?: string } = {},
  ): Promise<HookAgent> {
    this.need('agents');
    return this.data(
      this.http.post(`/accounts/${organizationId}/projects/${projectId}/agents`, fields, {
        base: 'hooks',
      }),
      'agents',
    );
  }

  /** Publishes a new latest version of an agent (hook agents). */
  addAgentVersion(
    organizationId: string,
    projectId: string,
    agentId: string,
    note?: string,
  ): Promise<{ agentId: string; version: number; versions: number[] }> {
    this.need('agents');
    return this.data(
      this.http.post(
        `/accounts/${organizationId}/projects/${projectId}/agents/${agentId}/versions`,
        note === undefined ? {} : { note },
        { base: 'hooks' },
      ),
      'agents',
    );
  }

  /**
   * The raw answer of the chart-data hook: the rows a saved chart loads for the user of a
   * project-user token. Left unjudged, since a refusal (a missing property, a bad token) is what
   * some tests look for; `chartRows` reads a success.
   */
  chartData(
    organizationId: string,
    chartId: string,
    token: string,
    filters?: readonly { field: string; value: unknown }[],
  ): Promise<Reply> {
    this.need('chart-data');
    return this.http.post(
      `/accounts/${organizationId}/charts/${chartId}/data`,
      { token, ...(filters === undefined ? {} : { filters }) },
      { base: 'hooks' },
    );
  }

  /** The rows of a saved chart for a token's user; a refusal throws as a broken world. */
  chartRows(organizationId: string, chartId: string, token: string): Promise<ChartData> {
    return this.data(this.chartData(organizationId, chartId, token), 'chart-data');
  }

  clock(organizationId: string): Promise<Clock> {
    this.need('clock');
    return this.data(
      this.http.get(`/accounts/${organizationId}/clock`, { base: 'hooks' }),
      'clock',
    );
  }

  freeze(organizationId: string, at?: string): Promise<Clock> {
    this.need('clock');
    return this.data(
      this.http.post(`/accounts/${organizationId}/clock/freeze`, at === undefined ? {} : { at }, {
        base: 'hooks',
      }),
      'clock',
    );
  }

  advance(organizationId: string, seconds: number): Promise<Clock> {
    this.need('clock');
    return this.data(
      this.http.post(`/accounts/${organizationId}/clock/advance`, { seconds }, { base: 'hooks' }),
      'clock',
    );
  }
}
