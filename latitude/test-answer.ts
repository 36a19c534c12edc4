import type { Answer } from './transform.ts';

/** An answer of the API as the proxy would hand it to a transform, for the unit tests. */
export function answerOf(
  method: string,
  url: string,
  status: number,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' },
): Answer {
  return {
    request: { method, url, headers: {}, body: Buffer.alloc(0), origin: 'api' },
    status,
    headers,
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  };
}

/** The JSON body of a transformed answer. */
export const bodyOf = (answer: Pick<Answer, 'body'> | undefined): unknown =>
  answer === undefined ? undefined : (JSON.parse(answer.body.toString('utf8')) as unknown);

/** A fixed sequence for the `random` argument. */
export const fixedRandom =
  (value = 0.42) =>
  () =>
    value;
