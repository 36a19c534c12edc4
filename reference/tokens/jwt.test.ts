import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { projectUserFacts } from './claims.ts';
import type { EacClaims } from './claims.ts';
import { TokenService } from './jwt.ts';

// How the reference signs and lays out its tokens (§5 rule 8 leaves both open): ES256 with a
// published key set or HS256 with a secret; project-user claims flat or nested.
const USER = '3f1c2a9e-55b0-4c3d-8e21-9a7b6c5d4e3f';
const NOW = Date.UTC(2026, 0, 1);
const userClaims: EacClaims = {
  kind: 'project-user',
  org: 'b7d7c8a0-1111-4222-8333-944455556666',
  prj: 'p-1',
  pog: 'po-1',
  rol: 'r-1',
  perm: { addChart: true, readOnly: false },
  props: { region: 'north' },
  name: 'Viewer',
};
const tenantClaims: EacClaims = { kind: 'tenant', org: userClaims.org, tkey: 'key:k1', perm: {} };

const issue = (tokens: TokenService, claims: EacClaims, subject = USER) =>
  tokens.issue(subject, claims, 'jti-1', NOW).then((i) => i.token);

describe('token signing', () => {
  it('ES256 by default: a kid of the published key set, which verifies the token', async () => {
    const tokens = await TokenService.create('kid-1');
    const token = await issue(tokens, userClaims);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', kid: 'kid-1' });
    expect(tokens.jwks()?.keys).toEqual([
      expect.objectContaining({ kid: 'kid-1', alg: 'ES256', kty: 'EC' }),
    ]);
    const verified = await tokens.verify(token, NOW);
    expect(verified.ok && verified.sub).toBe(USER);
  });

  it('HS256 on the switch: no kid, no key set, and its own tokens verify', async () => {
    const tokens = await TokenService.create('kid-1', { signing: 'HS256', seed: 7 });
    const token = await issue(tokens, userClaims);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(tokens.jwks()).toBeUndefined();
    const verified = await tokens.verify(token, NOW);
    expect(verified.ok && verified.sub).toBe(USER);
    expect(verified.ok && verified.claims.kind).toBe('project-user');
  });

  it('HS256: the secret comes from the seed, so another seed or an ES256 token does not verify', async () => {
    const tokens = await TokenService.create('kid-1', { signing: 'HS256', seed: 7 });
    const replayed = await TokenService.create('kid-1', { signing: 'HS256', seed: 7 });
    expect((await replayed.verify(await issue(tokens, userClaims), NOW)).ok).toBe(true);
    const other = await TokenService.create('kid-1', { signing: 'HS256', seed: 8 });
    expect((await other.verify(await issue(tokens, userClaims), NOW)).ok).toBe(false);
    const es = await TokenService.create('kid-1');
    expect((await tokens.verify(await issue(es, userClaims), NOW)).ok).toBe(false);
    expect((await es.verify(await issue(tokens, userClaims), NOW)).ok).toBe(false);
  });
});

describe('token claims layout', () => {
  it('flat by default: sub, perm, rol, pog, props at the top', async () => {
    const tokens = await TokenService.create('kid-1');
    const claims = decodeJwt(await issue(tokens, userClaims));
    expect(claims).toMatchObject({
      sub: USER,
      perm: userClaims['perm'],
      rol: 'r-1',
      pog: 'po-1',
      props: userClaims['props'],
    });
    expect(claims).not.toHaveProperty('uid');
    expect(claims).not.toHaveProperty('ctx');
  });

  it('nested on the switch: uid beside sub, the rest under ctx, nothing left flat', async () => {
    const tokens = await TokenService.create('kid-1', { layout: 'nested' });
    const token = await issue(tokens, userClaims);
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      kind: 'project-user',
      org: userClaims.org,
      sub: USER,
      uid: USER,
      ctx: {
        permissions: userClaims['perm'],
        role: 'r-1',
        organization: 'po-1',
        properties: userClaims['props'],
      },
    });
    for (const flat of ['perm', 'rol', 'pog', 'props']) expect(claims).not.toHaveProperty(flat);
    const verified = await tokens.verify(token, NOW);
    expect(verified.ok && verified.sub).toBe(USER);
  });

  it('lays a tenant token out flat by default, nested under ctx in the nested layout', async () => {
    const flat = await TokenService.create('kid-1');
    expect(decodeJwt(await issue(flat, tenantClaims, 'tenant-1'))).toMatchObject({
      kind: 'tenant',
      sub: 'tenant-1',
      tkey: 'key:k1',
      perm: {},
    });
    const tokens = await TokenService.create('kid-1', { layout: 'nested' });
    const token = await issue(tokens, tenantClaims, 'tenant-1');
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      kind: 'tenant',
      sub: 'tenant-1',
      uid: 'tenant-1',
      ctx: { permissions: {}, key: 'key:k1' },
    });
    for (const flat of ['perm', 'tkey', 'meta']) expect(claims).not.toHaveProperty(flat);
    const verified = await tokens.verify(token, NOW);
    expect(verified.ok && verified.sub).toBe('tenant-1');
  });

  it('reads what a project-user token says from either layout', async () => {
    const expected = {
      permissions: userClaims['perm'],
      role: 'r-1',
      projectOrganization: 'po-1',
      properties: userClaims['props'],
    };
    for (const layout of ['flat', 'nested'] as const) {
      const tokens = await TokenService.create('kid-1', { layout });
      const verified = await tokens.verify(await issue(tokens, userClaims), NOW);
      if (!verified.ok) throw new Error(`${layout}: the token did not verify`);
      expect(projectUserFacts(verified.claims), layout).toEqual(expected);
    }
  });

  it('writes the permissions as granted names in the array and string forms, and reads them back', async () => {
    const forms = [
      ['flat', 'array', 'https://eac.example/permissions', ['addChart']],
      ['flat', 'string', 'scope', 'addChart'],
      ['nested', 'array', 'ctx.permissions', ['addChart']],
      ['nested', 'string', 'ctx.permissions', 'addChart'],
    ] as const;
    for (const [layout, permissionsForm, claim, shown] of forms) {
      const tokens = await TokenService.create('kid-1', { layout, permissionsForm });
      const token = await issue(tokens, userClaims);
      const claims = decodeJwt(token) as Record<string, unknown>;
      const at =
        layout === 'nested'
          ? (claims['ctx'] as Record<string, unknown>)['permissions']
          : claims[claim];
      expect(at, `${layout} ${permissionsForm}`).toEqual(shown);
      expect(claims, `${layout} ${permissionsForm}`).not.toHaveProperty('perm');
      const verified = await tokens.verify(token, NOW);
      if (!verified.ok) throw new Error(`${layout} ${permissionsForm}: the token did not verify`);
      expect(projectUserFacts(verified.claims).permissions).toEqual({ addChart: true });
    }
  });
});
