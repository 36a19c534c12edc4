import type { Variant } from './variant.ts';

/**
 * Wrong variants of the reference's chat side (§4.15, §6, §8), its data and row-level
 * security (§1, §2.4) and save-from-chat (§4.14): each must make the chat suites fail.
 */
export const chatReferenceVariants: readonly Variant[] = [
  {
    name: 'chat: a stream without text-end',
    file: 'reference/chat/events.ts',
    from: "    { type: 'text-end' },\n",
    to: '',
    only: ['chat'],
  },
  {
    // Found by Stryker's sample (reference/http/chat.ts:126): a text turn wiped the thread.
    name: 'chat: a text answer forgets the thread\u2019s chart',
    file: 'reference/http/chat.ts',
    from: "    if (said.kind === 'chart' && threadKey !== undefined) {",
    to: "    if (said.kind !== 'chart' && threadKey !== undefined) state.threads.delete(threadKey);\n    if (said.kind === 'chart' && threadKey !== undefined) {",
    only: ['chat.thread.keeps-context'],
  },
  {
    name: 'chat: a tool-result before its tool-call',
    file: 'reference/chat/events.ts',
    from: '...[sqlCall, sqlResult, chartCall, chartResult],',
    to: '...[sqlResult, sqlCall, chartResult, chartCall],',
    only: ['chat'],
  },
  {
    name: 'chat: the row filter dropped',
    file: 'reference/data/sql.ts',
    from: '  return connection.rowFilters;',
    to: '  return [];',
    only: ['chat'],
    kind: 'sibling',
  },
  {
    name: 'chat: a property spliced into the SQL text',
    file: 'reference/data/sql.ts',
    from: '  params.push(value);\n  return `$${String(first + params.length - 1)}`;',
    to: "  return typeof value === 'string' ? `'${value}'` : String(value);",
    only: ['chat'],
    kind: 'encoding',
  },
  {
    name: 'chat: the rate limit kept per organization only',
    file: 'reference/chat/rate.ts',
    from: ") => `${organizationId}\\u0000${projectOrganizationId ?? ''}\\u0000${userId}`;",
    to: ") => `${organizationId}\\u0000${projectOrganizationId ?? ''}\\u0000${userId.slice(0, 0)}`;",
    only: ['chat'],
    kind: 'sibling',
  },
  {
    name: "chat: the thread's previous chart forgotten",
    file: 'reference/http/chat.ts',
    from: 'thread?.spec',
    to: 'undefined',
    only: ['chat'],
    kind: 'stale-cache',
  },
  {
    name: 'chat: a chart saved without its sqlOverride',
    file: 'reference/http/dashboards.ts',
    from: '        config: raw,',
    to: '        config: { ...raw, sqlOverride: undefined },',
    only: ['chat'],
  },
];
