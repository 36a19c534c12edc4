import { expect } from 'vitest';
import { cause } from '../harness/causes.ts';
import { ChatResult } from '../../spec/schemas/chat.ts';
import {
  buildWorld,
  registerOrganization,
  registerUser,
  tokenFor,
  type World,
} from '../harness/given/accounts.ts';
import type { Conformance } from '../harness/conformance.ts';
import { chat, chatBody, expectStream, type ChatAnswer } from '../harness/chat.ts';

/**
 * What the chat suites share: a world whose agent reaches a small table the test loaded
 * (hook connections) with row filters, so the test knows exactly which rows each user may see;
 * users registered over the API with the properties those filters read. The chat call itself
 * is the harness's (chat.ts).
 */

export const parts = ['chat', 'identity'] as const;

/** One row of the loaded table. */
export interface SaleRow {
  readonly tenant: string;
  readonly region: string;
  readonly product: string;
  readonly amount: number;
  readonly order_date: string;
}

/** A user of the world: the cell of the table (tenant, region) its properties open. */
export interface ChatUser {
  readonly userId: string;
  readonly token: string;
  readonly properties: { tenant: string; region: string } & Record<string, unknown>;
  readonly projectOrganizationId: string;
}

export interface ChatWorld extends World {
  readonly connectionId: string;
  readonly agentId: string;
  readonly rows: readonly SaleRow[];
  /** users[t][r]: the user of tenant t, region r. */
  readonly users: readonly (readonly ChatUser[])[];
}

export const TABLE = 'sales';

/**
 * The table: two tenants (project organizations) of two regions each, three rows per cell,
 * every product, tenant and region name belonging to one cell only, so any of them in an
 * answer tells whose rows were read. Amounts of cell (0, 0) are below 100; every other cell's
 * are above a million: a number that size in an answer to user (0, 0) came from rows hidden
 * from that user.
 */
export function salesRows(t: Conformance): SaleRow[] {
  const tag = t.faker.string.alpha({ length: 5, casing: 'lower' });
  const rows: SaleRow[] = [];
  const regions = [
    ['north', 'south'],
    ['east', 'west'],
  ];
  for (let ti = 0; ti < 2; ti++) {
    for (let ri = 0; ri < 2; ri++) {
      const tenant = `tenant${ti}-${tag}`;
      const region = `${regions[ti]?.[ri] ?? 'x'}-${tag}`;
      for (let k = 0; k < 3; k++) {
        const small = ti === 0 && ri === 0;
        rows.push({
          tenant,
          region,
          product: `${t.faker.commerce.product().toLowerCase()}-${ti}${ri}${k}-${tag}`,
          amount: small
            ? t.faker.number.int({ min: 1, max: 30 })
            : t.faker.number.int({ min: 1_000_000, max: 9_000_000 }),
          order_date: `2025-0${1 + k}-1${ti}`,
        });
      }
    }
  }
  return rows;
}

/** The connection body for rows of that shape, filtered by tenant and region. */
export function salesConnection(rows: readonly SaleRow[]) {
  return {
    name: 'sales (eac)',
    table: {
      name: TABLE,
      columns: [
        { name: 'tenant', type: 'text' as const },
        { name: 'region', type: 'text' as const },
        { name: 'product', type: 'text' as const },
        { name: 'amount', type: 'number' as const },
        { name: 'order_date', type: 'date' as const },
      ],
      rows: rows.map((r) => ({ ...r })),
    },
    rowFilters: [
      { column: 'tenant', property: 'tenant' },
      { column: 'region', property: 'region' },
    ],
  };
}

/** Registers a user of a project organization with the given properties, with a token. */
export async function chatUser(
  t: Conformance,
  w: World,
  projectOrganizationId: string,
  properties: ChatUser['properties'],
): Promise<ChatUser> {
  const { userId } = await registerUser(t, w, { projectOrganizationId, properties });
  return { userId, token: await tokenFor(t, w, userId), properties, projectOrganizationId };
}

/**
 * A fresh account whose agent reaches the sales table of `salesRows`, with one user per cell:
 * the tenants are two project organizations, each user carrying its cell's tenant and region.
 */
export async function chatWorld(
  t: Conformance,
  options: { rows?: readonly SaleRow[]; extra?: Record<string, unknown> } = {},
): Promise<ChatWorld> {
  const w = await buildWorld(t);
  const rows = options.rows ?? salesRows(t);
  const { connectionId } = await t.hooks.createConnection(
    w.account.organizationId,
    salesConnection(rows),
  );
  const { agentId } = await t.hooks.createAgent(w.account.organizationId, w.projectId, {
    name: 'Sales analyst',
    connectionId,
  });
  const users: ChatUser[][] = [];
  for (const tenant of [...new Set(rows.map((r) => r.tenant))]) {
    const org = await registerOrganization(t, w, { properties: { tenant } });
    const cell: ChatUser[] = [];
    for (const region of [...new Set(rows.filter((r) => r.tenant === tenant).map((r) => r.region))])
      cell.push(
        await chatUser(t, w, org.projectOrganizationId, {
          tenant,
          region,
          ...options.extra,
        }),
      );
    users.push(cell);
  }
  return { ...w, connectionId, agentId, rows, users };
}

/** The user of tenant `ti`, region `ri`. */
export function userOf(w: ChatWorld, ti: number, ri: number): ChatUser {
  const user = w.users[ti]?.[ri];
  if (user === undefined) throw new Error(`the world has no user ${ti}/${ri}`);
  return user;
}

