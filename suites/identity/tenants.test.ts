import { expect } from 'vitest';
import { z } from 'zod';
import { buildWorld, type World } from '../../fixtures/world.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { claimsOf } from '../harness/jwt.ts';
import { APPLICATIONS, REGISTER_TENANT } from '../harness/paths.ts';
import { expectError, expectSuccess, statusAndCode } from '../harness/expect.ts';

// §4.9: the v1 tenant flow. Its body field names are not shown; the reference's names
// (clause tenants.register.field-names) are what these tests send.
const needs = ['accounts', 'projects'] as const;
const Registered = z.object({
  message: z.string(),
  token: z.string().regex(/^[\w-]+\.[\w-]+\.[\w-]*$/),
});

function registerTenant(t: Conformance, w: World, fields: Record<string, unknown>) {
  return t.http.post(REGISTER_TENANT, { ...w.creds(), name: t.faker.company.name(), ...fields });
}

conformance(
  ['tenants.register.path', 'tenants.register.response-shape', 'tenants.register.body-concepts'],
  'registering a tenant answers a message and a JWT',
  async (t) => {
    const w = await buildWorld(t);
    const res = await registerTenant(t, w, {
      tenantColumns: { customer_id: t.faker.string.alphanumeric(8) },
      tenantSchema: 'analytics',
      permissions: { addChart: true },
      metadata: { plan: 'pro' },
      connectionOverride: { database: 'tenant_db' },
      expiration: '2h',
    });
    const data = expectSuccess(res, Registered, 'registering a tenant');
    expect(data.message.length, 'the message is not empty').toBeGreaterThan(0);
  },
  { needs },
);

conformance(
  ['versioning.deprecated.unique-key'],
  'the deprecated unique key is still accepted',
  async (t) => {
    const w = await buildWorld(t);
    const res = await registerTenant(t, w, {
      uniqueKey: `tenant-${t.faker.string.alphanumeric(10)}`,
    });
    expectSuccess(res, Registered, 'registering with the deprecated unique key');
  },
  { needs },
);

probe(
  ['tenants.register.field-names'],
  'the register-tenant body field names',
  async (t) => {
    const w = await buildWorld(t);
    const res = await registerTenant(t, w, { tenantColumns: { region: ['eu', 'uk'] } });
    t.observe(`the reference\u2019s field names: ${statusAndCode(res)}`, res.status === 200);
  },
  { needs },
);

probe(
  ['tenants.register.split-required', 'errors.validation.status'],
  'registering a tenant with nothing to split on',
  async (t) => {
    const w = await buildWorld(t);
    const res = await registerTenant(t, w, {});
    t.observe(statusAndCode(res), statusAndCode(res) === '400 VALIDATION_ERROR');
  },
  { needs },
);

probe(
  ['tenants.register.identity'],
  'which registrations name the same tenant',
  async (t) => {
    const w = await buildWorld(t);
    const columns = { customer_id: t.faker.string.alphanumeric(8), region: 'eu' };
    const reordered = { region: 'eu', customer_id: columns.customer_id };
    const subOf = async (fields: Record<string, unknown>) => {
      const res = await registerTenant(t, w, fields);
      const token = (res.body as { data?: { token?: string } }).data?.token;
      return token === undefined ? undefined : claimsOf(token)?.sub;
    };
    const a = await subOf({ tenantColumns: columns });
    const b = await subOf({ tenantColumns: reordered });
    const c = await subOf({ tenantColumns: { ...columns, region: 'us' } });
    if (a === undefined) t.notRun('the tenant token carries no sub claim to compare');
    t.observe(
      `same columns in another order: ${a === b ? 'same' : 'different'} subject; other values: ${a === c ? 'same' : 'different'} subject`,
      a === b && a !== c,
    );
  },
  { needs },
);

probe(
  ['tenants.token.claims'],
  'what a tenant token carries',
  async (t) => {
    const w = await buildWorld(t);
    const res = await registerTenant(t, w, {
      uniqueKey: 'acme',
      permissions: { readOnly: true },
      metadata: { plan: 'pro' },
    });
    const data = expectSuccess(res, Registered, 'registering a tenant');
    const claims = claimsOf(data.token) ?? {};
    const names = Object.keys(claims).sort();
    const perm = claims['perm'] as Record<string, unknown> | undefined;
    t.observe(
      `claims: ${names.join(', ')}`,
      claims['kind'] === 'tenant' &&
        claims['org'] === w.account.organizationId &&
        perm?.['readOnly'] === true &&
        JSON.stringify(claims['meta']) === '{"plan":"pro"}',
    );
  },
  { needs },
);

conformance(
  ['errors.tenant-not-migrated'],
  'a tenant token on a v2 call before any migration is refused with 401 TENANT_NOT_MIGRATED',
  async (t) => {
    const w = await buildWorld(t);
    const res = await registerTenant(t, w, {
      uniqueKey: `tenant-${t.faker.string.alphanumeric(8)}`,
    });
    const { token } = expectSuccess(res, Registered, 'registering a tenant');
    const v2 = await t.http.get(APPLICATIONS, { headers: { authorization: `Bearer ${token}` } });
    expectError(
      v2,
      401,
      'a tenant token whose tenant no migration has mapped',
      'TENANT_NOT_MIGRATED',
    );
  },
  { needs },
);
