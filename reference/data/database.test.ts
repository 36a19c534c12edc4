import { afterAll, describe, expect, it, vi } from 'vitest';
import { DataStore } from './database.ts';

const data = new DataStore({ rows: 5_000 });
const seeded = data.seedConnection('org-a');

describe('DataStore', () => {
  afterAll(() => data.dropAccount('org-a'));

  it('shows a user of the seeded orders only the rows of their organization', async () => {
    const all = await data.raw('SELECT organization, count(*) AS n FROM seed.orders GROUP BY 1');
    const acme = Number(all.rows.find((r) => r['organization'] === 'Acme')?.['n']);
    const mine = await data.query(
      seeded,
      'SELECT organization, count(*) AS n FROM orders GROUP BY 1',
      {
        organization: 'Acme',
      },
    );
    expect(mine.ok && mine.value.rows).toEqual([{ organization: 'Acme', n: acme }]);
  });

  it('binds properties: a quote or a statement in a value changes nothing and leaks nothing', async () => {
    for (const organization of [
      "Acme' OR '1'='1",
      "x'; DROP TABLE seed.orders; --",
      '{{user.organization}}',
    ]) {
      const rows = await data.query(
        seeded,
        "SELECT count(*) AS n FROM orders WHERE organization = '{{user.organization}}'",
        { organization },
      );
      expect(rows.ok && rows.value.rows).toEqual([{ n: 0 }]);
    }
    expect((await data.raw('SELECT count(*) AS n FROM seed.orders')).rows).toEqual([{ n: '5000' }]);
  });

  it('stops a running statement when the reference closes, before its time limit', async () => {
    // The time limit's timer never fires here: only stop() can end this hours-long count.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const done = data.query(
        seeded,
        'WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 1000000000) SELECT o.organization, count(*) AS c FROM orders o JOIN n ON TRUE GROUP BY 1',
        { organization: 'Acme' },
      );
      let settled = false;
      void done.finally(() => {
        settled = true;
      });
      // Whenever the statement starts running, the next stop() interrupts it.
      while (!settled) {
        data.stop();
        await new Promise((resolve) => setImmediate(resolve));
      }
      const stopped = await done;
      expect(!stopped.ok && stopped.error.details).toMatchObject({ reason: 'sql-timeout' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a missing property, other schemas, files and writes', async () => {
    const missing = await data.query(seeded, 'SELECT count(*) FROM orders', {});
    expect(!missing.ok && missing.error.code).toBe('FORBIDDEN');
    for (const sql of [
      'SELECT * FROM seed.orders',
      // Literals that look like a comment's start: the guard must read them as text, not skip
      // the rest of the query (a guard fed the SQL without its quotes would pass these).
      "SELECT organization, '--' AS c FROM seed.orders",
      "SELECT organization, '/*' AS c FROM seed.orders",
      "SELECT * FROM read_csv('/etc/passwd')",
      'DELETE FROM orders',
      'SELECT 1; SELECT 2',
      'SELECT $1',
    ]) {
      const done = await data.query(seeded, sql, { organization: 'Acme' });
      expect(!done.ok && done.error.code, sql).toBe('VALIDATION_ERROR');
    }
  });

  it('lets through the kinds of table reference a read-only query may use', async () => {
    // Each of these reaches a kind the guard allows besides a plain table: none (EMPTY), a
    // VALUES list, a subquery, a join and a PIVOT; the guard refuses every other kind.
    for (const sql of [
      'SELECT 1 AS total',
      'SELECT * FROM (VALUES (1, 2)) v(a, b)',
      'SELECT n FROM (SELECT count(*) AS n FROM orders) s',
      'SELECT a.organization FROM orders a JOIN orders b ON a.organization = b.organization LIMIT 1',
      "SELECT * FROM orders PIVOT (count(*) FOR organization IN ('Acme'))",
      'SELECT * FROM orders UNPIVOT (v FOR k IN (organization))',
    ]) {
      const done = await data.query(seeded, sql, { organization: 'Acme' });
      expect(done.ok ? 'ran' : done.error.message, sql).toBe('ran');
    }
  });

  it('runs a recursive query, or refuses it before it runs where recursion is refused', async () => {
    const sql =
      'WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 3) SELECT count(*) AS c FROM n';
    const ran = await data.query(seeded, sql, { organization: 'Acme' });
    expect(ran.ok && ran.value.rows).toEqual([{ c: 3 }]);
    const strict = new DataStore({ rows: 10, recursion: 'refused' });
    const mine = strict.seedConnection('org-r');
    try {
      const refused = await strict.query(mine, sql, { organization: 'Acme' });
      expect(!refused.ok && refused.error.details).toMatchObject({ reason: 'sql-refused' });
      const plain = await strict.query(mine, 'WITH a AS (SELECT 1 AS k) SELECT k FROM a', {
        organization: 'Acme',
      });
      expect(plain.ok).toBe(true);
    } finally {
      await strict.dropAccount('org-r');
      strict.stop();
    }
  });

  it("holds a connection's own table behind its row filters", async () => {
    const made = await data.createConnection('org-a', 'c1', {
      table: {
        name: 'sales',
        columns: [
          { name: 'region', type: 'text' },
          { name: 'amount', type: 'number' },
          { name: 'day', type: 'date' },
        ],
        rows: [
          { region: 'north', amount: 1.5, day: '2025-01-02' },
          { region: 'south', amount: 2 },
        ],
      },
      rowFilters: [{ column: 'region', property: 'region' }],
    });
    expect(made.ok).toBe(true);
    if (!made.ok) return;
    const rows = await data.query(made.value, 'SELECT * FROM sales', { region: 'north' });
    expect(rows.ok && rows.value).toEqual({
      columns: ['region', 'amount', 'day'],
      rows: [{ region: 'north', amount: 1.5, day: '2025-01-02' }],
    });
    expect(data.connection('org-b', 'c1')).toBeUndefined();
    const bad = await data.createConnection('org-a', 'c2', {
      table: { name: 't', columns: [{ name: 'a', type: 'integer' }], rows: [{ a: 'x' }] },
    });
    expect(!bad.ok && bad.error.code).toBe('VALIDATION_ERROR');
  });
});
