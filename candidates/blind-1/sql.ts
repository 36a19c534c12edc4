/**
 * A small read-only SQL engine over in-memory tables: one SELECT over one table, with WHERE,
 * GROUP BY, HAVING, ORDER BY and LIMIT, the usual aggregates and a few scalar functions.
 * `{{user.<key>}}` is bound as a parameter, never spliced into the text.
 */

export type Value = string | number | boolean | null;
export type Row = Record<string, Value>;
export type ColumnType = 'text' | 'integer' | 'number' | 'date' | 'boolean';

export interface Table {
  name: string;
  columns: { name: string; type: ColumnType }[];
  rows: Row[];
}

export class SqlError extends Error {
  constructor(
    readonly reason: 'sql-refused' | 'sql-failed',
    message: string,
  ) {
    super(message);
  }
}

export class MissingProperty extends Error {
  constructor(readonly property: string) {
    super(`The user has no property "${property}".`);
  }
}

type Token =
  | { t: 'id'; v: string; quoted: boolean }
  | { t: 'num'; v: number }
  | { t: 'str'; v: string }
  | { t: 'param'; v: string }
  | { t: 'op'; v: string };

export type Expr =
  | { k: 'lit'; v: Value }
  | { k: 'col'; name: string }
  | { k: 'param'; key: string }
  | { k: 'tpl'; parts: (string | { key: string })[] }
  | { k: 'bin'; op: string; l: Expr; r: Expr }
  | { k: 'not'; e: Expr }
  | { k: 'neg'; e: Expr }
  | { k: 'fn'; name: string; args: Expr[]; star: boolean; distinct: boolean }
  | { k: 'in'; e: Expr; list: Expr[]; not: boolean }
  | { k: 'isnull'; e: Expr; not: boolean }
  | { k: 'like'; e: Expr; pattern: Expr; not: boolean; ci: boolean }
  | { k: 'between'; e: Expr; lo: Expr; hi: Expr; not: boolean };

export interface SelectItem {
  expr: Expr | null;
  alias: string | null;
}

export interface Query {
  select: SelectItem[];
  table: string;
  where: Expr | null;
  groupBy: Expr[];
  having: Expr | null;
  orderBy: { expr: Expr; desc: boolean }[];
  limit: number | null;
}

const PARAM_RE = /^\{\{\s*user\.([A-Za-z0-9_$-]+)\s*\}\}/;
const KEYWORDS = new Set([
  'SELECT',
  'FROM',
  'WHERE',
  'GROUP',
  'BY',
  'HAVING',
  'ORDER',
  'LIMIT',
  'AS',
  'AND',
  'OR',
  'NOT',
  'IN',
  'IS',
  'NULL',
  'LIKE',
  'ILIKE',
  'BETWEEN',
  'ASC',
  'DESC',
  'TRUE',
  'FALSE',
  'DISTINCT',
  'OFFSET',
  'JOIN',
  'UNION',
  'INSERT',
  'UPDATE',
  'DELETE',
  'DROP',
  'CREATE',
  'ALTER',
  'WITH',
  'ON',
  'NULLS',
  'FIRST',
  'LAST',
]);

const MAX_NESTING = 64;

