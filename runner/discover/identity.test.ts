import { describe, expect, it } from 'vitest';
import { parseVary } from '../../latitude/choice.ts';
import { RENAMED } from '../../latitude/requests.ts';
import { TargetProfile } from '../../spec/profile.ts';
import type { Reply } from '../../suites/harness/http.ts';
import { discoverSpec } from './index.ts';
import { ownPath } from './identity.ts';
import { conceptOf, namesMentioned, spellings } from './tenant.ts';

// What discover reads off the identity calls, the embed-token and register-tenant members and
// the identity decisions, checked against targets whose choices are known: the reference as it
// is (its decisions tenants.register.field-names and tokens.embed-token.body-shape name the
// members), and the reference behind the latitude proxy taking other names and other
// behaviours (the entries' descriptions say which). Never read from a profile file.

const refusal = (body: unknown): Reply => ({
  status: 400,
  headers: {},
  body,
  text: JSON.stringify(body),
});

/**
 * The identity decisions discover proposes where the reference is seen following them, and
 * must not propose where a latitude entry breaks them.
 */
const IDENTITY_FOLLOWS = [
  'tokens.embed-token.creates',
  'tokens.embed-token.upserts',
  'orgs.register.external-id-upsert',
  'orgs.identifier.resolution-order',
  'users.update.absent-fields-unchanged',
  'users.update.response-fields',
  'tokens.jwt.exp-matches-expires-at',
  'auth.org-bound.organization-id-shape',
] as const;

describe('candidate member names', () => {
  it('spells a name in camelCase, snake_case and kebab-case', () => {
    expect(spellings(['tenant', 'columns'])).toEqual([
      'tenantColumns',
      'tenant_columns',
      'tenant-columns',
    ]);
    expect(spellings(['name'])).toEqual(['name']);
  });
  it('takes the member names a refusal mentions, and none from a success', () => {
    const res = refusal({
      status: 'error',
      error: { message: 'give splitColumns (or the deprecated unique_key)', details: {} },
    });
    expect(namesMentioned(res)).toEqual(expect.arrayContaining(['splitColumns', 'unique_key']));
    expect(namesMentioned({ ...res, status: 200 })).toEqual([]);
  });
  it('gives a mentioned name to the concept it shares most words with', () => {
    expect(conceptOf('splitColumns')).toBe('columns');
    expect(conceptOf('unique_key')).toBe('uniqueKey');
    expect(conceptOf('tokenLifetime')).toBe('expiration');
    expect(conceptOf('apiKey')).toBe('uniqueKey');
    expect(conceptOf('zzz')).toBeUndefined();
  });
});

describe('where a key set is looked for', () => {
  it('takes a URL on the target as its path from the base address, and nothing elsewhere', () => {
    expect(ownPath('http://a.test/.well-known/jwks.json', 'http://a.test')).toBe(
      '/.well-known/jwks.json',
    );
    expect(ownPath('http://a.test/api/keys?v=2', 'http://a.test/api/')).toBe('/keys?v=2');
    expect(ownPath('/jwks', 'http://a.test')).toBe('/jwks');
    expect(ownPath('https://idp.example/jwks', 'http://a.test')).toBeUndefined();
    expect(ownPath('::', 'not a url')).toBeUndefined();
  });
});

describe('discover: identity, embed-token and register-tenant', () => {
  const watch = (vary?: string) =>
    discoverSpec(
      { checkDecisions: false, ...(vary === undefined ? {} : { latitude: parseVary(vary) }) },
      5,
    );

  it('names the reference’s members and proposes the identity decisions it follows', async () => {
    const found = await watch();
    expect(() => TargetProfile.parse(found.profile)).not.toThrow();
    expect(found.profile.shapes.registerTenant).toEqual({
      name: 'name',
      columns: 'tenantColumns',
      schema: 'tenantSchema',
      uniqueKey: 'uniqueKey',
      permissions: 'permissions',
      metadata: 'metadata',
      expiration: 'expiration',
    });
    expect(found.profile.shapes.tenantIdentity).toBe('columns');
    expect(found.profile.shapes.embedToken).toMatchObject({
      organization: { externalId: 'externalId', name: 'name' },
      user: { id: 'id', name: 'name', properties: 'properties' },
    });
    expect(found.profile.shapes.jwks).toBeDefined();
    expect(found.profile.follows).toEqual(expect.arrayContaining([...IDENTITY_FOLLOWS]));
    const review = found.review.join('\n');
    for (const entry of found.profile.follows ?? []) expect(review).toContain(`follows ${entry}`);
    expect(review).toMatch(/shapes\.registerTenant/);
    expect(review).toMatch(/shapes\.embedToken/);
  }, 90_000);

  it('finds members named otherwise, and proposes no decision the target is seen to break', async () => {
    const found = await watch(
      [
        'requests.renamed',
        'tokens.embed-known-only',
        'tokens.embed-creates-only',
        'tenant.identity-name',
        'tenants.split-optional',
        'organization-id.validated',
        'tokens.through-expires-at',
        'orgs.external-id-other',
        'register.ids-other',
        'users.update.other-reading',
        'members.extra',
      ].join(','),
    );
    expect(() => TargetProfile.parse(found.profile)).not.toThrow();
    const renamed = RENAMED.registerTenant;
    expect(found.profile.shapes.registerTenant).toEqual({
      name: renamed.name,
      columns: renamed.columns,
      schema: renamed.schema,
      uniqueKey: renamed.uniqueKey,
      permissions: renamed.permissions,
      metadata: renamed.metadata,
      expiration: renamed.expiration,
    });
    // tenant.identity-name: the display name counts in a tenant's identity.
    expect(found.profile.shapes.tenantIdentity).toBe('columns-and-name');
    expect(found.profile.shapes.embedToken).toMatchObject({
      organization: { externalId: RENAMED.embedToken.organization.externalId },
      user: { id: RENAMED.embedToken.user.id, name: RENAMED.embedToken.user.name },
    });
    for (const broken of IDENTITY_FOLLOWS)
      expect(found.profile.follows ?? []).not.toContain(broken);
  }, 90_000);
});
