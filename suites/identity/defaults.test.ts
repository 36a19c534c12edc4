import { expect } from 'vitest';
import { RegisterUserResponse } from '../../spec/schemas/user.ts';
import { personName } from '../harness/builders.ts';
import { buildWorld, registerWithoutUserId, userToken } from '../harness/given/accounts.ts';
import { conformance, type Conformance } from '../harness/conformance.ts';
import { describeAnswer, expectSuccess } from '../harness/expect.ts';
import { userPath } from '../harness/paths.ts';

// §2.4 and §4.5: a user registered without a userId gets one the service makes up. The answer
// naming an id is not enough: the id must be the user's, so the calls that take a user id
// (§4.7 user-token, §4.6 update) find the user under it.
const needs = ['accounts', 'projects'] as const;
const Registered = RegisterUserResponse.shape.data;

/** A world, and the userId the service made up for a user registered there without one. */
async function generatedUser(t: Conformance) {
  const w = await buildWorld(t);
  const res = await registerWithoutUserId(t, w);
  const { userId } = expectSuccess(res, Registered, 'registering without a userId');
  return { w, userId };
}

conformance(
  ['users.register.user-id-generated', 'resources.user.id-supplied-or-generated'],
  'the userId made up at registration is the id the user-token call finds the user under',
  async (t) => {
    const { w, userId } = await generatedUser(t);
    const token = await userToken(t, w, userId);
    expect(token.status, `user-token for the generated userId: ${describeAnswer(token)}`).toBe(200);
  },
  { needs },
);

conformance(
  ['users.register.user-id-generated', 'resources.user.id-supplied-or-generated'],
  'the userId made up at registration is the id the user update finds the user under',
  async (t) => {
    const { w, userId } = await generatedUser(t);
    const update = await t.http.put(userPath(w, userId), {
      ...w.creds(),
      name: personName(t.faker),
    });
    expect(
      update.status >= 200 && update.status < 300,
      `updating the user under the generated userId: ${describeAnswer(update)}`,
    ).toBe(true);
  },
  { needs },
);
