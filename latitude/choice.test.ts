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
});
