import { describe, expect, it } from 'vitest';
import { bindUserPlaceholders, refusalOfTree, wrapWithTables } from './sql.ts';

describe('bindUserPlaceholders', () => {
  it('binds each key once, never splicing its value into the text', () => {
    const bound = bindUserPlaceholders(
      "SELECT * FROM t WHERE a = {{user.region}} AND b = '{{ user.region }}' AND c = {{user.n}}",
      { region: "x'; drop table t; --", n: 3 },
    );
    expect(bound.ok).toBe(true);
    if (!bound.ok) return;
    expect(bound.value.sql).toBe('SELECT * FROM t WHERE a = $1 AND b = $2 AND c = $3');
    expect(bound.value.params).toEqual(["x'; drop table t; --", "x'; drop table t; --", 3]);
    expect(bound.value.sql).not.toContain('drop');
  });

  it('turns a literal holding a placeholder into a concatenation', () => {
    const bound = bindUserPlaceholders("SELECT 1 WHERE a LIKE '%{{user.x}}''s%'", { x: 'q' }, 4);
    expect(bound.ok && bound.value.sql).toBe("SELECT 1 WHERE a LIKE ('%' || $4 || '''s%')");
  });

  it('leaves comments and quoted identifiers alone', () => {
    const bound = bindUserPlaceholders('SELECT "{{user.x}}" -- {{user.y}}\nFROM t', { x: 1 });
    expect(bound.ok && bound.value).toEqual({
      sql: 'SELECT "{{user.x}}" -- {{user.y}}\nFROM t',
      params: [],
    });
  });

  it('refuses a missing property with 403 naming it, never an unfiltered query', () => {
    const bound = bindUserPlaceholders('SELECT {{user.a}}, {{user.b}}', { a: 'x', b: null });
    expect(bound.ok).toBe(false);
    if (bound.ok) return;
    expect(bound.error.code).toBe('FORBIDDEN');
    expect(bound.error.details).toEqual({ reason: 'missing-user-property', property: 'b' });
  });

  it('leaves an unclosed string literal as it is, for the parser to refuse', () => {
    const bound = bindUserPlaceholders("SELECT a FROM t WHERE a <> 'x {{user.a}}", { a: 'q' });
    expect(bound.ok && bound.value).toEqual({
      sql: "SELECT a FROM t WHERE a <> 'x {{user.a}}",
      params: [],
    });
  });

  it('binds a value that itself looks like a placeholder as plain text', () => {
    const bound = bindUserPlaceholders('SELECT {{user.a}}', { a: '{{user.b}}' });
    expect(bound.ok && bound.value).toEqual({ sql: 'SELECT $1', params: ['{{user.b}}'] });
  });
});

describe('wrapWithTables', () => {
  const orders = {
    name: 'orders',
    source: 'seed.orders',
    columns: [
      { name: 'org', type: 'VARCHAR' },
      { name: 'n', type: 'BIGINT' },
    ],
  };
  it('puts each table in front as a filtered CTE with bound values', () => {
    const w = wrapWithTables(
      'SELECT count(*) FROM orders;',
      [orders],
      [{ column: 'org', property: 'o' }],
      { o: 'Acme' },
      2,
      [{ column: 'n', value: [1, 2] }],
    );
    expect(w.ok && w.value).toEqual({
      sql: 'WITH "orders" AS (SELECT * FROM seed.orders WHERE "org" = $2 AND CAST("n" AS VARCHAR) IN ($3, $4)) SELECT count(*) FROM orders',
      params: ['Acme', '1', '2'],
    });
  });
  it("merges with the query's own WITH", () => {
    const w = wrapWithTables('-- c\nwith x as (select 1) select * from x', [orders], [], {}, 1);
    expect(w.ok && w.value.sql).toBe(
      'WITH "orders" AS (SELECT * FROM seed.orders), x as (select 1) select * from x',
    );
  });
  it('refuses when the user lacks a filtered property', () => {
    const w = wrapWithTables('SELECT 1', [orders], [{ column: 'org', property: 'o' }], {}, 1);
    expect(w.ok).toBe(false);
  });
});

describe('refusalOfTree', () => {
  const tree = (from: unknown, ctes: string[] = []) => ({
    error: false,
    statements: [
      {
        node: {
          type: 'SELECT_NODE',
          cte_map: { map: ctes.map((key) => ({ key, value: {} })) },
          from_table: from,
        },
      },
    ],
  });
  const base = (table_name: string, schema_name = '') => ({
    type: 'BASE_TABLE',
    alias: '',
    schema_name,
    catalog_name: '',
    table_name,
  });
  it("accepts the connection's tables and the query's own CTEs", () => {
    expect(refusalOfTree(tree(base('Orders')), ['orders'])).toBeUndefined();
    expect(refusalOfTree(tree(base('x'), ['x']), ['orders'])).toBeUndefined();
  });
  it('refuses other tables, schema-qualified names and table functions', () => {
    expect(refusalOfTree(tree(base('other')), ['orders'])).toMatch(/not one of/);
    expect(refusalOfTree(tree(base('orders', 'seed')), ['orders'])).toMatch(/not one of/);
    expect(
      refusalOfTree(tree({ type: 'TABLE_FUNCTION', alias: '', function: {} }), ['orders']),
    ).toMatch(/table_function/);
  });
  it('refuses a kind of table reference it does not know, and allows the read-only ones', () => {
    const ref = (type: string) => ({ type, alias: '' });
    expect(refusalOfTree(tree(ref('SOME_NEW_REF')), ['orders'])).toMatch(/some_new_ref/);
    expect(refusalOfTree(tree(ref('SHOW_REF')), ['orders'])).toMatch(/show_ref/);
    for (const type of ['EMPTY', 'EXPRESSION_LIST', 'PIVOT', 'SUBQUERY', 'JOIN'])
      expect(refusalOfTree(tree(ref(type)), ['orders']), type).toBeUndefined();
  });
  it('refuses anything but one statement', () => {
    expect(refusalOfTree({ error: true, error_message: 'no' }, [])).toMatch(/read-only/);
    expect(refusalOfTree({ error: false, statements: [{}, {}] }, [])).toMatch(/exactly one/);
  });
});