function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let depth = 0;
  while (i < sql.length) {
    const c = sql[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '-' && sql[i + 1] === '-') {
      while (i < sql.length && sql[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      if (end < 0) throw new SqlError('sql-refused', 'Unterminated comment.');
      i = end + 2;
      continue;
    }
    const param = PARAM_RE.exec(sql.slice(i));
    if (param) {
      out.push({ t: 'param', v: param[1] as string });
      i += param[0].length;
      continue;
    }
    if (c === "'") {
      let j = i + 1;
      let text = '';
      for (;;) {
        if (j >= sql.length) throw new SqlError('sql-refused', 'Unterminated string literal.');
        if (sql[j] === "'") {
          if (sql[j + 1] === "'") {
            text += "'";
            j += 2;
            continue;
          }
          break;
        }
        text += sql[j];
        j++;
      }
      out.push({ t: 'str', v: text });
      i = j + 1;
      continue;
    }
    if (c === '"') {
      const end = sql.indexOf('"', i + 1);
      if (end < 0) throw new SqlError('sql-refused', 'Unterminated quoted name.');
      out.push({ t: 'id', v: sql.slice(i + 1, end), quoted: true });
      i = end + 1;
      continue;
    }
    const num = /^\d+(\.\d+)?([eE][+-]?\d+)?/.exec(sql.slice(i));
    if (num) {
      out.push({ t: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i));
    if (id) {
      out.push({ t: 'id', v: id[0], quoted: false });
      i += id[0].length;
      continue;
    }
    const op = /^(<>|!=|<=|>=|\|\||[=<>(),.*+\-/%;])/.exec(sql.slice(i));
    if (op) {
      if (op[0] === '(' && ++depth > MAX_NESTING)
        throw new SqlError('sql-refused', 'The SQL nests too deeply.');
      if (op[0] === ')') depth--;
      out.push({ t: 'op', v: op[0] });
      i += op[0].length;
      continue;
    }
    throw new SqlError('sql-refused', `Unexpected character ${JSON.stringify(c)}.`);
  }
  return out;
}

class Parser {
  private i = 0;
  constructor(private readonly toks: Token[]) {}

  private peek(offset = 0): Token | undefined {
    return this.toks[this.i + offset];
  }
  private kw(word: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t?.t === 'id' && !t.quoted && t.v.toUpperCase() === word;
  }
  private acceptKw(word: string): boolean {
    if (this.kw(word)) {
      this.i++;
      return true;
    }
    return false;
  }
  private expectKw(word: string): void {
    if (!this.acceptKw(word)) throw new SqlError('sql-refused', `Expected ${word}.`);
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t?.t === 'op' && t.v === v;
  }
  private acceptOp(v: string): boolean {
    if (this.isOp(v)) {
      this.i++;
      return true;
    }
    return false;
  }
  private expectOp(v: string): void {
    if (!this.acceptOp(v)) throw new SqlError('sql-refused', `Expected "${v}".`);
  }

  query(): Query {
    this.expectKw('SELECT');
    if (this.acceptKw('DISTINCT'))
      throw new SqlError('sql-refused', 'SELECT DISTINCT is not supported.');
    const select: SelectItem[] = [];
    do {
      if (this.acceptOp('*')) select.push({ expr: null, alias: null });
      else {
        const expr = this.expr();
        let alias: string | null = null;
        if (this.acceptKw('AS')) alias = this.name();
        else {
          const t = this.peek();
          if (t?.t === 'id' && (t.quoted || !KEYWORDS.has(t.v.toUpperCase()))) alias = this.name();
        }
        select.push({ expr, alias });
      }
    } while (this.acceptOp(','));
    this.expectKw('FROM');
    let table = this.name();
    while (this.acceptOp('.')) table = this.name();
    const t = this.peek();
    if (t?.t === 'id' && (t.quoted || !KEYWORDS.has(t.v.toUpperCase()))) this.name();
    else if (this.acceptKw('AS')) this.name();
    const where = this.acceptKw('WHERE') ? this.expr() : null;
    const groupBy: Expr[] = [];
    if (this.acceptKw('GROUP')) {
      this.expectKw('BY');
      do groupBy.push(this.expr());
      while (this.acceptOp(','));
    }
    const having = this.acceptKw('HAVING') ? this.expr() : null;
    const orderBy: { expr: Expr; desc: boolean }[] = [];
    if (this.acceptKw('ORDER')) {
      this.expectKw('BY');
      do {
        const expr = this.expr();
        let desc = false;
        if (this.acceptKw('DESC')) desc = true;
        else this.acceptKw('ASC');
        if (this.acceptKw('NULLS') && !this.acceptKw('FIRST')) this.expectKw('LAST');
        orderBy.push({ expr, desc });
      } while (this.acceptOp(','));
    }
    let limit: number | null = null;
    if (this.acceptKw('LIMIT')) {
      const n = this.peek();
      if (n?.t !== 'num' || !Number.isInteger(n.v))
        throw new SqlError('sql-refused', 'LIMIT takes an integer.');
      this.i++;
      limit = n.v;
    }
    this.acceptOp(';');
    if (this.i < this.toks.length)
      throw new SqlError('sql-refused', 'Only one SELECT statement is allowed.');
    return { select, table, where, groupBy, having, orderBy, limit };
  }

  private name(): string {
    const t = this.peek();
    if (t?.t !== 'id') throw new SqlError('sql-refused', 'Expected a name.');
    this.i++;
    return t.v;
  }

  expr(): Expr {
    let l = this.and();
    while (this.acceptKw('OR')) l = { k: 'bin', op: 'OR', l, r: this.and() };
    return l;
  }
  private and(): Expr {
    let l = this.notExpr();
    while (this.acceptKw('AND')) l = { k: 'bin', op: 'AND', l, r: this.notExpr() };
    return l;
  }
  private notExpr(): Expr {
    if (this.acceptKw('NOT')) return { k: 'not', e: this.notExpr() };
    return this.comparison();
  }
  private comparison(): Expr {
    const l = this.additive();
    const t = this.peek();
    if (t?.t === 'op' && ['=', '<>', '!=', '<', '<=', '>', '>='].includes(t.v)) {
      this.i++;
      return { k: 'bin', op: t.v === '!=' ? '<>' : t.v, l, r: this.additive() };
    }
    if (this.acceptKw('IS')) {
      const not = this.acceptKw('NOT');
      this.expectKw('NULL');
      return { k: 'isnull', e: l, not };
    }
    const not =
      this.kw('NOT') &&
      (this.kw('IN', 1) || this.kw('LIKE', 1) || this.kw('ILIKE', 1) || this.kw('BETWEEN', 1));
    if (not) this.i++;
    if (this.acceptKw('IN')) {
      this.expectOp('(');
      const list: Expr[] = [];
      do list.push(this.additive());
      while (this.acceptOp(','));
      this.expectOp(')');
      return { k: 'in', e: l, list, not };
    }
    if (this.kw('LIKE') || this.kw('ILIKE')) {
      const ci = this.kw('ILIKE');
      this.i++;
      return { k: 'like', e: l, pattern: this.additive(), not, ci };
    }
    if (this.acceptKw('BETWEEN')) {
      const lo = this.additive();
      this.expectKw('AND');
      return { k: 'between', e: l, lo, hi: this.additive(), not };
    }
    if (not) throw new SqlError('sql-refused', 'Unexpected NOT.');
    return l;
  }
  private additive(): Expr {
    let l = this.term();
    for (;;) {
      const t = this.peek();
      if (t?.t === 'op' && (t.v === '+' || t.v === '-' || t.v === '||')) {
        this.i++;
        l = { k: 'bin', op: t.v, l, r: this.term() };
      } else return l;
    }
  }
  private term(): Expr {
    let l = this.unary();
    for (;;) {
      const t = this.peek();
      if (t?.t === 'op' && (t.v === '*' || t.v === '/' || t.v === '%')) {
        this.i++;
        l = { k: 'bin', op: t.v, l, r: this.unary() };
      } else return l;
    }
  }
  private unary(): Expr {
    if (this.acceptOp('-')) return { k: 'neg', e: this.unary() };
    return this.primary();
  }
  private primary(): Expr {
    const t = this.peek();
    if (!t) throw new SqlError('sql-refused', 'Unexpected end of SQL.');
    this.i++;
    switch (t.t) {
      case 'num':
        return { k: 'lit', v: t.v };
      case 'param':
        return { k: 'param', key: t.v };
      case 'str':
        return stringLiteral(t.v);
      case 'op':
        if (t.v === '(') {
          const e = this.expr();
          this.expectOp(')');
          return e;
        }
        throw new SqlError('sql-refused', `Unexpected "${t.v}".`);
      case 'id': {
        const upper = t.v.toUpperCase();
        if (!t.quoted && upper === 'NULL') return { k: 'lit', v: null };
        if (!t.quoted && upper === 'TRUE') return { k: 'lit', v: true };
        if (!t.quoted && upper === 'FALSE') return { k: 'lit', v: false };
        if (!t.quoted && (upper === 'DATE' || upper === 'TIMESTAMP') && this.peek()?.t === 'str') {
          const s = this.peek() as { v: string };
          this.i++;
          return { k: 'lit', v: s.v };
        }
        if (!t.quoted && this.acceptOp('(')) {
          const name = t.v.toLowerCase();
          if (name === 'cast') {
            const e = this.expr();
            this.expectKw('AS');
            const type = this.name().toLowerCase();
            if (this.acceptOp('(')) {
              while (!this.acceptOp(')')) this.i++;
            }
            this.expectOp(')');
            return { k: 'fn', name: `cast_${type}`, args: [e], star: false, distinct: false };
          }
          if (this.acceptOp('*')) {
            this.expectOp(')');
            return { k: 'fn', name, args: [], star: true, distinct: false };
          }
          const distinct = this.acceptKw('DISTINCT');
          const args: Expr[] = [];
          if (!this.isOp(')')) {
            do args.push(this.expr());
            while (this.acceptOp(','));
          }
          this.expectOp(')');
          return { k: 'fn', name, args, star: false, distinct };
        }
        if (!t.quoted && KEYWORDS.has(upper))
          throw new SqlError('sql-refused', `Unexpected ${upper}.`);
        let name = t.v;
        while (this.acceptOp('.')) name = this.name();
        return { k: 'col', name };
      }
    }
  }
}

function stringLiteral(text: string): Expr {
  if (!text.includes('{{')) return { k: 'lit', v: text };
  const parts: (string | { key: string })[] = [];
  let rest = text;
  while (rest.length > 0) {
    const at = rest.search(/\{\{\s*user\.[A-Za-z0-9_$-]+\s*\}\}/);
    if (at < 0) {
      parts.push(rest);
      break;
    }
    if (at > 0) parts.push(rest.slice(0, at));
    const m = PARAM_RE.exec(rest.slice(at)) as RegExpExecArray;
    parts.push({ key: m[1] as string });
    rest = rest.slice(at + m[0].length);
  }
  if (parts.length === 1 && typeof parts[0] === 'object') return { k: 'param', key: parts[0].key };
  return { k: 'tpl', parts };
}

export function parseSql(sql: string): Query {
  if (sql.length > 20_000) throw new SqlError('sql-refused', 'The SQL is too long.');
  try {
    return new Parser(tokenize(sql)).query();
  } catch (error) {
    if (error instanceof RangeError) throw new SqlError('sql-refused', 'The SQL is too complex.');
    throw error;
  }
}

/** Names of the user properties a query reads. */
export function paramsOf(query: Query): string[] {
  const keys = new Set<string>();
  const walk = (e: Expr | null): void => {
    if (!e) return;
    switch (e.k) {
      case 'param':
        keys.add(e.key);
        return;
      case 'tpl':
        for (const p of e.parts) if (typeof p === 'object') keys.add(p.key);
        return;
      case 'bin':
        walk(e.l);
        walk(e.r);
        return;
      case 'not':
      case 'neg':
        walk(e.e);
        return;
      case 'fn':
        e.args.forEach(walk);
        return;
      case 'in':
        walk(e.e);
        e.list.forEach(walk);
        return;
      case 'isnull':
        walk(e.e);
        return;
      case 'like':
        walk(e.e);
        walk(e.pattern);
        return;
      case 'between':
        walk(e.e);
        walk(e.lo);
        walk(e.hi);
        return;
      default:
        return;
    }
  };
  query.select.forEach((s) => walk(s.expr));
  walk(query.where);
  query.groupBy.forEach(walk);
  walk(query.having);
  query.orderBy.forEach((o) => walk(o.expr));
  return [...keys];
}

const AGGREGATES = new Set(['sum', 'avg', 'min', 'max', 'count']);

function hasAggregate(e: Expr | null): boolean {
  if (!e) return false;
  switch (e.k) {
    case 'fn':
      return AGGREGATES.has(e.name) || e.args.some(hasAggregate);
    case 'bin':
      return hasAggregate(e.l) || hasAggregate(e.r);
    case 'not':
    case 'neg':
    case 'isnull':
      return hasAggregate(e.e);
    case 'in':
      return hasAggregate(e.e) || e.list.some(hasAggregate);
    case 'like':
      return hasAggregate(e.e) || hasAggregate(e.pattern);
    case 'between':
      return hasAggregate(e.e) || hasAggregate(e.lo) || hasAggregate(e.hi);
    default:
      return false;
  }
}

export function exprName(e: Expr): string {
  switch (e.k) {
    case 'col':
      return e.name;
    case 'fn':
      return `${e.name}(${e.star ? '*' : e.args.map(exprName).join(', ')})`;
    case 'lit':
      return String(e.v);
    case 'bin':
      return `${exprName(e.l)} ${e.op} ${exprName(e.r)}`;
    default:
      return e.k;
  }
}

interface Ctx {
  row: Row;
  group: Row[] | null;
  params: Record<string, unknown>;
  columns: Map<string, string>;
}

function num(v: Value): number | null {
  if (v === null) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = Number(v);
  return Number.isFinite(n) && v.trim() !== '' ? n : null;
}

function compare(a: Value, b: Value): number | null {
  if (a === null || b === null) return null;
  if (typeof a === 'number' || typeof b === 'number') {
    const x = num(a);
    const y = num(b);
    if (x !== null && y !== null) return x - y;
  }
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function truthy(v: Value): boolean {
  return v === true || (typeof v === 'number' && v !== 0);
}

function paramValue(ctx: Ctx, key: string): Value {
  if (!Object.hasOwn(ctx.params, key)) throw new MissingProperty(key);
  const v = ctx.params[key];
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
    return v;
  return JSON.stringify(v);
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round((x + Number.EPSILON * Math.sign(x)) * f) / f;
}

function evaluate(e: Expr, ctx: Ctx): Value {
  switch (e.k) {
    case 'lit':
      return e.v;
    case 'param':
      return paramValue(ctx, e.key);
    case 'tpl':
      return e.parts
        .map((p) => (typeof p === 'string' ? p : String(paramValue(ctx, p.key))))
        .join('');
    case 'col': {
      const actual = ctx.columns.get(e.name.toLowerCase());
      if (actual === undefined) throw new SqlError('sql-failed', `Unknown column "${e.name}".`);
      return ctx.row[actual] ?? null;
    }
    case 'neg': {
      const v = num(evaluate(e.e, ctx));
      return v === null ? null : -v;
    }
    case 'not': {
      const v = evaluate(e.e, ctx);
      return v === null ? null : !truthy(v);
    }
    case 'isnull': {
      const isNull = evaluate(e.e, ctx) === null;
      return e.not ? !isNull : isNull;
    }
    case 'in': {
      const v = evaluate(e.e, ctx);
      if (v === null) return null;
      const hit = e.list.some((x) => compare(v, evaluate(x, ctx)) === 0);
      return e.not ? !hit : hit;
    }
    case 'between': {
      const v = evaluate(e.e, ctx);
      const lo = compare(v, evaluate(e.lo, ctx));
      const hi = compare(v, evaluate(e.hi, ctx));
      if (lo === null || hi === null) return null;
      const inside = lo >= 0 && hi <= 0;
      return e.not ? !inside : inside;
    }
    case 'like': {
      const v = evaluate(e.e, ctx);
      const p = evaluate(e.pattern, ctx);
      if (v === null || p === null) return null;
      const re = new RegExp(
        `^${String(p)
          .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          .replace(/%/g, '.*')
          .replace(/_/g, '.')}$`,
        e.ci ? 'is' : 's',
      );
      const hit = re.test(String(v));
      return e.not ? !hit : hit;
    }
    case 'bin': {
      if (e.op === 'AND') {
        const l = evaluate(e.l, ctx);
        if (l !== null && !truthy(l)) return false;
        const r = evaluate(e.r, ctx);
        if (r !== null && !truthy(r)) return false;
        return l === null || r === null ? null : true;
      }
      if (e.op === 'OR') {
        const l = evaluate(e.l, ctx);
        if (l !== null && truthy(l)) return true;
        const r = evaluate(e.r, ctx);
        if (r !== null && truthy(r)) return true;
        return l === null || r === null ? null : false;
      }
      const l = evaluate(e.l, ctx);
      const r = evaluate(e.r, ctx);
      if (e.op === '||') return l === null || r === null ? null : `${String(l)}${String(r)}`;
      if (['+', '-', '*', '/', '%'].includes(e.op)) {
        const x = num(l);
        const y = num(r);
        if (x === null || y === null) return null;
        switch (e.op) {
          case '+':
            return x + y;
          case '-':
            return x - y;
          case '*':
            return x * y;
          case '/':
            return y === 0 ? null : x / y;
          default:
            return y === 0 ? null : x % y;
        }
      }
      const c = compare(l, r);
      if (c === null) return null;
      switch (e.op) {
        case '=':
          return c === 0;
        case '<>':
          return c !== 0;
        case '<':
          return c < 0;
        case '<=':
          return c <= 0;
        case '>':
          return c > 0;
        default:
          return c >= 0;
      }
    }
    case 'fn':
      return callFn(e, ctx);
  }
}

function callFn(e: Extract<Expr, { k: 'fn' }>, ctx: Ctx): Value {
  if (AGGREGATES.has(e.name)) {
    if (!ctx.group) throw new SqlError('sql-failed', `${e.name}() is not allowed here.`);
    if (e.name === 'count' && e.star) return ctx.group.length;
    const arg = e.args[0];
    if (!arg || e.args.length !== 1)
      throw new SqlError('sql-failed', `${e.name}() takes one argument.`);
    let values = ctx.group
      .map((row) => evaluate(arg, { ...ctx, row, group: null }))
      .filter((v): v is Exclude<Value, null> => v !== null);
    if (e.distinct) values = [...new Map(values.map((v) => [JSON.stringify(v), v])).values()];
    switch (e.name) {
      case 'count':
        return values.length;
      case 'sum': {
        if (values.length === 0) return null;
        return values.reduce<number>((s, v) => s + (num(v) ?? 0), 0);
      }
      case 'avg': {
        if (values.length === 0) return null;
        return values.reduce<number>((s, v) => s + (num(v) ?? 0), 0) / values.length;
      }
      default: {
        if (values.length === 0) return null;
        let best: Value = values[0] as Value;
        for (const v of values) {
          const c = compare(v, best) ?? 0;
          if (e.name === 'min' ? c < 0 : c > 0) best = v;
        }
        return best;
      }
    }
  }
  const args = e.args.map((a) => evaluate(a, ctx));
  const a0 = args[0] ?? null;
  switch (e.name) {
    case 'round': {
      const x = num(a0);
      return x === null ? null : round(x, num(args[1] ?? 0) ?? 0);
    }
    case 'abs': {
      const x = num(a0);
      return x === null ? null : Math.abs(x);
    }
    case 'lower':
      return a0 === null ? null : String(a0).toLowerCase();
    case 'upper':
      return a0 === null ? null : String(a0).toUpperCase();
    case 'length':
      return a0 === null ? null : String(a0).length;
    case 'coalesce':
      return args.find((v) => v !== null) ?? null;
    case 'year':
      return a0 === null ? null : Number(String(a0).slice(0, 4));
    case 'month':
      return a0 === null ? null : Number(String(a0).slice(5, 7));
    case 'date_trunc': {
      const unit = String(a0).toLowerCase();
      const d = args[1] ?? null;
      if (d === null) return null;
      const s = String(d).slice(0, 10);
      const y = s.slice(0, 4);
      const m = Number(s.slice(5, 7));
      switch (unit) {
        case 'year':
          return `${y}-01-01`;
        case 'quarter':
          return `${y}-${String(Math.floor((m - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
        case 'month':
          return `${s.slice(0, 7)}-01`;
        case 'week': {
          const date = new Date(`${s}T00:00:00Z`);
          const back = (date.getUTCDay() + 6) % 7;
          return new Date(date.getTime() - back * 86_400_000).toISOString().slice(0, 10);
        }
        case 'day':
          return s;
        default:
          throw new SqlError('sql-failed', `Unknown date_trunc unit "${unit}".`);
      }
    }
    case 'cast_varchar':
    case 'cast_text':
    case 'cast_string':
      return a0 === null ? null : String(a0);
    case 'cast_integer':
    case 'cast_int':
    case 'cast_bigint': {
      const x = num(a0);
      return x === null ? null : Math.trunc(x);
    }
    case 'cast_double':
    case 'cast_float':
    case 'cast_decimal':
    case 'cast_numeric':
      return num(a0);
    case 'cast_date':
      return a0 === null ? null : String(a0).slice(0, 10);
    default:
      throw new SqlError('sql-failed', `Unknown function ${e.name}().`);
  }
}

export interface Result {
  columns: string[];
  rows: Row[];
}

/** Runs a parsed query over the rows of its one table. */
export function execute(
  query: Query,
  table: Table,
  rows: Row[],
  params: Record<string, unknown>,
): Result {
  const columns = new Map(table.columns.map((c) => [c.name.toLowerCase(), c.name]));
  const base = (row: Row, group: Row[] | null): Ctx => ({ row, group, params, columns });
  let kept = rows;
  if (query.where) {
    const where = query.where;
    if (hasAggregate(where))
      throw new SqlError('sql-failed', 'Aggregates are not allowed in WHERE.');
    kept = rows.filter((row) => truthy(evaluate(where, base(row, null))));
  }
  const outNames: string[] = [];
  for (const item of query.select) {
    if (item.expr === null) outNames.push(...table.columns.map((c) => c.name));
    else outNames.push(item.alias ?? exprName(item.expr));
  }
  const grouped =
    query.groupBy.length > 0 ||
    query.select.some((s) => hasAggregate(s.expr)) ||
    hasAggregate(query.having);
  let units: { row: Row; group: Row[] | null }[];
  if (grouped) {
    if (query.select.some((s) => s.expr === null))
      throw new SqlError('sql-failed', 'SELECT * cannot be grouped.');
    const groups = new Map<string, Row[]>();
    for (const row of kept) {
      const key = JSON.stringify(query.groupBy.map((g) => evaluate(g, base(row, null))));
      const list = groups.get(key);
      if (list) list.push(row);
      else groups.set(key, [row]);
    }
    if (query.groupBy.length === 0 && groups.size === 0) groups.set('[]', []);
    units = [...groups.values()].map((group) => ({ row: group[0] ?? {}, group }));
    if (query.having) {
      const having = query.having;
      units = units.filter((u) => truthy(evaluate(having, base(u.row, u.group))));
    }
  } else units = kept.map((row) => ({ row, group: null }));

  const outputs = units.map((u) => {
    const out: Row = {};
    let i = 0;
    for (const item of query.select) {
      if (item.expr === null) {
        for (const c of table.columns) out[outNames[i++] as string] = u.row[c.name] ?? null;
      } else out[outNames[i++] as string] = evaluate(item.expr, base(u.row, u.group));
    }
    return { out, unit: u };
  });

  if (query.orderBy.length > 0) {
    const keyOf = (o: { expr: Expr }, x: (typeof outputs)[number]): Value => {
      const e = o.expr;
      if (e.k === 'lit' && typeof e.v === 'number') return x.out[outNames[e.v - 1] ?? ''] ?? null;
      if (e.k === 'col') {
        const alias = outNames.find((n) => n.toLowerCase() === e.name.toLowerCase());
        if (alias !== undefined && !columns.has(e.name.toLowerCase())) return x.out[alias] ?? null;
        if (
          alias !== undefined &&
          query.select.some((s) => s.alias?.toLowerCase() === e.name.toLowerCase())
        )
          return x.out[alias] ?? null;
      }
      return evaluate(e, base(x.unit.row, x.unit.group));
    };
    const keyed = outputs.map((x) => ({ x, keys: query.orderBy.map((o) => keyOf(o, x)) }));
    keyed.sort((a, b) => {
      for (let k = 0; k < query.orderBy.length; k++) {
        const av = a.keys[k] ?? null;
        const bv = b.keys[k] ?? null;
        const desc = query.orderBy[k]?.desc ?? false;
        if (av === null && bv === null) continue;
        if (av === null) return 1;
        if (bv === null) return -1;
        const c = compare(av, bv) ?? 0;
        if (c !== 0) return desc ? -c : c;
      }
      return 0;
    });
    outputs.splice(0, outputs.length, ...keyed.map((k) => k.x));
  }
  const limited = query.limit === null ? outputs : outputs.slice(0, query.limit);
  return { columns: [...new Set(outNames)], rows: limited.map((x) => x.out) };
}
