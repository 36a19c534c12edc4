import type { ProjectUserRole } from '../../spec/schemas/role.ts';
import type { Account, Clock, HookName } from '../../spec/schemas/hooks.ts';
import type { RolePermissions } from '../../spec/schemas/permissions.ts';
import type { Http, Reply } from './http.ts';
import type { Target } from './target.ts';

/**
 * The host hooks as the suites use them (spec/hooks.openapi.yaml). A hook call that fails is
 * a broken world, not a finding about the service: it throws with the answer attached.
 */
export class Hooks {
  constructor(
    private readonly http: Http,
    private readonly target: Target,
    private readonly notRun: (reason: string) => never,
  ) {}

  /** A test reaching for a hook the target lacks ends as not-run, naming the hook. */
  private need(hook: HookName): void {
    if (!this.has(hook)) this.notRun(`the target lacks the host hook ${hook}`);
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

  addMember(organizationId: string, userScopedKey: string) {
    this.need('members');
    return this.data<{ organizationId: string; hubUserId: string }>(
      this.http.post(`/accounts/${organizationId}/members`, { userScopedKey }, { base: 'hooks' }),
      'members',
    );
  }

  createProject(organizationId: string, name?: string) {
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
  ) {
    this.need('roles');
    return this.data<ProjectUserRole>(
      this.http.post(
        `/accounts/${organizationId}/projects/${projectId}/roles`,
        { name, permissions },
        { base: 'hooks' },
      ),
      'roles',
    );
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