/** Rows a user may see: those of its tenant and region. */
export function visibleTo(w: ChatWorld, user: ChatUser): SaleRow[] {
  return w.rows.filter(
    (r) => r.tenant === user.properties.tenant && r.region === user.properties.region,
  );
}

/** The one chat result of an answer the grammar makes a chart of. */
export function theChart(answer: ChatAnswer, what: string): ChatResult {
  expect(answer.charts.length, `${what}: expected one generateChart result`).toBeGreaterThanOrEqual(
    1,
  );
  return ChatResult.parse(answer.charts.at(-1));
}

/**
 * Values in rows that only rows hidden from `user` hold: strings of another cell (tenant,
 * region, product names are never shared across cells), and for user (0, 0) amounts of a
 * million and more (its own are below 100; see `salesRows`).
 */
export function leaks(w: ChatWorld, user: ChatUser, rows: readonly Record<string, unknown>[]) {
  const seen = new Set<string>();
  for (const r of visibleTo(w, user)) for (const v of [r.tenant, r.region, r.product]) seen.add(v);
  // The user's own property values are no secret to it.
  for (const v of Object.values(user.properties)) if (typeof v === 'string') seen.add(v);
  const hidden = new Set<string>();
  for (const r of w.rows)
    for (const v of [r.tenant, r.region, r.product]) if (!seen.has(v)) hidden.add(v);
  const small = user === userOf(w, 0, 0);
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const h of hidden) if (value.includes(h)) found.push(h);
    } else if (typeof value === 'number') {
      if (small && Math.abs(value) >= 1_000_000 && Math.abs(value) < 1e9) found.push(String(value));
    } else if (typeof value === 'object' && value !== null) {
      for (const v of Object.values(value)) visit(v);
    }
  };
  for (const row of rows) visit(row);
  return found;
}

/**
 * Numbers in rows that no aggregate of the user's own rows can make: above the total of the
 * amounts it may see (every amount is positive, so no sum, mean, minimum, maximum or count of
 * them exceeds it), below 10^9 (dates as epoch numbers), and no year of the table. A number
 * that size came from rows hidden from the user.
 */
export function beyondVisible(
  w: ChatWorld,
  user: ChatUser,
  rows: readonly Record<string, unknown>[],
): string[] {
  const visible = visibleTo(w, user);
  const ceiling = Math.max(
    visible.reduce((sum, r) => sum + r.amount, 0),
    visible.length,
  );
  const years = new Set(w.rows.map((r) => Number(r.order_date.slice(0, 4))));
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'number') {
      const size = Math.abs(value);
      if (size > ceiling + 0.01 && size < 1e9 && !years.has(value)) found.push(String(value));
    } else if (typeof value === 'object' && value !== null) {
      for (const v of Object.values(value)) visit(v);
    }
  };
  for (const row of rows) visit(row);
  return found;
}

/** The value at a JSON pointer (RFC 6901) in a value; undefined when the path is not there. */
export function atPointer(value: unknown, pointer: string): unknown {
  let at = value;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/**
 * Plain questions over the loaded sales table, in everyday words rather than any agent's
 * vocabulary; a test asks a seeded few of them, then the chart questions the profile states
 * in the implementer's own words (`chat.examples.charts`).
 */
const PLAIN_QUESTIONS = [
  'What is the total amount for each product?',
  'Show the amount per region',
  'How much did each region sell?',
  'Sum of the amount by tenant',
  'Which products have the highest amounts?',
  'Average amount per product',
  'How many sales are there per region?',
  'Break the amount down by month',
] as const;

export function chartQuestions(t: Conformance, plain = 4): string[] {
  return [
    ...t.faker.helpers.arrayElements(PLAIN_QUESTIONS, plain),
    ...(t.profile.chat?.examples?.charts ?? []),
  ];
}

/**
 * Chart answers for a check that holds for any agent: each question asked (no thread); an
 * answer with no chart is asked once more in a fresh request, since a language model may
 * answer the same question with a chart one time and with words the next; an answer that
 * still holds none counts as a text answer. Fewer than `least` chart answers in all makes
 * the test not-run (never a pass): too little was checked.
 */
export async function chartAnswers(
  t: Conformance,
  w: ChatWorld,
  user: ChatUser,
  questions: readonly string[],
  least: number,
): Promise<{ question: string; answer: ChatAnswer; charts: ChatResult[] }[]> {
  const out: { question: string; answer: ChatAnswer; charts: ChatResult[] }[] = [];
  for (const question of questions) {
    let answer: ChatAnswer | undefined;
    for (
      let attempt = 0;
      attempt < 2 && (answer === undefined || answer.charts.length === 0);
      attempt++
    )
      answer = expectStream(
        await chat(t, w.agentId, user.token, chatBody(w.agentId, { question })),
        `"${question}"`,
      );
    if (answer === undefined) continue;
    out.push({ question, answer, charts: answer.charts.map((c) => ChatResult.parse(c)) });
  }
  const charted = out.reduce((n, a) => n + a.charts.length, 0);
  if (charted < least)
    t.notRun(
      `the agent answered ${charted} of ${questions.length} questions with a chart (asked twice each); the check needs ${least} (state questions it charts in chat.examples.charts)`,
      cause.shape('chat.examples.charts'),
    );
  return out;
}
