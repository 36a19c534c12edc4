import { afterAll, beforeAll } from 'vitest';

import { start, type RunningReference, type StartOptions } from './server.ts';

/** The §7 envelope (or a success's data) as the reference's unit tests read an answer. */
export interface Envelope {
  status: string;
  data: Record<string, unknown>;
  error?: { message: string; code?: string; details?: Record<string, unknown> };
}

/**
 * A reference started before the tests of the calling file (or describe block) and closed
 * after them. Its addresses are read inside tests, once it has started.
 */
export function referenceForTests(options: StartOptions): {
  readonly running: RunningReference;
  readonly url: string;
  readonly hooks: string;
} {
  let running: RunningReference | undefined;
  beforeAll(async () => {
    running = await start(options);
  });
  afterAll(() => running?.close());
  const started = (): RunningReference => {
    if (running === undefined) throw new Error('the reference has not started yet');
    return running;
  };
  return {
    get running() {
      return started();
    },
    get url() {
      return started().url;
    },
    get hooks() {
      return started().hooksUrl ?? '';
    },
  };
}

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

/**
 * A fresh account made through the hooks, with one project and one project organization, and
 * a way to register a user in it and get that user's token: the world most of the reference's
 * hook tests start from.
 */
export async function hookAccount(ref: { readonly url: string; readonly hooks: string }): Promise<{
  org: string;
  apiKey: string;
  projectId: string;
  projectOrganizationId: string;
  /** Registers a user (with the given properties) in the organization; answers its token. */
  userToken: (properties?: Record<string, unknown>) => Promise<string>;
}> {
  const post = async (url: string, body: unknown, expected: number): Promise<Envelope['data']> => {
    const res = await postJson<Envelope>(url, body);
    if (res.status !== expected) {
      throw new Error(`${url} answered ${String(res.status)}: ${JSON.stringify(res.body)}`);
    }
    return res.body.data;
  };
  const made = await post(`${ref.hooks}/accounts`, {}, 201);
  const org = String(made['organizationId']);
  const apiKey = String(made['orgBoundKey']);
  const projectId = String(
    (await post(`${ref.hooks}/accounts/${org}/projects`, {}, 201))['projectId'],
  );
  const projectOrganizationId = String(
    (
      await post(
        `${ref.url}/v1/api/projects/register-organization`,
        { apiKey, projectId, name: 'Org' },
        200,
      )
    )['projectOrganizationId'],
  );
  const userToken = async (properties: Record<string, unknown> = {}) => {
    const registered = await post(
      `${ref.url}/v1/api/projects/register-user`,
      { apiKey, projectId, name: 'U', properties, projectOrganizationId },
      200,
    );
    const token = await post(
      `${ref.url}/v1/api/projects/user-token`,
      { apiKey, userId: registered['userId'] },
      200,
    );
    return String(token['token']);
  };
  return { org, apiKey, projectId, projectOrganizationId, userToken };
}

/**
 * A JSON POST that must succeed: answers the success envelope's `data`, and throws with the
 * status and the answer otherwise (for a test's set-up, where a refusal is the test's bug).
 */
export async function postData(url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await postJson<Partial<Envelope>>(url, body);
  if (res.status >= 300 || res.body.data === undefined)
    throw new Error(`${url}: ${String(res.status)} ${JSON.stringify(res.body)}`);
  return res.body.data;
}
