import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { start, type RunningReference } from '../reference/server.ts';
import {
  loadOperations,
  requestsArb,
  type FuzzContext,
  type FuzzRequest,
} from '../suites/robustness/generate.ts';
import { fuzzWorld } from '../suites/robustness/world.ts';

// Both OpenAPI files describe what the reference answers: every status it gives to a call of an
// operation must be one that operation's responses list. The document's operations are driven
// with the robustness generator (valid calls and calls broken in the ways careless clients break
// them), the hooks with the calls that build a world; a status the file does not list for that
// operation fails, naming the call.

const SEED = 20261128;
const SAMPLES = 600;

type Responses = Record<string, Record<string, Set<string>>>;

/** Each operation's listed statuses, by path template and method, from one OpenAPI file. */
function listedStatuses(file: URL): Responses {
  const doc = parse(readFileSync(file, 'utf8')) as {
    paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  };
  const listed: Responses = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (op.responses === undefined) continue;
      (listed[path] ??= {})[method.toUpperCase()] = new Set(Object.keys(op.responses));
    }
  }
  return listed;
}

/** The template of `listed` a concrete path (query cut off) falls under, if any. */
function templateOf(listed: Responses, concrete: string): string | undefined {
  const path = concrete.split('?')[0] ?? '';
  return Object.keys(listed).find((template) =>
    new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  );
}

/** Why a status is not listed for the call, or undefined when it is. */
function unlisted(listed: Responses, method: string, concrete: string, status: number) {
  const template = templateOf(listed, concrete);
  const statuses = template === undefined ? undefined : listed[template]?.[method];
  // A path or method no operation has reaches no operation: its answer is no operation's.
  if (template === undefined || statuses === undefined) return undefined;
  const classKey = `${String(status)[0]}XX`;
  if (statuses.has(String(status)) || statuses.has(classKey) || statuses.has('default'))
    return undefined;
  return `${method} ${template} answered ${status}; its responses list ${[...statuses].join(', ')}`;
}

describe('the OpenAPI files list every status the reference answers', () => {
  let running: RunningReference;
  const hookCalls: { method: string; path: string; status: number }[] = [];
  let ctx: FuzzContext;

  /** A hook or API call of the world's making, its status recorded when it is a hook's. */
  async function call(method: string, url: string, body?: unknown) {
    const res = await request(url, {
      method: method as 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const json = (await res.body.json()) as { data?: Record<string, unknown> };
    const hooks = running.hooksUrl ?? '';
    if (url.startsWith(hooks))
      hookCalls.push({ method, path: url.slice(hooks.length), status: res.statusCode });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode}`);
    return json.data ?? {};
  }

  beforeAll(async () => {
    running = await start({ hooks: true, seed: SEED });
    ctx = await fuzzWorld(call, { base: running.url, hooks: running.hooksUrl ?? '' });
  }, 60_000);
  afterAll(async () => {
    await running.close();
  });

  it('spec/openapi.yaml, for valid and broken calls of every operation', async () => {
    const listed = listedStatuses(new URL('../spec/openapi.yaml', import.meta.url));
    const { operations, doc } = loadOperations();
    const sample: FuzzRequest[] = fc.sample(requestsArb(operations, doc, ctx), {
      seed: SEED,
      numRuns: SAMPLES,
    });
    const wrong: string[] = [];
    for (const r of sample) {
      let status: number;
      try {
        const res = await request(`${running.url}${r.path}`, {
          method: r.method,
          headers: r.headers,
          body: r.body ?? null,
        });
        await res.body.text();
        status = res.statusCode;
      } catch {
        continue; // A connection closed on a refused request answers no status.
      }
      const why = unlisted(listed, r.method, r.path, status);
      if (why !== undefined && !wrong.includes(why)) wrong.push(why);
    }
    expect(wrong, `seed ${SEED}, ${SAMPLES} calls`).toEqual([]);
  }, 120_000);

  it('spec/hooks.openapi.yaml, for the calls that build a world', () => {
    const listed = listedStatuses(new URL('../spec/hooks.openapi.yaml', import.meta.url));
    expect(hookCalls.length).toBeGreaterThan(0);
    const wrong = hookCalls
      .map((c) => unlisted(listed, c.method, c.path, c.status))
      .filter((why) => why !== undefined);
    expect(wrong).toEqual([]);
  });
});
