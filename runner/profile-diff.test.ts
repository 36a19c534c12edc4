import { describe, expect, it } from 'vitest';
import { diffProfiles, renderDiff } from './profile-diff.ts';

describe('diffProfiles', () => {
  const stated = {
    serves: ['identity', 'v2'] as const,
    shapes: {
      tokenClaims: { subject: 'sub', role: 'rol' },
      authorizationHeader: 'bearer' as const,
      jwks: '/keys',
    },
    follows: ['tokens.embed-token.creates'],
    description: 'mine',
  };
  const observed = {
    serves: ['identity', 'chat'] as const,
    shapes: {
      tokenClaims: { subject: 'sub', role: 'ctx.role', permissions: 'perm' },
      authorizationHeader: 'both' as const,
    },
    follows: ['v2.credentials.api-key-carrier'],
  };
  const rows = diffProfiles(
    { ...stated, serves: [...stated.serves] },
    { ...observed, serves: [...observed.serves] },
  );
  const verdict = (at: string) => rows.find((r) => r.at === at)?.verdict;

  it('compares parts and follows entry by entry', () => {
    expect(verdict('serves.identity')).toBe('same');
    expect(verdict('serves.v2')).toBe('not-observed');
    expect(verdict('serves.chat')).toBe('unstated');
    expect(verdict('follows.tokens.embed-token.creates')).toBe('not-observed');
    expect(verdict('follows.v2.credentials.api-key-carrier')).toBe('unstated');
  });

  it('compares shapes leaf by leaf, and a target taking both header forms covers either', () => {
    expect(verdict('shapes.tokenClaims.subject')).toBe('same');
    expect(verdict('shapes.tokenClaims.role')).toBe('differs');
    expect(verdict('shapes.tokenClaims.permissions')).toBe('unstated');
    expect(verdict('shapes.jwks')).toBe('not-observed');
    expect(verdict('shapes.authorizationHeader')).toBe('same');
    expect(rows.some((r) => r.at.startsWith('description'))).toBe(false);
  });

  it('renders differences and additions one a line, the unobserved by section', () => {
    const text = renderDiff(rows).join('\n');
    expect(text).toContain(
      '≠ shapes.tokenClaims.role: the profile says rol, discover found ctx.role',
    );
    expect(text).toContain('+ shapes.tokenClaims.permissions: discover found perm');
    expect(text).toContain('+ serves.chat: discover saw it');
    expect(text).toMatch(/stated but not observed .*serves, follows, shapes\.jwks/);
  });
});
