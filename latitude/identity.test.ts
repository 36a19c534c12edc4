import { describe, expect, it } from 'vitest';
import { TargetProfile } from '../spec/profile.ts';
import { identityTransforms } from './identity.ts';
import { answerOf, bodyOf, fixedRandom } from './test-answer.ts';
import type { Answer, Before, Relayed, Transform } from './transform.ts';

const P = '11111111-2222-4333-8444-555555555555';
const U = '99999999-8888-4777-8666-555555555555';
const R = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const ORG = 'cccccccc-dddd-4eee-8fff-000000000000';

function made(id: string): Transform {
  const t = identityTransforms.map((m) => m()).find((x) => x.id === id);
  if (t === undefined) throw new Error(`no transform ${id}`);
  return t;
}

const requestOf = (method: string, url: string, body?: unknown): Relayed => ({
  method,
  url,
  headers: {},
  body: body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body)),
  origin: 'api',
});

/** The request as relayed after `before`, or the proxy's own answer. */
const sentBody = (b: Before | undefined): unknown =>
  b !== undefined && 'request' in b ? JSON.parse(b.request.body.toString('utf8')) : undefined;

/** A target's answer to `request`. */
const answered = (request: Relayed, status: number, body: unknown): Answer => ({
  ...answerOf(request.method, request.url, status, body),
  request,
});

const ok = (data: unknown) => ({ status: 'success', data });

describe('register.name-optional', () => {
  const t = made('register.name-optional');
  it('names an organization after its externalId, a user with an empty name', () => {
    const org = t.before?.(
      requestOf('POST', '/v1/api/projects/register-organization', {
        projectId: P,
        externalId: 'x',
      }),
    );
    expect(sentBody(org)).toEqual({ projectId: P, externalId: 'x', name: 'x' });
    const bare = t.before?.(
      requestOf('POST', '/v1/api/projects/register-organization', { projectId: P }),
    );
    expect(sentBody(bare)).toEqual({ projectId: P, name: 'Unnamed organization' });
    const user = t.before?.(requestOf('POST', '/v1/api/projects/register-user', { projectId: P }));
    expect(sentBody(user)).toEqual({ projectId: P, name: '' });
  });
  it('leaves a registration with a name, and other calls, alone', () => {
    expect(
      t.before?.(requestOf('POST', '/v1/api/projects/register-user', { projectId: P, name: '' })),
    ).toBeUndefined();
    expect(t.before?.(requestOf('POST', '/v1/api/projects/user-token', {}))).toBeUndefined();
  });
});

describe('register.ids-other', () => {
  it('refuses an externalId the project registered, with nothing relayed', () => {
    const t = made('register.ids-other');
    const first = requestOf('POST', '/v1/api/projects/register-organization', {
      projectId: P,
      externalId: 'acme',
      name: 'A',
    });
    expect(t.before?.(first)).toBeUndefined();
    t.apply(
      answered(first, 200, ok({ projectOrganizationId: ORG, externalId: 'acme' })),
      fixedRandom(),
    );
    const again = t.before?.(first);
    expect(again !== undefined && 'answer' in again ? again.answer.status : undefined).toBe(409);
    expect(again !== undefined && 'answer' in again ? bodyOf(again.answer) : undefined).toEqual({
      status: 'error',
      error: {
        message: 'externalId is already registered',
        code: 'CONFLICT',
        details: { field: 'externalId' },
      },
    });
    // Another project may hold the same externalId.
    expect(
      t.before?.(requestOf(first.method, first.url, { projectId: U, externalId: 'acme' })),
    ).toBe(undefined);
  });
  it('keeps the properties a user was stored with when a re-registration leaves them out', () => {
    const t = made('register.ids-other');
    const first = requestOf('POST', '/v1/api/projects/register-user', {
      projectId: P,
      userId: U,
      name: 'N',
      properties: { a: 1 },
    });
    t.apply(answered(first, 200, ok({ message: 'm', userId: U })), fixedRandom());
    const again = requestOf('POST', '/v1/api/projects/register-user', {
      projectId: P,
      userId: U.toUpperCase(),
      name: 'M',
    });
    expect(sentBody(t.before?.(again))).toEqual({
      projectId: P,
      userId: U.toUpperCase(),
      name: 'M',
      properties: { a: 1 },
    });
    // A user update's properties are the ones kept from then on.
    const update = requestOf('PUT', `/v1/api/projects/${P}/users/${U}`, { payload: { b: 2 } });
    t.apply(answered(update, 200, ok({})), fixedRandom());
    expect(sentBody(t.before?.(again))).toMatchObject({ properties: { b: 2 } });
  });
  it('no longer follows the upsert decision', () => {
    const base = TargetProfile.parse({
      serves: ['identity'],
      shapes: {},
      follows: ['orgs.register.external-id-upsert', 'users.update.response-fields'],
    });
    expect(made('register.ids-other').restate?.(base).follows).toEqual([
      'users.update.response-fields',
    ]);
  });
});

