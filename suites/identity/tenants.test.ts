import { expect } from 'vitest';
import { RegisterTenantResponse } from '../../spec/schemas/tenant.ts';
import { expirationSeconds } from '../../fixtures/oracles/index.ts';
import { buildWorld, type World } from '../harness/given/accounts.ts';
import { conformance, probe, type Conformance } from '../harness/conformance.ts';
import { inCarrier, send } from '../harness/credential-table.ts';
import { registerTenant as tenantRequest, type TenantConcept } from '../harness/endpoints.ts';
import { claimsOf } from '../harness/jwt.ts';
import { APPLICATIONS } from '../harness/paths.ts';
import { expectError, expectSuccess, statusAndCode } from '../harness/expect.ts';

// §4.9: the v1 tenant flow. Its body field names are not shown, so every request here names
// its concepts as the target's profile says (shapes.registerTenant), and every test that
// sends one relies on that decision (clause tenants.register.field-names).
const FIELD_NAMES = 'tenants.register.field-names';
const options = {
  needs: ['accounts', 'projects'] as const,
  parts: ['tenant-flow'] as const,
  relies: [FIELD_NAMES] as const,
};
const Registered = RegisterTenantResponse.shape.data;
const JWT = /^[\w-]+\.[\w-]+\.[\w-]*$/;

function registerTenant(
  t: Conformance,
  w: World,
  concepts: Readonly<Partial<Record<TenantConcept, unknown>>>,
) {
  const req = tenantRequest(t, concepts);
  return send(t, req, inCarrier(req.endpoint, w.creds()));
}

conformance(
  ['tenants.register.path', 'tenants.register.response-shape'],
  'registering a tenant answers a message and a JWT',
  async (t) => {
    const w = await buildWorld(t);
    const res = await registerTenant(t, w, {
      columns: { customer_id: t.faker.string.alphanumeric(8) },
    });
    const data = expectSuccess(res, Registered, 'registering a tenant');
    expect(data.token, 'the token is a JWT').toMatch(JWT);
  },
  options,
);

conformance(
  ['tenants.register.body-concepts'],
  'a body carrying every concept of §4.9 is accepted, and its expiration sets the token\u2019s lifetime',
  async (t) => {
    const w = await buildWorld(t);
    // §4.9 leaves the connection override's form wholly open: it goes along in the target's own
    // form where the profile gives one (shapes.registerTenant.examples), else it stays out.
    const override = t.profile.shapes.registerTenant?.examples?.connectionOverride;
    const res = await registerTenant(t, w, {
      columns: { customer_id: t.faker.string.alphanumeric(8) },
      schema: 'analytics',
      permissions: { addChart: true },
      metadata: { plan: 'pro' },
      ...(override === undefined ? {} : { connectionOverride: override }),
      expiration: '2h',
    });
    const { token } = expectSuccess(res, Registered, 'registering a tenant with every concept');
    // The lifetime is read from the JWT's registered claims, whose presence §5 rule 8 leaves open,
    // and whose exp names the end of the lifetime only by tokens.jwt.exp-matches-expires-at.
    const claims = claimsOf(token) ?? {};
    const { exp, iat } = claims;
    if (typeof exp !== 'number' || typeof iat !== 'number')
      return t.notRun('the tenant token carries no exp and iat to read its lifetime from');
    expect(exp - iat, 'the token lives for the expiration sent').toBe(expirationSeconds('2h'));
  },
  { ...options, relies: [FIELD_NAMES, 'tokens.claims', 'tokens.jwt.exp-matches-expires-at'] },
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
  options,
);

probe(
  [FIELD_NAMES],
  'the register-tenant body field names',
  async (t) => {
    const w = await buildWorld(t);
    const res = await registerTenant(t, w, { columns: { region: ['eu', 'uk'] } });
    t.observe(`the profile\u2019s field names: ${statusAndCode(res)}`, res.status === 200);
  },
  options,
);

probe(
  ['tenants.register.split-required', 'errors.validation.status'],
  'registering a tenant with nothing to split on',
  async (t) => {
    const w = await buildWorld(t);
    const res = await registerTenant(t, w, {});
    t.observe(statusAndCode(res), statusAndCode(res) === '400 VALIDATION_ERROR');
  },
  options,
);

probe(
  ['tenants.register.identity'],
  'which registrations name the same tenant',
  async (t) => {
    const w = await buildWorld(t);
    const columns = { customer_id: t.faker.string.alphanumeric(8), region: 'eu' };
    const reordered = { region: 'eu', customer_id: columns.customer_id };
    const subOf = async (value: Record<string, unknown>) => {
      const res = await registerTenant(t, w, { columns: value });
      const token = (res.body as { data?: { token?: string } }).data?.token;
      return token === undefined ? undefined : claimsOf(token)?.sub;
    };
    const a = await subOf(columns);
    const b = await subOf(reordered);
    const c = await subOf({ ...columns, region: 'us' });
    if (a === undefined) t.notRun('the tenant token carries no sub claim to compare');
    t.observe(
      `same columns in another order: ${a === b ? 'same' : 'different'} subject; other values: ${a === c ? 'same' : 'different'} subject`,
      a === b && a !== c,
    );
  },
  { ...options, relies: [FIELD_NAMES, 'tokens.claims'] },
);

probe(
  ['tenants.token.claims'],
  'what a tenant token carries',
  async (t) => {
    const w = await buildWorld(t);
    // The name §4.9 lists goes along where the profile names its field; the token carries it.
    const name = t.profile.shapes.registerTenant?.name === undefined ? undefined : 'Acme Analytics';
    const res = await registerTenant(t, w, {
      uniqueKey: 'acme',
      permissions: { readOnly: true },
      metadata: { plan: 'pro' },
      ...(name === undefined ? {} : { name }),
    });
    const data = expectSuccess(res, Registered, 'registering a tenant');
    const claims = claimsOf(data.token) ?? {};
    const names = Object.keys(claims).sort();
    const perm = claims['perm'] as Record<string, unknown> | undefined;
    t.observe(
      `claims: ${names.join(', ')}; name ${JSON.stringify(claims['name'])}; data.message ${JSON.stringify(data.message.slice(0, 120))}`,
      (name === undefined || claims['name'] === name) &&
        claims['kind'] === 'tenant' &&
        claims['org'] === w.account.organizationId &&
        perm?.['readOnly'] === true &&
        JSON.stringify(claims['meta']) === '{"plan":"pro"}' &&
        // The decision's "short sentence": some words, not an empty string.
        /\w/.test(data.message) &&
        data.message.length <= 200,
    );
  },
  options,
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
  { ...options, parts: ['tenant-flow', 'v2'] },
);
