import { describe, expect, it } from 'vitest';
import { externalId, organizationName, personName, roleName, seededFaker } from './builders.ts';

// The builders whose names collide by chance within a few thousand draws (an externalId's 12
// characters do not, so no test of its uniqueness could fail).
const builders = { organizationName, personName, roleName };

describe('the seeded builders', () => {
  it.each(Object.entries(builders))('%s never gives one faker a name twice', (_, build) => {
    const faker = seededFaker(7);
    // Far more draws than a role's adjective x job type space keeps apart by chance.
    const names = Array.from({ length: 3_000 }, () => build(faker));
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives the same names for the same seed, whatever the builder', () => {
    const draw = () => {
      const faker = seededFaker(42);
      return Array.from({ length: 400 }, (_, i) =>
        [organizationName, externalId, personName, roleName][i % 4]?.(faker),
      );
    };
    expect(draw()).toEqual(draw());
  });

  it('keeps apart only what one faker gave: another faker may give the same name', () => {
    expect(roleName(seededFaker(3))).toBe(roleName(seededFaker(3)));
  });
});
