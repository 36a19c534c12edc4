/**
 * For the reference's own unit tests: a JSON POST to a running reference, with the status and
 * the parsed answer. (The suites have their own client, suites/harness/http.ts.)
 */
export async function postJson<T>(
  url: string,
  body: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}
