import { describe, expect, it } from 'vitest';
import { postJson, referenceForTests, type Envelope } from '../test-client.ts';

type Body = Envelope;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NOBODY = '00000000-0000-4000-8000-000000000000';
const aUuid: unknown = expect.stringMatching(UUID);
const aString: unknown = expect.any(String);
const aTimestamp: unknown = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

// The account, members, projects, roles, clock and snapshot hooks as spec/hooks.openapi.yaml
// describes them: their answers, their refusals and what they change.
describe('account hooks', () => {
  const ref = referenceForTests({ hooks: true, seed: 5 });
  const post = (url: string, body: unknown) => postJson<Body>(url, body);
  const get = async (url: string) => {
    const res = await fetch(url);
    return { status: res.status, body: (await res.json()) as Body };
  };
  const account = async (body: unknown = {}) => {
    const made = await post(`${ref.hooks}/accounts`, body);
    expect(made.status).toBe(201);
    return made.body.data;
  };
  /** 404 NOT_FOUND in the §7 envelope naming the kind of the unknown id. */
  const expectNotFound = (
    res: { status: number; body: Body },
    resource: string,
    field?: string,
  ) => {
    expect(res.status, `unknown ${resource}`).toBe(404);
    expect(res.body.status).toBe('error');
    expect(res.body.error?.message).toEqual(aString);
    expect(res.body.error?.code).toBe('NOT_FOUND');
    expect(res.body.error?.details?.['resource']).toBe(resource);
    if (field !== undefined) {
      expect(res.body.error?.details?.['field'], `unknown ${resource}`).toBe(field);
    }
  };

  it('creates an account named as asked, or with a name of its own', async () => {
    const named = await account({ name: 'Acme' });
    expect(named).toEqual({
      organizationId: aUuid,
      name: 'Acme',
      hubUserId: aUuid,
      userScopedKey: aString,
      orgBoundKey: aString,
    });
    const unnamed = await account();
    expect(unnamed['name'], 'Account.name is a non-empty string').toEqual(aString);
    expect(String(unnamed['name']).length).toBeGreaterThan(0);
  });

  it('makes a hub user a member: its user-scoped key then acts on that account', async () => {
    const a = await account();
    const b = await account();
    const org = String(a['organizationId']);
    const projectId = String(
      (await post(`${ref.hooks}/accounts/${org}/projects`, {})).body.data['projectId'],
    );
    const roles = () =>
      get(
        `${ref.url}/v1/api/projects/${projectId}/user-roles?apiKey=${String(b['userScopedKey'])}&organizationId=${org}`,
      );
    expect((await roles()).status, "B's hub user is no member of A yet").toBe(403);
    const added = await post(`${ref.hooks}/accounts/${org}/members`, {
      userScopedKey: b['userScopedKey'],
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      status: 'success',
      data: { organizationId: org, hubUserId: b['hubUserId'] },
    });
    expect((await roles()).status, "B's hub user is now a member of A").toBe(200);
  });

  it('refuses a member key that is unknown or organization-bound, and an unknown account', async () => {
    const a = await account();
    const org = String(a['organizationId']);
    for (const userScopedKey of ['no-such-key', a['orgBoundKey']])
      expectNotFound(
        await post(`${ref.hooks}/accounts/${org}/members`, { userScopedKey }),
        'apiKey',
        'userScopedKey',
      );
    const res = await post(`${ref.hooks}/accounts/${org}/members`, {});
    expect(res.status, 'a body without userScopedKey').toBe(400);
    expect(res.body.error?.code).toBe('VALIDATION_ERROR');
    expectNotFound(
      await post(`${ref.hooks}/accounts/${NOBODY}/members`, { userScopedKey: a['userScopedKey'] }),
      'account',
      'organizationId',
    );
  });

  it('creates projects named as asked or with a name of their own', async () => {
    const org = String((await account())['organizationId']);
    const named = await post(`${ref.hooks}/accounts/${org}/projects`, { name: 'Shop' });
    expect(named.status).toBe(201);
    expect(named.body.data).toEqual({ projectId: aUuid, name: 'Shop' });
    const unnamed = (await post(`${ref.hooks}/accounts/${org}/projects`, {})).body.data;
    expect(String(unnamed['name']).length, 'Project.name is a non-empty string').toBeGreaterThan(0);
    expectNotFound(
      await post(`${ref.hooks}/accounts/${NOBODY}/projects`, {}),
      'account',
      'organizationId',
    );
  });

  it('creates a role the role list shows, and refuses an unknown project or bad permissions', async () => {
    const a = await account();
    const org = String(a['organizationId']);
    const projectId = String(
      (await post(`${ref.hooks}/accounts/${org}/projects`, {})).body.data['projectId'],
    );
    const made = await post(`${ref.hooks}/accounts/${org}/projects/${projectId}/roles`, {
      name: 'Viewer',
      permissions: { addChart: true, readOnly: false },
    });
    expect(made.status).toBe(201);
    expect(made.body.data).toEqual({
      id: aUuid,
      name: 'Viewer',
      organization_id: org,
      project_id: projectId,
      permissions: { addChart: true, readOnly: false },
      created_at: aTimestamp,
      updated_at: made.body.data['created_at'],
    });
    const listed = await get(
      `${ref.url}/v1/api/projects/${projectId}/user-roles?apiKey=${String(a['orgBoundKey'])}`,
    );
    expect(JSON.stringify(listed.body)).toContain(String(made.body.data['id']));
    expectNotFound(
      await post(`${ref.hooks}/accounts/${org}/projects/${NOBODY}/roles`, { name: 'X' }),
      'project',
    );
    const bad = await post(`${ref.hooks}/accounts/${org}/projects/${projectId}/roles`, {
      name: 'X',
      permissions: { addChart: 'yes' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.code).toBe('VALIDATION_ERROR');
  });

  it('reads a running clock as not frozen, then frozen from a freeze on, advancing exactly', async () => {
    const org = String((await account())['organizationId']);
    const running0 = await get(`${ref.hooks}/accounts/${org}/clock`);
    expect(running0.status).toBe(200);
    expect(running0.body.data['frozen'], 'a new account runs on real time').toBe(false);
    const moved = await post(`${ref.hooks}/accounts/${org}/clock/advance`, { seconds: 60 });
    expect(moved.body.data['frozen'], 'advancing a running clock does not freeze it').toBe(false);
    const frozen = await post(`${ref.hooks}/accounts/${org}/clock/freeze`, {
      at: '2032-02-03T04:05:06.000Z',
    });
    expect(frozen.body).toEqual({
      status: 'success',
      data: { now: '2032-02-03T04:05:06.000Z', frozen: true },
    });
    const advanced = await post(`${ref.hooks}/accounts/${org}/clock/advance`, { seconds: 1.5 });
    expect(advanced.body.data).toEqual({ now: '2032-02-03T04:05:07.500Z', frozen: true });
    expect((await get(`${ref.hooks}/accounts/${org}/clock`)).body.data).toEqual(advanced.body.data);
  });

  it('refuses to move the clock back, and keeps serving the account after', async () => {
    const org = String((await account())['organizationId']);
    await post(`${ref.hooks}/accounts/${org}/clock/freeze`, { at: '2032-02-03T04:05:06.000Z' });
    for (const [path, body] of [
      ['freeze', { at: '2032-02-03T04:05:05.999Z' }],
      ['advance', { seconds: -1 }],
    ] as const) {
      const res = await post(`${ref.hooks}/accounts/${org}/clock/${path}`, body);
      expect(res.status, path).toBe(400);
      expect(res.body.error?.code, path).toBe('VALIDATION_ERROR');
    }
    const after = await get(`${ref.hooks}/accounts/${org}/clock`);
    expect(after.status, 'a refused clock command changed nothing').toBe(200);
    expect(after.body.data).toEqual({ now: '2032-02-03T04:05:06.000Z', frozen: true });
    expectNotFound(await get(`${ref.hooks}/accounts/${NOBODY}/clock`), 'account', 'organizationId');
  });

  it('prints a snapshot canonically: members by name, collections sorted by id, no clock', async () => {
    const org = String((await account())['organizationId']);
    // Created out of name order, so insertion order is neither name nor id order.
    for (const name of ['c', 'b', 'a', 'e', 'd'])
      await post(`${ref.hooks}/accounts/${org}/projects`, { name });
    const read = async () => {
      const res = await get(`${ref.hooks}/accounts/${org}/snapshot`);
      expect(res.status).toBe(200);
      expect(res.body.data['organizationId']).toBe(org);
      return res.body.data['state'];
    };
    const state = await read();
    let collections = 0;
    const walk = (value: unknown, where: string): void => {
      if (Array.isArray(value)) {
        const records = value.filter(
          (v): v is Record<string, unknown> => typeof v === 'object' && v !== null,
        );
        if (records.length >= 2 && records.length === value.length) {
          collections += 1;
          // Its id: a member holding a distinct UUID in every record.
          const ids = Object.keys(records[0] ?? {}).filter((k) => {
            const all = records.map((r) => r[k]);
            return (
              all.every((v) => typeof v === 'string' && UUID.test(v)) &&
              new Set(all).size === all.length
            );
          });
          expect(
            ids.some((k) => {
              const all = records.map((r) => String(r[k]));
              return all.every((v, i) => i === 0 || (all[i - 1] ?? '') <= v);
            }),
            `${where} is sorted by id`,
          ).toBe(true);
        }
        value.forEach((v, i) => walk(v, `${where}[${String(i)}]`));
      } else if (typeof value === 'object' && value !== null) {
        const keys = Object.keys(value);
        expect(keys, `${where}'s members are sorted`).toEqual([...keys].sort());
        for (const k of keys) walk((value as Record<string, unknown>)[k], `${where}.${k}`);
      }
    };
    walk(state, 'state');
    expect(collections, 'five projects make a collection').toBeGreaterThan(0);
    await post(`${ref.hooks}/accounts/${org}/clock/advance`, { seconds: 3600 });
    expect(JSON.stringify(await read()), 'the clock is no part of it').toBe(JSON.stringify(state));
  });
});
