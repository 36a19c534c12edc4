import { describe, expect, it } from 'vitest';
import type { ChatBody } from '../../spec/schemas/chat.ts';
import { DEFAULT_SETTINGS, type Settings } from '../settings.ts';
import { CHAT_RATE_LIMIT, takeChatSlot, type RateWindow } from './rate.ts';
import { answeringVersion, readChatBody } from './request.ts';

const AGENT = '8d3c5a8e-1111-4222-8333-944455556666';
const OTHER = '0b7a3c1e-2222-4333-8444-955566667777';
const body = (over: Partial<ChatBody['payload']> = {}, messages?: ChatBody['messages']) => ({
  messages: messages ?? [{ role: 'user' as const, content: 'total amount by product' }],
  payload: { agent_id: AGENT, ...over },
});
const answer: Settings = { ...DEFAULT_SETTINGS, chatRequests: 'answer' };
const issuePath = (r: ReturnType<typeof readChatBody>) =>
  r.kind === 'refused'
    ? (r.error.details?.['issues'] as { path: unknown }[] | undefined)?.[0]?.path
    : undefined;

describe('a chat body the endpoint cannot take as asked', () => {
  it('is refused by the decisions, each on its member', () => {
    expect(issuePath(readChatBody(AGENT, body({ agent_id: OTHER }), DEFAULT_SETTINGS))).toEqual([
      'body',
      'payload',
      'agent_id',
    ]);
    expect(issuePath(readChatBody(AGENT, body({}, []), DEFAULT_SETTINGS))).toEqual([
      'body',
      'messages',
    ]);
    for (const v of [0, -1, 1.5])
      expect(issuePath(readChatBody(AGENT, body({ agent_version: v }), DEFAULT_SETTINGS))).toEqual([
        'body',
        'payload',
        'agent_version',
      ]);
    expect(readChatBody(AGENT, body({ agent_version: 2 }), DEFAULT_SETTINGS)).toEqual({
      kind: 'question',
      question: 'total amount by product',
      pinned: 2,
    });
  });
  it("is answered by a server that answers: the path's agent, no question, no pin", () => {
    expect(readChatBody(AGENT, body({ agent_id: OTHER }), answer).kind).toBe('question');
    expect(
      readChatBody(AGENT, body({}, [{ role: 'assistant', content: 'hello' }]), answer),
    ).toEqual({ kind: 'no-question', pinned: undefined });
    for (const v of [0, -1, 1.5])
      expect(readChatBody(AGENT, body({ agent_version: v }), answer)).toMatchObject({
        pinned: undefined,
      });
  });
});

describe('the answering version', () => {
  const versions = [1, 2, 3];
  it('is the pin, else the latest; a version the agent lacks is a 404 by the decision', () => {
    expect(answeringVersion(versions, 1, undefined, DEFAULT_SETTINGS)).toBe(1);
    expect(answeringVersion(versions, undefined, 1, DEFAULT_SETTINGS)).toBe(3);
    expect(answeringVersion(versions, 7, undefined, DEFAULT_SETTINGS)).toMatchObject({
      code: 'NOT_FOUND',
      details: { resource: 'agentVersion' },
    });
    expect(answeringVersion(versions, 7, undefined, answer)).toBe(3);
  });
  it("carries the thread's last pin when the server carries it", () => {
    const carried: Settings = { ...DEFAULT_SETTINGS, threadVersion: 'carried' };
    expect(answeringVersion(versions, undefined, 1, carried)).toBe(1);
    expect(answeringVersion(versions, 2, 1, carried)).toBe(2);
    expect(answeringVersion(versions, undefined, undefined, carried)).toBe(3);
  });
});

describe('the chat rate window', () => {
  const fill = (settings: Settings, at: number) => {
    const rates = new Map<string, RateWindow>();
    for (let i = 0; i < CHAT_RATE_LIMIT; i++)
      expect(takeChatSlot(rates, 'k', at, settings)).toBeUndefined();
    return rates;
  };
  it('fixed: counts again at the next clock minute', () => {
    const rates = fill(DEFAULT_SETTINGS, 30_000);
    expect(takeChatSlot(rates, 'k', 30_000, DEFAULT_SETTINGS)?.details).toMatchObject({
      retryAfter: 30,
      window: 'fixed',
    });
    expect(takeChatSlot(rates, 'k', 61_000, DEFAULT_SETTINGS)).toBeUndefined();
  });
  it('sliding: counts the minute before each request', () => {
    const sliding: Settings = { ...DEFAULT_SETTINGS, chatWindow: 'sliding' };
    const rates = fill(sliding, 30_000);
    expect(takeChatSlot(rates, 'k', 61_000, sliding)?.details).toMatchObject({
      retryAfter: 29,
      window: 'sliding',
    });
    expect(takeChatSlot(rates, 'k', 90_000, sliding)).toBeUndefined();
  });
});
