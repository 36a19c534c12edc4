import type { Faker } from '@faker-js/faker';
import type { ClauseId } from '../../spec/clauses/index.ts';
import { expect } from 'vitest';
import { buildWorld, registerOrganization, registerUser } from '../harness/given/accounts.ts';
import type { World } from '../harness/given/accounts.ts';
import { CLAIMS_DECISION, claimAt } from '../harness/claims.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { embedAnswer, embedToken } from '../harness/endpoints.ts';
import { storedReference } from '../harness/readback.ts';

// §2.3: an externalId is any string of at least one character the caller picks, and every call
// that takes a project organization identifier resolves it to that organization, whatever its
// form. §4.5's projectOrganizationId and §4.8's organization (under the member the profile
// names for its externalId) are those calls.
const needs = ['accounts', 'projects'] as const;
// A user's organization is read back as readback.ts storedReference can (each way relies on
// what it uses).
/** §2.3 leaves open how an identifier that could be a UUID is matched. */
const UUID_OR_EXTERNAL: ClauseId = 'orgs.identifier.resolution-order';
const EMBED_RELIES: readonly ClauseId[] = [
  CLAIMS_DECISION,
  'tokens.embed-token.body-shape',
  'tokens.embed-token.response-fields',
];

interface Form {
  readonly label: string;
  readonly make: (faker: Faker) => string;
}

/** Forms §2.3 allows (a string of length one or more) that a UUID cannot be mistaken for. */
const plainForms: readonly Form[] = [
  { label: 'capitals', make: (f) => `ACME-${f.string.alpha({ length: 8, casing: 'upper' })}` },
  { label: 'mixed case', make: (f) => `MiXeD-${f.string.alpha({ length: 8, casing: 'mixed' })}Q` },
  { label: 'digits only', make: (f) => f.string.numeric({ length: 12, allowLeadingZeros: false }) },
  { label: 'inner spaces', make: (f) => `North ${f.string.alpha(6)} Branch` },
  { label: 'unicode', make: (f) => `Zürich-Ünïcødé-株式会社-${f.string.alpha(6)}` },
  { label: 'one character', make: (f) => f.string.alpha({ length: 1, casing: 'upper' }) },
];

/** A UUID that is nobody's id, in capitals and in lower case: matched per the decision. */
const uuidForms: readonly Form[] = [
  { label: 'UUID-looking, lower case', make: (f) => f.string.uuid() },
  { label: 'UUID-looking, capitals', make: (f) => f.string.uuid().toUpperCase() },
];

/**
 * Registers an organization under an externalId of each form and asks `named` which
 * organization that externalId then names; returns a line for each form where it is another.
 */
async function namedUnder(
  t: Conformance,
  w: World,
  forms: readonly Form[],
  says: string,
  named: (ext: string, org: { projectOrganizationId: string }, label: string) => Promise<unknown>,
): Promise<string[]> {
  const wrong: string[] = [];
  for (const form of forms) {
    const ext = form.make(t.faker);
    const org = await registerOrganization(t, w, { externalId: ext });
    const found = await named(ext, org, form.label);
    if (found !== org.projectOrganizationId)
      wrong.push(
        `${form.label} ${JSON.stringify(ext)}: ${says} ${JSON.stringify(found)}, ` +
          `organization ${org.projectOrganizationId}`,
      );
  }
  return wrong;
}

/** §4.5: a user registered under each form lands in the organization registered with it. */
function registersUnder(forms: readonly Form[], title: string, relies: readonly ClauseId[]) {
  conformance(
    [
      'users.register.organization-by-external-id',
      'resources.organization.external-id-resolves',
      'resources.organization.external-id-optional',
    ],
    title,
    async (t) => {
      const w = await buildWorld(t);
      const wrong = await namedUnder(t, w, forms, 'user in', async (ext) => {
        const { userId, body } = await registerUser(t, w, { projectOrganizationId: ext });
        return storedReference(t, w, { userId, name: body.name }, 'projectOrganizationId');
      });
      expect(wrong, 'each externalId names the organization registered with it').toEqual([]);
    },
    { needs, relies, timeout: 60_000 },
  );
}

/** §4.8: an embed-token naming each form by externalId acts in the organization registered. */
function embedsUnder(forms: readonly Form[], title: string, relies: readonly ClauseId[]) {
  conformance(
    [
      'resources.organization.external-id-resolves',
      'security.tokens.embed-token-named-organization',
    ],
    title,
    async (t) => {
      const w = await buildWorld(t);
      const wrong = await namedUnder(t, w, forms, 'token names', async (ext, org, label) => {
        const { userId } = await registerUser(t, w, {
          projectOrganizationId: org.projectOrganizationId,
        });
        const token = await embedFor(t, w, ext, userId, label);
        return claimAt(t, token, 'projectOrganization');
      });
      expect(wrong, 'each token names the organization registered with its externalId').toEqual([]);
    },
    { needs, relies: [...EMBED_RELIES, ...relies], timeout: 60_000 },
  );
}

async function embedFor(t: Conformance, w: World, ext: string, userId: string, label: string) {
  const req = embedToken(t, w, ext, { userId });
  const res = await t.http.post(req.path, { ...w.creds(), ...req.fields });
  return embedAnswer(t, res, 'token', `embed-token under an externalId in ${label}`);
}

registersUnder(
  plainForms,
  'register-user resolves externalIds of any form (capitals, digits, spaces, unicode) as registered',
  [],
);
registersUnder(
  uuidForms,
  'register-user resolves a UUID-looking externalId that is no organization\u2019s id',
  [UUID_OR_EXTERNAL],
);
embedsUnder(
  plainForms,
  'embed-token names the organization registered under externalIds of any form',
  [],
);
embedsUnder(
  uuidForms,
  'embed-token names the organization registered under a UUID-looking externalId',
  [UUID_OR_EXTERNAL],
);
