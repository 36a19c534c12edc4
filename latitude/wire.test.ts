import { describe, expect, it } from 'vitest';
import { answerOf, fixedRandom } from './test-answer.ts';
import { bodyChunked, contentTypeCharset } from './wire.ts';

describe('content-type.charset', () => {
  it('adds a charset, or writes the usual one in its other spelling', () => {
    const bare = answerOf('GET', '/x', 200, '{}', { 'content-type': 'application/json' });
    expect(contentTypeCharset.apply(bare, fixedRandom())?.headers['content-type']).toBe(
      'application/json; charset=utf-8',
    );
    const usual = answerOf('GET', '/x', 200, '{}');
    expect(contentTypeCharset.apply(usual, fixedRandom())?.headers['content-type']).toBe(
      'application/json;charset=UTF-8',
    );
    const png = answerOf('GET', '/x', 200, 'x', { 'content-type': 'image/png' });
    expect(contentTypeCharset.apply(png, fixedRandom())).toBe(undefined);
  });
});

describe('body.chunked', () => {
  it('cuts the body into pieces whose concatenation is the body', () => {
    let calls = 0;
    const random = () => [0.9, 0.2, 0.7, 0.5, 0.1][calls++ % 5]!;
    const answer = answerOf('GET', '/x', 200, { status: 'success', data: { a: 'b'.repeat(40) } });
    const out = bodyChunked.apply(answer, random);
    expect(out?.pieces?.length).toBeGreaterThanOrEqual(2);
    expect(Buffer.concat(out?.pieces ?? []).equals(answer.body)).toBe(true);
    expect(out?.pieces?.every((p) => p.length > 0)).toBe(true);
    expect(bodyChunked.apply(answerOf('GET', '/x', 204, ''), random)).toBe(undefined);
  });
});
