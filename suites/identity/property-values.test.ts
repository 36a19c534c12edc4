import { expect } from 'vitest';
import {
  buildWorld,
  registerOrganization,
  registerUser,
  type World,
} from '../harness/given/accounts.ts';
import { CLAIMS_DECISION, claimAt } from '../harness/claims.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { expectSuccess } from '../harness/expect.ts';
import { USER_TOKEN } from '../harness/paths.ts';
import { Token } from '../../spec/schemas/token.ts';
import { updateUser, updateUserShowing } from '../harness/readback.ts';

// §2.4: the properties row-level security reads as {{user.<key>}} are kept as they are sent,
// whatever the value's class: 0, false and the empty string are values, not "unset". They are
// read back from a fresh token (§4.7: made from the stored user; claims at the profile's paths,
// so these tests rely on tokens.claims) and from the user update answer where the target shows
// the stored user. A null value reads back as null or as no key; which one is left open.
const needs = ['accounts', 'projects'] as const;
const SHOWN = 'users.update.response-fields';

/** Values of every class a property may hold, the falsy ones first. */
function everyClass(t: Conformance): Record<string, unknown> {
  return {
    zero: 0,
    no: false,
    empty: '',
    negative: -t.faker.number.int({ min: 1, max: 99 }),
    fraction: 0.25,
    count: t.faker.number.int({ min: 1, max: 9999 }),
    yes: true,
    text: t.faker.word.noun(),
  };
}

/** The properties a fresh token of the user carries. */
async function tokenProperties(t: Conformance, w: World, userId: string, what: string) {
  const res = await t.http.post(USER_TOKEN, { ...w.creds(), userId });
  const { token } = expectSuccess(res, Token.pick({ token: true }), what);
  const props = claimAt(t, token, 'properties');
  expect(typeof props, `${what}: the properties claim is an object`).toBe('object');
  return (props ?? {}) as Record<string, unknown>;
}

/**
 * A fresh token of the user carries `props` as sent, and the property `unset` (sent as null)
 * as null or as no key.
 */
async function expectTokenCarries(
  t: Conformance,
  w: World,
  userId: string,
  props: Record<string, unknown>,
  what: { readonly token: string; readonly carries: string },
) {
  const { unset, ...rest } = await tokenProperties(t, w, userId, what.token);
  expect(rest, what.carries).toEqual(props);
  expect(
    unset === null || unset === undefined,
    `a null property reads back as null or no key, not ${JSON.stringify(unset)}`,
  ).toBe(true);
}

conformance(
  ['resources.user.properties-rls', 'tokens.user-token.from-stored-user'],
  'a fresh token carries registered properties of every class as sent: 0, false, the empty string, numbers, booleans',
  async (t) => {
    const w = await buildWorld(t);
    const props = everyClass(t);
    const org = await registerOrganization(t, w);
    const { userId } = await registerUser(t, w, {
      projectOrganizationId: org.projectOrganizationId,
      properties: { ...props, unset: null },
    });
    await expectTokenCarries(t, w, userId, props, {
      token: 'the first token',
      carries: 'the token carries every value as registered',
    });
  },
  { needs, relies: [CLAIMS_DECISION] },
);

conformance(
  [
    'resources.user.properties-rls',
    'users.update.properties-replace',
    'tokens.user-token.from-stored-user',
  ],
  'after an update to 0, false and the empty string, the next token carries those values',
  async (t) => {
    const w = await buildWorld(t);
    const { userId, body } = await registerUser(t, w, {
      properties: { zero: 5, no: true, empty: 'full', text: 'kept' },
    });
    const props = everyClass(t);
    await updateUser(t, w, userId, { name: body.name, properties: { ...props, unset: null } });
    await expectTokenCarries(t, w, userId, props, {
      token: 'the next token',
      carries: 'the next token carries the replaced values as sent',
    });
  },
  { needs, relies: [CLAIMS_DECISION] },
);

conformance(
  ['resources.user.properties-rls', 'resources.user.fields'],
  'the stored user shows registered properties of every class as sent',
  async (t) => {
    const w = await buildWorld(t);
    const props = everyClass(t);
    const { userId, body } = await registerUser(t, w, { properties: props });
    // A name-only update changes nothing and shows the stored user (decision of §4.6).
    const data = await updateUserShowing(t, w, userId, { name: body.name }, 'properties');
    expect(data['properties'], 'the stored properties').toEqual(props);
  },
  { needs, relies: [SHOWN] },
);
