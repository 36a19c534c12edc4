import { parseVary } from '../../latitude/choice.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { start, type RunningReference } from '../../reference/server.ts';
import type { FreedomId } from '../../spec/latitude.ts';
import { TargetProfile } from '../../spec/profile.ts';
import { discoverSpec, renderDiscovery } from './index.ts';
import { claimPath, permissionsIn, pointer } from './watch.ts';

// What discover reads off a target is checked against targets whose choices are known: the
// reference as it is, and the reference taking other choices the document allows (latitude
// behaviours). The expected values are written here from those choices' descriptions, never
// read from the reference's profile file.

describe('reading a token payload', () => {
  const granted = ['addChart', 'hideHeader'];
  it('finds the permissions as an object of booleans, a list of names or a string', () => {
    expect(
      permissionsIn({ p: { addChart: true, hideHeader: true, readOnly: false } }, granted),
    ).toEqual({ path: ['p'], form: 'object' });
    expect(permissionsIn({ ctx: { perms: ['hideHeader', 'addChart'] } }, granted)).toEqual({
      path: ['ctx', 'perms'],
      form: 'array',
    });
    expect(permissionsIn({ scope: 'addChart hideHeader' }, granted)).toEqual({
      path: ['scope'],
      form: 'string',
    });
  });
  it('finds nothing where the granted set differs or a member is not a flag', () => {
    expect(permissionsIn({ p: { addChart: true } }, granted)).toBeUndefined();
    expect(
      permissionsIn({ p: { addChart: true, hideHeader: true, x: true } }, granted),
    ).toBeUndefined();
    expect(permissionsIn({ scope: 'addChart' }, granted)).toBeUndefined();
  });
  it('writes a claim path with dots where it can and as a JSON pointer otherwise', () => {
    expect(claimPath(['ctx', 'role'])).toBe('ctx.role');
    expect(claimPath(['https://x.example/perm'])).toBe('/https:~1~1x.example~1perm');
    expect(pointer(['a~b', 'c'])).toBe('/a~0b/c');
  });
});

describe('eac profile discover', () => {
  const running: RunningReference[] = [];
  afterAll(async () => {
    await Promise.all(running.map((r) => r.close()));
  });
  const watch = async (options: { latitude?: readonly FreedomId[] } = {}) => {
    const reference = await start({ hooks: true, seed: 11, ...options });
    running.push(reference);
    return discoverSpec(
      {
        target: reference.url,
        hub: reference.hubUrl,
        ...(reference.hooksUrl === undefined ? {} : { hooks: reference.hooksUrl }),
        checkDecisions: false,
      },
      5,
    );
  };

  it('drafts a valid profile of what a target answers, and lists what it could not decide', async () => {
    const found = await watch({});
    expect(() => TargetProfile.parse(found.profile)).not.toThrow();
    expect(found.profile.serves).toEqual(
      expect.arrayContaining(['identity', 'tenant-flow', 'v1-dashboards', 'v2', 'chat', 'hub']),
    );
    expect(found.profile.shapes.tokenClaims).toMatchObject({
      subject: 'sub',
      permissionsForm: 'object',
    });
    expect(found.profile.shapes.jwks).toBeDefined();
    expect(found.profile.shapes.embedToken?.organization.externalId).toBeDefined();
    expect(found.profile.chat?.versionReport?.pointer).toMatch(/^\//);
    // The open shapes, read where the answers held the values sent.
    expect(found.profile.shapes.v2Application).toEqual({ list: '/data/applications' });
    expect(found.profile.shapes.v2Dashboard).toEqual({
      list: '/data/dashboards',
      chartIds: '/chartIds',
      name: '/name',
      made: '/data',
    });
    expect(found.profile.shapes.userUpdate).toMatchObject({ properties: '/properties' });
    expect(found.profile.follows).toContain('v2.credentials.api-key-carrier');
    expect(found.review.join('\n')).toMatch(/follows v2\.credentials\.api-key-carrier/);
    // The hub section is read off the pages (hub.test.ts); the tenant field names are the
    // implementer's to write.
    expect(found.profile.hub?.things.chart).toBeDefined();
    expect(found.review.join('\n')).toMatch(/registerTenant/);
    expect(renderDiscovery(found, 'p.json')).toMatch(/Draft profile written to p\.json/);
  }, 120_000);

  it('states the success statuses of the v2 calls that answer a 2xx other than 200', async () => {
    // The reference behind the latitude proxy, as `--latitude status.created` starts it.
    const found = await discoverSpec(
      { checkDecisions: false, latitude: parseVary('status.created') },
      5,
    );
    expect(found.profile.shapes.successStatuses).toMatchObject({
      'POST /v2/api/applications/{applicationId}/dashboards': 201,
      'DELETE /v2/api/applications/{applicationId}/dashboards/{dashboardId}/charts/{chartId}': 202,
    });
    expect(found.profile.shapes.successStatuses).not.toHaveProperty(['GET /v2/api/applications']);
    expect(found.review.join('\n')).toMatch(/successStatuses/);
  }, 120_000);

  it('reads claims laid out otherwise, permissions as names, and no key set for HS256', async () => {
    const found = await watch({
      latitude: ['claims.layout', 'claims.permissions-array', 'tokens.hs256'],
    });
    // claims.layout: the user in uid, the rest under ctx; permissions-array: a list of names.
    expect(['uid', 'sub']).toContain(found.profile.shapes.tokenClaims?.subject);
    expect(found.profile.shapes.tokenClaims).toMatchObject({
      role: 'ctx.role',
      projectOrganization: 'ctx.organization',
      properties: 'ctx.properties',
      permissions: 'ctx.permissions',
      permissionsForm: 'array',
    });
    expect(found.profile.shapes.jwks).toBeUndefined();
    expect(found.observed.join('\n')).toMatch(/HS256/);
  }, 120_000);
});
