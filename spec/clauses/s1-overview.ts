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
]);
