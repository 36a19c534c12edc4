import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clauseById } from './clauses/index.ts';
import { TargetProfile } from './profile.ts';
import { RELIANCE, unstatedReliances } from './reliance.ts';

const reference = TargetProfile.parse(
  JSON.parse(readFileSync(new URL('../fixtures/profiles/reference.json', import.meta.url), 'utf8')),
);

describe('the reliance table', () => {
  it('maps only unspecified clauses', () => {
    for (const id of Object.keys(RELIANCE))
      expect(clauseById.get(id as never)?.level, id).toBe('unspecified');
  });

  it("is stated whole by the reference's own profile", () => {
    expect(unstatedReliances(reference, Object.keys(RELIANCE))).toEqual([]);
  });

  it('names what a profile leaves unstated, entry by entry', () => {
    const bare = TargetProfile.parse({ serves: ['identity'] });
    expect(
      unstatedReliances(bare, ['tokens.claims', 'users.update.response-fields', 'nope.nope']),
    ).toEqual([
      'tokens.claims (shapes.tokenClaims)',
      'users.update.response-fields (follows)',
      'nope.nope (no profile entry states it)',
    ]);
    const stated = TargetProfile.parse({
      serves: ['identity'],
      shapes: { tokenClaims: { subject: 'sub' } },
      follows: ['users.update.response-fields'],
    });
    expect(unstatedReliances(stated, ['tokens.claims', 'users.update.response-fields'])).toEqual(
      [],
    );
  });

  it('reads a nested entry, so that stating its parent alone is not enough', () => {
    const parent = TargetProfile.parse({ serves: ['v2'], shapes: { endpoints: {} } });
    expect(unstatedReliances(parent, ['v2.dashboards.lookup-path'])).toEqual([
      'v2.dashboards.lookup-path (shapes.endpoints.lookUpDashboard)',
    ]);
  });

  it('takes the v2 key carrier as followed, or as a header the profile states instead', () => {
    const carrier = ['v2.credentials.api-key-carrier'];
    const bare = TargetProfile.parse({ serves: ['v2'] });
    expect(unstatedReliances(bare, carrier)).toEqual(['v2.credentials.api-key-carrier (follows)']);
    const header = TargetProfile.parse({
      serves: ['v2'],
      shapes: { v2ApiKey: { header: 'x-key' } },
    });
    expect(unstatedReliances(header, carrier)).toEqual([]);
    const followed = TargetProfile.parse({ serves: ['v2'], follows: carrier });
    expect(unstatedReliances(followed, carrier)).toEqual([]);
  });
});
