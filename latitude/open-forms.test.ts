import { describe, expect, it } from 'vitest';
import { readStreamText } from '../suites/harness/sse.ts';
import {
  errorsMembersExtra,
  headersExtra,
  membersReordered,
  messagesReworded,
  sseBareLines,
  sseCrlf,
} from './open-forms.ts';
import { answerOf, bodyOf, fixedRandom } from './test-answer.ts';
import type { Answer } from './transform.ts';

const EVENTS = [
  { type: 'text-start' },
  { type: 'text-delta', payload: { text: 'Héllo ' } },
  { type: 'text-delta', payload: { text: 'world' } },
  { type: 'text-end' },
];
const CHAT = '/v1/api/project-agents/6f1c2a3b-0000-4000-8000-000000000001/chat';

function chat(text: string, pieces?: number): Answer {
  const answer = answerOf('POST', CHAT, 200, text, { 'content-type': 'text/event-stream' });
  if (pieces === undefined) return answer;
  const size = Math.ceil(answer.body.length / pieces);
  const cut = Array.from({ length: pieces }, (_v, i) =>
    answer.body.subarray(i * size, (i + 1) * size),
  );
  return { ...answer, pieces: cut };
}

const sse = EVENTS.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('');
const eventsOf = (a: Answer | undefined) =>
  readStreamText(a?.body.toString('utf8') ?? '').events.map((e) => e.json);

describe('sse.bare-lines', () => {
  it('drops every blank line, keeps every event line, and keeps an earlier cut into pieces', () => {
    const out = sseBareLines.apply(chat(`: hello\n${sse}`, 3), fixedRandom());
    const text = out?.body.toString('utf8') ?? '';
    expect(text).not.toMatch(/\n\n/);
    expect(text.startsWith(': hello\n')).toBe(true);
    expect(eventsOf(out)).toEqual(EVENTS);
    expect(out?.pieces).toHaveLength(3);
    expect(Buffer.concat([...(out?.pieces ?? [])]).equals(out?.body ?? Buffer.alloc(0))).toBe(true);
  });

  it('leaves answers other than the chat stream alone', () => {
    expect(sseBareLines.apply(answerOf('GET', '/v1/x', 200, { a: 1 }), fixedRandom())).toBe(
      undefined,
    );
  });
});

describe('sse.crlf', () => {
  it('ends every line with CR LF and keeps the events', () => {
    const out = sseCrlf.apply(chat(sse), fixedRandom());
    const text = out?.body.toString('utf8') ?? '';
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    expect(text.endsWith('\r\n\r\n')).toBe(true);
    expect(eventsOf(out)).toEqual(EVENTS);
  });
});

describe('members.reordered', () => {
  it('writes every object member in reverse at every depth, the same JSON value', () => {
    const body = { status: 'success', data: { b: 1, a: { y: [{ q: 1, p: 2 }], x: 2 } } };
    const out = bodyOf(membersReordered.apply(answerOf('GET', '/v1/x', 200, body), fixedRandom()));
    expect(out).toEqual(body);
    expect(JSON.stringify(out)).toBe(
      '{"data":{"a":{"x":2,"y":[{"p":2,"q":1}]},"b":1},"status":"success"}',
    );
  });
});

describe('messages.reworded', () => {
  it("words a success answer's message otherwise and keeps its other members", () => {
    const body = { status: 'success', data: { message: 'User registered', userId: 'u' } };
    const out = bodyOf(
      messagesReworded.apply(answerOf('POST', '/v1/x', 200, body), fixedRandom()),
    ) as { data: { message: string; userId: string } };
    expect(out.data.userId).toBe('u');
    expect(out.data.message).not.toBe('User registered');
    expect(typeof out.data.message).toBe('string');
  });

  it('leaves answers without a message alone', () => {
    const body = { status: 'success', data: { id: 'x' } };
    expect(messagesReworded.apply(answerOf('GET', '/v1/x', 200, body), fixedRandom())).toBe(
      undefined,
    );
  });
});

describe('errors.members-extra', () => {
  it("adds members beside the error's message, code and details, which stay", () => {
    const body = { status: 'error', error: { message: 'm', code: 'C', details: { k: 1 } } };
    const out = bodyOf(
      errorsMembersExtra.apply(answerOf('GET', '/v1/x', 404, body), fixedRandom()),
    ) as { status: string; error: Record<string, unknown> } & Record<string, unknown>;
    expect(out.status).toBe('error');
    expect(out.error).toMatchObject(body.error);
    expect(Object.keys(out.error).length).toBeGreaterThan(3);
    expect(Object.keys(out).length).toBeGreaterThan(2);
  });
});

describe('headers.extra', () => {
  it('adds headers and keeps those the answer had', () => {
    const out = headersExtra.apply(answerOf('GET', '/v1/x', 200, {}), fixedRandom());
    expect(out?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(out?.headers['x-request-id']).toMatch(/^[0-9a-f]+$/);
    expect(out?.headers['cache-control']).toBe('no-store');
  });
});