describe('orgs.external-id-other', () => {
  it('answers a handle when no externalId was sent, and resolves it in later calls', () => {
    const t = made('orgs.external-id-other');
    const reg = requestOf('POST', '/v1/api/projects/register-organization', { projectId: P });
    const out = t.apply(
      answered(reg, 200, ok({ projectOrganizationId: ORG, externalId: ORG })),
      fixedRandom(),
    );
    const handle = (bodyOf(out) as { data: { externalId: string } }).data.externalId;
    expect(handle).toBe('org-ccccccccdddd');
    const user = t.before?.(
      requestOf('POST', '/v1/api/projects/register-user', {
        projectId: P,
        projectOrganizationId: handle,
      }),
    );
    expect(sentBody(user)).toEqual({ projectId: P, projectOrganizationId: ORG });
    const query = t.before?.(requestOf('GET', `/v2/api/applications?organization=${handle}`));
    expect(query !== undefined && 'request' in query ? query.request.url : undefined).toBe(
      `/v2/api/applications?organization=${ORG}`,
    );
  });
  it("takes an externalId equal to another organization's UUID, never storing it", () => {
    const t = made('orgs.external-id-other');
    const first = requestOf('POST', '/v1/api/projects/register-organization', {
      projectId: P,
      externalId: 'a',
    });
    t.apply(
      answered(first, 200, ok({ projectOrganizationId: ORG, externalId: 'a' })),
      fixedRandom(),
    );
    const second = t.before?.(
      requestOf('POST', '/v1/api/projects/register-organization', {
        projectId: P,
        externalId: ORG.toUpperCase(),
      }),
    );
    expect(sentBody(second)).toEqual({ projectId: P });
    if (second === undefined || !('request' in second)) throw new Error('not rewritten');
    const out = t.apply(
      answered(second.request, 200, ok({ projectOrganizationId: U, externalId: U })),
      fixedRandom(),
    );
    expect(bodyOf(out)).toEqual(ok({ projectOrganizationId: U, externalId: ORG.toUpperCase() }));
  });
});

describe('users.update.other-reading', () => {
  const t = made('users.update.other-reading');
  const url = `/v1/api/projects/${P}/users/${U}`;
  it('reads a left-out role or organization as none, and properties over payload', () => {
    expect(
      sentBody(t.before?.(requestOf('PUT', url, { name: 'n', properties: {}, payload: {} }))),
    ).toEqual({ name: 'n', properties: {}, userRoleId: null, projectOrganizationId: null });
    expect(
      t.before?.(requestOf('PUT', url, { name: 'n', userRoleId: R, projectOrganizationId: null })),
    ).toBeUndefined();
  });
  it('refuses an organization named otherwise than by its UUID', () => {
    const b = t.before?.(requestOf('PUT', url, { name: 'n', projectOrganizationId: 'acme' }));
    expect(b !== undefined && 'answer' in b ? b.answer.status : undefined).toBe(400);
  });
  it('no longer follows the absent-fields decision', () => {
    const base = TargetProfile.parse({
      serves: ['identity'],
      shapes: {},
      follows: ['users.update.absent-fields-unchanged'],
    });
    expect(t.restate?.(base).follows).toEqual([]);
  });
});

describe('roles.quiet-writes', () => {
  const role = `/v1/api/projects/${P}/user-roles/${R}`;
  const stored = { id: R, name: 'r', updated_at: '2026-01-01T00:00:00.000Z' };
  it('answers a second delete of a role as the first, read through the role list', () => {
    const t = made('roles.quiet-writes');
    const del = requestOf('DELETE', `${role}?apiKey=k`);
    expect(t.before?.(del)).toBeUndefined();
    t.apply(answered(del, 200, ok({ message: 'deleted' })), fixedRandom());
    const again = t.before?.(del);
    if (again === undefined || !('request' in again)) throw new Error('not rewritten');
    expect(again.request.method).toBe('GET');
    expect(again.request.url).toBe(`/v1/api/projects/${P}/user-roles?apiKey=k`);
    const out = t.apply(answered(again.request, 200, ok({ userRoles: [] })), fixedRandom());
    expect(out?.status).toBe(200);
    expect(out?.request.method).toBe('DELETE');
    expect(bodyOf(out)).toEqual(ok({ message: 'The role was deleted.' }));
    // A refusal of the credentials stays one.
    const refused = t.before?.(del);
    if (refused === undefined || !('request' in refused)) throw new Error('not rewritten');
    const err = { status: 'error', error: { message: 'no', code: 'UNAUTHORIZED' } };
    expect(t.apply(answered(refused.request, 401, err), fixedRandom())?.status).toBe(401);
  });
  it('answers an update with nothing to change with the role as stored', () => {
    const t = made('roles.quiet-writes');
    const put = t.before?.(requestOf('PUT', role, { apiKey: 'k', organizationId: U }));
    if (put === undefined || !('request' in put)) throw new Error('not rewritten');
    expect(put.request.url).toBe(`/v1/api/projects/${P}/user-roles?apiKey=k&organizationId=${U}`);
    const out = t.apply(
      answered(put.request, 200, ok({ userRoles: [{ ...stored, id: 'other' }, stored] })),
      fixedRandom(),
    );
    expect(bodyOf(out)).toEqual(ok(stored));
    const gone = t.before?.(requestOf('PUT', role, { apiKey: 'k' }));
    if (gone === undefined || !('request' in gone)) throw new Error('not rewritten');
    expect(t.apply(answered(gone.request, 200, ok({ userRoles: [] })), fixedRandom())?.status).toBe(
      404,
    );
    expect(t.before?.(requestOf('PUT', role, { apiKey: 'k', name: 'x' }))).toBeUndefined();
  });
});

describe('every identity transform', () => {
  it('leaves a body nested past any identity call alone (the target answers it)', () => {
    const deep = `{"projectId":"${P}","properties":${'{"a":'.repeat(4500)}1${'}'.repeat(4500)}}`;
    for (const make of identityTransforms) {
      const t = make();
      for (const [method, url] of [
        ['POST', '/v1/api/projects/register-user'],
        ['POST', '/v1/api/projects/register-organization'],
        ['PUT', `/v1/api/projects/${P}/users/${U}`],
      ] as const)
        expect(
          t.before?.({ ...requestOf(method, url), body: Buffer.from(deep) }),
          `${t.id} ${method} ${url}`,
        ).toBeUndefined();
    }
  });
});
