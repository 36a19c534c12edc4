import { describe, expect, it } from 'vitest';
import { behaviourIds, chosenIds, parseVary } from './choice.ts';

describe('latitude choice', () => {
  it('reads agent=second as the chat.second-agent entry, alone or beside ids', () => {
    expect(parseVary('agent=second')).toEqual(['chat.second-agent']);
    expect(parseVary('tokens.hs256, agent=second')).toEqual(['tokens.hs256', 'chat.second-agent']);
    expect(behaviourIds(chosenIds(parseVary('agent=second')))).toEqual(['chat.second-agent']);
  });

  it('refuses an agent it does not have, naming the aliases', () => {
    expect(() => parseVary('agent=third')).toThrow(/agent=third.*agent=second/s);
  });

  it('takes the second agent in `all`', () => {
    expect(chosenIds('all')).toContain('chat.second-agent');
  });

  it('sets an entry aside when a chosen one excludes it (one open point, two answers)', () => {
    expect(chosenIds('all')).toContain('claims.permissions-array');
    expect(chosenIds('all')).not.toContain('claims.permissions-string');
    expect(chosenIds(['claims.permissions-string'])).toEqual(['claims.permissions-string']);
    for (let seed = 0; seed < 40; seed++) {
      const ids = chosenIds({ random: seed });
      expect(
        ids.includes('claims.permissions-array') && ids.includes('claims.permissions-string'),
      ).toBe(false);
    }
  });
});
