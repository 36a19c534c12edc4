import { describe, expect, it } from 'vitest';
import { TargetProfile } from '../spec/profile.ts';
import { renamedProfile, requestInTargetNames } from './requests.ts';

const base = TargetProfile.parse({
  serves: ['identity', 'tenant-flow', 'v1-dashboards'],
  shapes: {
    embedToken: {
      organization: { externalId: 'externalId', name: 'name', properties: 'properties' },
      user: { id: 'id', name: 'name' },
      answer: { token: 'token' },
    },
    registerTenant: {
      name: 'name',
      columns: 'tenantColumns',
      permissions: 'permissions',
      examples: { connectionOverride: { database: 'x' } },
    },
    listWorkspacesFilters: { team: 'teamId', project: 'projectId' },
  },
});

const bodyOf = (r: { body: Buffer } | undefined): unknown =>
  r === undefined ? undefined : (JSON.parse(r.body.toString('utf8')) as unknown);
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('requests.renamed', () => {
  it('states new names for the concepts the profile names, and only those', () => {
    const shapes = renamedProfile(base).shapes;
    expect(shapes.registerTenant).toEqual({
      name: 'displayName',
      columns: 'splitColumns',
      permissions: 'editing',
      examples: { connectionOverride: { database: 'x' } },
    });
    expect(shapes.embedToken).toEqual({
      organization: { externalId: 'ref', name: 'title', properties: 'traits' },
      user: { id: 'uid', name: 'fullName' },
      answer: { token: 'token' },
    });
    expect(shapes.listWorkspacesFilters).toEqual({ team: 'team', project: 'project' });
    expect(TargetProfile.safeParse(renamedProfile(base)).success).toBe(true);
  });

  it("carries a register-tenant body to the target's names; its own names are not read", () => {
    const sent = { apiKey: 'k', displayName: 'Acme', splitColumns: { c: 1 }, tenantColumns: 'x' };
    const out = requestInTargetNames(base, 'POST', '/v1/api/tenant/register-tenant', json(sent));
    expect(bodyOf(out)).toEqual({ apiKey: 'k', name: 'Acme', tenantColumns: { c: 1 } });
    // The target's own name alone, as a client that did not read the profile would send it.
    const own = requestInTargetNames(
      base,
      'POST',
      '/v1/api/tenant/register-tenant',
      json({ apiKey: 'k', tenantColumns: { c: 1 } }),
    );
    expect(bodyOf(own)).toEqual({ apiKey: 'k' });
  });

  it('carries the members inside embed-token’s organization and user; userRoleId stays', () => {
    const sent = {
      apiKey: 'k',
      organization: { ref: 'e1', title: 'Org', traits: { a: 1 } },
      user: { uid: 'u1', fullName: 'Ann', userRoleId: 'r1' },
    };
    const out = requestInTargetNames(base, 'POST', '/v1/api/projects/embed-token', json(sent));
    expect(bodyOf(out)).toEqual({
      apiKey: 'k',
      organization: { externalId: 'e1', name: 'Org', properties: { a: 1 } },
      user: { id: 'u1', name: 'Ann', userRoleId: 'r1' },
    });
  });

  it('carries the list-workspaces filters in the query', () => {
    const out = requestInTargetNames(
      base,
      'GET',
      '/v1/api/dashboard/list-workspaces?apiKey=k&team=t1&projectId=p0',
      Buffer.alloc(0),
    );
    expect(out?.url).toBe('/v1/api/dashboard/list-workspaces?apiKey=k&teamId=t1');
  });

  it('never throws on a body too deep to write again (it goes as sent)', () => {
    let deep = '1';
    for (let i = 0; i < 100_000; i++) deep = `{"a":${deep}}`;
    const body = Buffer.from(`{"apiKey":"k","displayName":"n","splitColumns":${deep}}`);
    expect(() =>
      requestInTargetNames(base, 'POST', '/v1/api/tenant/register-tenant', body),
    ).not.toThrow();
  });

  it('leaves every other request, and one with nothing renamed, alone', () => {
    const body = json({ apiKey: 'k', name: 'x' });
    expect(requestInTargetNames(base, 'POST', '/v1/api/dashboard/clone', body)).toBe(undefined);
    expect(
      requestInTargetNames(base, 'GET', '/v1/api/dashboard/list-workspaces?apiKey=k', body),
    ).toBe(undefined);
    expect(
      requestInTargetNames(base, 'POST', '/v1/api/projects/embed-token', json({ apiKey: 'k' })),
    ).toBe(undefined);
    expect(
      requestInTargetNames(base, 'POST', '/v1/api/tenant/register-tenant', Buffer.from('{')),
    ).toBe(undefined);
    const bare = TargetProfile.parse({ serves: ['tenant-flow'], shapes: {} });
    expect(
      requestInTargetNames(bare, 'POST', '/v1/api/tenant/register-tenant', json({ name: 'x' })),
    ).toBe(undefined);
  });
});
