import { describe, expect, it } from 'vitest';
import { hookAccount, postData, referenceForTests } from '../test-client.ts';

// Who opens a hub page (§4.17, §5 rule 6): a project user's token whose user still exists.
// The hooks contract's reset removes the users of an account and keeps its keys, so the
// tokens issued before it are still signed right; they are refused like any invalid token.

const INVALID = 'Invalid or missing token.';
const NOBODY = '00000000-0000-4000-8000-000000000000';

describe('hub viewer', () => {
  const ref = referenceForTests({ hooks: true, seed: 1312 });

  const post = postData;

  it("refuses a token whose user the account's reset removed, as an invalid token", async () => {
    const { org, userToken } = await hookAccount(ref);
    const token = await userToken();
    const open = async () => {
      const res = await fetch(
        `${ref.running.hubUrl}/share/dashboard/${NOBODY}?jwt=${String(token)}`,
      );
      return {
        status: res.status,
        alert: /<p role="alert">(.*?)<\/p>/.exec(await res.text())?.[1],
      };
    };
    // Before the reset the token opens pages: the id is what is not found.
    expect((await open()).status).toBe(404);
    await post(`${ref.hooks}/accounts/${org}/reset`, {});
    expect(await open()).toEqual({ status: 401, alert: INVALID });
  });
});
