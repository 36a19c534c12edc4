import { defineClauses } from './types.ts';

// §1 and the conventions paragraph that opens the document (it has no number of its own).
export const s1 = defineClauses([
  {
    id: 'resources.uuid.format',
    section: '1',
    level: 'must',
    summary: 'Every UUID travels as a string in 8-4-4-4-12 hex groups.',
  },
  {
    id: 'resources.envelope.success',
    section: '1',
    level: 'must',
    summary: "A successful JSON answer is wrapped as {status: 'success', data}.",
  },
  {
    id: 'resources.properties.row-level-security',
    section: '1',
    level: 'must',
    summary:
      'Organization and user properties restrict the rows a user sees; RLS reads user ones as {{user.<key>}}.',
  },
  {
    id: 'resources.properties.bound-not-spliced',
    section: '1',
    level: 'unspecified',
    summary: 'How a {{user.<key>}} value reaches the SQL a chart or the agent runs is left open.',
    decision:
      "As a bound parameter, never spliced into the SQL text: a bare {{user.<key>}} binds the value as it is, one inside a string literal binds it as text; the connection's row filters wrap each of its tables in a filtered common table expression with bound values.",
  },
  {
    id: 'resources.data.read-only-sql',
    section: '1',
    level: 'unspecified',
    summary: 'Which SQL a saved chart or the agent may run against the data is left open.',
    decision:
      "One read-only SELECT (or WITH) over the connection's own tables, stopped after 5 s; anything else (several statements, writes, other schemas, table functions, files, parameters of its own) is refused with 400 VALIDATION_ERROR, details.reason 'sql-refused' (refused before it runs), 'sql-failed' (the database could not run it, e.g. an unknown column) or 'sql-timeout' (stopped).",
  },
]);
