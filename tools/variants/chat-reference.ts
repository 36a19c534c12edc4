import type { Variant } from './variant.ts';

/**
 * Wrong variants of the reference's chat side (§4.15, §6, §8), its data and row-level
 * security (§1, §2.4) and save-from-chat (§4.14): each must make the chat suites fail.
 */
export const chatReferenceVariants: readonly Variant[] = [
  {
    name: 'chat: a stream without text-end',
    file: 'reference/chat/events.ts',
    within: 'textEvents',
    from: "    { type: 'text-end' },\n",
    to: '',
    only: ['chat'],
  },
  {
    // Found by Stryker's sample (reference/http/chat.ts:126): a text turn wiped the thread.
    name: 'chat: a text answer forgets the thread\u2019s chart',
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: "    if (said.kind === 'chart') remember(",
    to: "    if (said.kind !== 'chart' && threadKey !== undefined) account.chat.threads.delete(threadKey);\n    if (said.kind === 'chart') remember(",
    only: ['chat.thread.keeps-context'],
  },
  {
    name: 'chat: a tool-result before its tool-call',
    file: 'reference/chat/events.ts',
    within: 'answerEvents',
    from: '...[sqlCall, sqlResult, chartCall, chartResult],',
    to: '...[sqlResult, sqlCall, chartResult, chartCall],',
    only: ['chat'],
  },
  {
    name: 'chat: the row filter dropped',
    file: 'reference/data/sql.ts',
    within: 'rowFiltersOf',
    from: '  return connection.rowFilters;',
    to: '  return [];',
    only: ['chat'],
    kind: 'sibling',
  },
  {
    name: 'chat: a property spliced into the SQL text',
    file: 'reference/data/sql.ts',
    within: 'bindValue',
    from: '  params.push(value);\n  return `$${String(first + params.length - 1)}`;',
    to: "  return typeof value === 'string' ? `'${value}'` : String(value);",
    only: ['chat'],
    kind: 'encoding',
  },
  {
    name: 'chat: the rate limit kept per organization only',
    file: 'reference/chat/rate.ts',
    within: 'rateKey',
    from: " `${organizationId}\\u0000${projectOrganizationId ?? ''}\\u0000${userId}`;",
    to: "  `${organizationId}\\u0000${projectOrganizationId ?? ''}\\u0000${userId.slice(0, 0)}`;",
    only: ['chat'],
    kind: 'sibling',
  },
  {
    name: "chat: the thread's previous chart forgotten",
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: 'thread?.spec',
    to: 'undefined',
    only: ['chat'],
    kind: 'stale-cache',
  },
  {
    name: 'chat: a chart saved without its sqlOverride',
    file: 'reference/http/dashboards.ts',
    within: 'dashboardRoutes',
    from: '        config: raw,',
    to: '        config: { ...raw, sqlOverride: undefined },',
    only: ['chat'],
  },
  {
    // Stryker's sample (reference/chat/agent.ts:27:17): quoting a value answers nothing, so the
    // look-up of filter values fails and `in <value>` is never recognised.
    name: 'chat grammar: value filters never recognised (quoting broken)',
    file: 'reference/chat/agent.ts',
    within: 'literal',
    from: "const literal = (value: string) => `'${value.replaceAll(\"'\", \"''\")}'`;",
    to: 'const literal = (_value: string) => undefined as unknown as string;',
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Stryker's sample (reference/chat/agent.ts:299:59): only empty phrases are looked up.
    name: 'chat grammar: value filters never looked up',
    file: 'reference/chat/agent.ts',
    within: 'filterValues',
    from: ".filter((p) => p !== '' && !/^\\d+$/.test(p))",
    to: ".filter((p) => p === '' && !/^\\d+$/.test(p))",
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Stryker's sample (reference/chat/grammar.ts:60:4): the word `total` emptied matches at the
    // start of every question, so the first numeric column named is summed.
    name: 'chat grammar: the first numeric column summed, not the one after "total"',
    file: 'reference/chat/grammar.ts',
    within: 'AGGREGATIONS',
    from: "  ['total', 'sum'],\n",
    to: "  ['', 'sum'],\n",
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Stryker's sample (reference/chat/grammar.ts:154:46): `by <date column>` gets no period.
    name: 'chat grammar: grouping by a date column has no period',
    file: 'reference/chat/grammar.ts',
    within: 'readQuestion',
    from: "? { column: hit.column.name, bucket: 'month' }",
    to: "? { column: hit.column.name, bucket: '' as Bucket }",
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Stryker's sample (reference/chat/grammar.ts:258:59, ConditionalExpression): a follow-up's
    // value filter drops every earlier filter.
    name: "chat grammar: a follow-up's value filter drops the thread's other filters",
    file: 'reference/chat/grammar.ts',
    within: 'chartFor',
    from: 'filters.some((g) => g.column === f.column)',
    to: 'filters.some((g) => g.column === g.column)',
    only: ['chat.thread.keeps-context'],
  },
  {
    // Stryker's sample (reference/chat/grammar.ts:258:59, EqualityOperator): it keeps the
    // earlier filters of the same column only.
    name: "chat grammar: a follow-up's value filter keeps the same column's filter only",
    file: 'reference/chat/grammar.ts',
    within: 'chartFor',
    from: 'filters.some((g) => g.column === f.column)',
    to: 'filters.some((g) => g.column !== f.column)',
    only: ['chat.thread.keeps-context'],
  },
  {
    // Stryker's sample (reference/chat/events.ts:41:15): a text answer's finish-step untyped.
    name: 'chat events: a text answer closes its step with an empty type',
    file: 'reference/chat/events.ts',
    within: 'answerEvents',
    from: "      ...textEvents(answer.text),\n      { type: 'finish-step' },",
    to: "      ...textEvents(answer.text),\n      { type: '' },",
    only: ['events.stream.type-field'],
  },
  {
    // Stryker's sample (reference/chat/events.ts:84:13): a chart answer's second start-step untyped.
    name: 'chat events: the text step of a chart answer opens with an empty type',
    file: 'reference/chat/events.ts',
    within: 'answerEvents',
    from: "    { type: 'finish-step' },\n    { type: 'start-step' },",
    to: "    { type: 'finish-step' },\n    { type: '' },",
    only: ['events.stream.type-field'],
  },
  {
    // Stryker's sample (reference/chat/token.ts:45:12): a token of another kind (a tenant JWT)
    // gets no error, and the chat answers 500.
    name: "chat: a tenant's JWT on chat answers 500",
    file: 'reference/store/actors.ts',
    within: 'projectUserOf',
    from: "  if (verified.claims.kind !== 'project-user') {",
    to: "  if (verified.claims.kind !== 'project-user') {\n    throw new Error('a token of another kind');",
    only: ['chat.auth.bearer-required'],
  },
  {
    // Stryker's sample (reference/http/chat.ts:65:7): an agent of another project of the
    // token's account answers.
    name: "chat: another project's agent answers the account's users",
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: '      agent.projectId !== user.value.projectId\n',
    to: '      false\n',
    only: ['chat.agent.unknown'],
    decision: 'chat.agent.unknown',
  },
  {
    // Stryker's sample (reference/http/chat.ts:74:11, now reference/chat/request.ts): the 404
    // of an unknown agent_version no longer names the body field.
    name: 'chat: an unknown agent_version is refused without its field',
    file: 'reference/chat/request.ts',
    within: 'answeringVersion',
    from: "    field: 'payload.agent_version',\n",
    to: "    field: '',\n",
    only: ['chat.agent.unknown-version'],
    decision: 'errors.not-found.status',
  },
  {
    // Stryker's sample (reference/chat/agent.ts:299:72): a phrase without a digit is never
    // looked up, so `in <value>` on a letters-only value is not recognised.
    name: 'chat grammar: a value filter without a digit never looked up',
    file: 'reference/chat/agent.ts',
    within: 'filterValues',
    from: "p !== '' && !/^\\d+$/.test(p)",
    to: "p !== '' && !/^\\D+$/.test(p)",
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Stryker's sample (reference/chat/agent.ts:299:72): a phrase beginning with a digit is
    // never looked up.
    name: 'chat grammar: a value filter beginning with a digit never looked up',
    file: 'reference/chat/agent.ts',
    within: 'filterValues',
    from: "p !== '' && !/^\\d+$/.test(p)",
    to: "p !== '' && !/^\\d+/.test(p)",
    only: ['chat.thread.keeps-context'],
  },
  {
    // Stryker's sample (reference/chat/agent.ts:68:11): `by year` truncates to dates.
    name: 'chat grammar: the year bucket draws dates, not years',
    file: 'reference/chat/agent.ts',
    within: 'sqlFor',
    from: "        : d.bucket === 'year'\n",
    to: '        : false\n',
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Stryker's sample (reference/chat/grammar.ts:88:24): any column named first is the
    // measure, so `product sales` sums the text column and the query fails.
    name: 'chat grammar: the first column named is summed, numeric or not',
    file: 'reference/chat/grammar.ts',
    within: 'columnAt',
    from: 'for (const column of columns.filter(where)) {',
    to: 'for (const column of columns.filter(() => where !== undefined)) {',
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Stryker's sample (reference/http/chat.ts:79:7): an agent made without a connection
    // looks for a connection of id null, and the chat answers 404.
    name: 'chat: an agent made without a connection does not reach the seeded orders',
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: '      agent.connectionId === null\n',
    to: '      false\n',
    only: ['chat.auth.token-scopes-data'],
  },
  {
    // Stryker's sample (reference/chat/grammar.ts:160:20): a top N of one digit only, so
    // `top 12` is not read at all.
    name: 'chat grammar: a top N of two digits not read',
    file: 'reference/chat/grammar.ts',
    within: 'readQuestion',
    from: '\\s+(\\d{1,3})\\b(?:',
    to: '\\s+(\\d)\\b(?:',
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Whole chat run (reference/http/chat.ts:53:35, now reference/chat/request.ts): an
    // agent_version of 0 or 1.5 is taken for a version the agent lacks (404) instead of
    // refused as no version (400).
    name: 'chat: an agent_version that cannot be a version is looked up',
    file: 'reference/chat/request.ts',
    within: 'isVersionNumber',
    from: '(v: number) => Number.isSafeInteger(v) && v >= 1;',
    to: '(v: number) => Number.isSafeInteger(v) || v >= 1;',
    only: ['chat.body.agent-version-not-a-version'],
    decision: 'chat.body.agent-version-not-a-version',
  },
  {
    // Whole chat run (reference/http/chat.ts:56:17): the 400 for such a version names no field.
    name: 'chat: the refusal of an agent_version that cannot be a version has no issue path',
    file: 'reference/chat/request.ts',
    within: 'readChatBody',
    from: "invalid(['body', 'payload', 'agent_version'],",
    to: 'invalid([],',
    only: ['chat.body.agent-version-not-a-version'],
    decision: 'chat.body.agent-version-not-a-version',
  },
  {
    // Whole chat run (reference/http/chat.ts:46:58): the last message is the question, whatever
    // its role, so a history of assistant messages only is answered.
    name: 'chat: a history without a user message answers its last message',
    file: 'reference/chat/request.ts',
    within: 'readChatBody',
    from: ".find((m) => m.role === 'user');",
    to: '.find(() => true);',
    only: ['chat.body.no-user-message'],
    decision: 'chat.body.no-user-message',
  },
  {
    // Whole chat run (reference/http/chat.ts:50:17): the 400 for a history without a user
    // message names no field.
    name: 'chat: the refusal of a history without a user message has no issue path',
    file: 'reference/chat/request.ts',
    within: 'readChatBody',
    from: "invalid(['body', 'messages'],",
    to: 'invalid([],',
    only: ['chat.body.no-user-message'],
    decision: 'chat.body.no-user-message',
  },
  {
    // Whole chat run (reference/chat/agent.ts:27:62): quoting drops apostrophes, so a value
    // holding one (`o'hara`) is looked up without it, never found, and not filtered on.
    name: 'chat grammar: a value with an apostrophe never found',
    file: 'reference/chat/agent.ts',
    within: 'literal',
    from: "`'${value.replaceAll(\"'\", \"''\")}'`",
    to: '`\'${value.replaceAll("\'", "")}\'`',
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Whole chat run (reference/chat/agent.ts:177:14): chartConfig.filters stays empty.
    name: "chat grammar: chartConfig.filters lists none of the chart's filters",
    file: 'reference/chat/agent.ts',
    within: 'chartConfigFor',
    from: '      ...spec.filters.map((f) => ({ field: f.column, value: f.value })),\n',
    to: '',
    only: ['chat.result.fields'],
  },
  {
    // Whole chat run (reference/chat/agent.ts:179:11): the year is not listed as a filter.
    name: 'chat grammar: chartConfig.filters leaves the year out',
    file: 'reference/chat/agent.ts',
    within: 'chartConfigFor',
    from: '...(spec.year === null ? [] : [',
    to: '...(true ? [] : [',
    only: ['chat.result.fields'],
  },
  {
    // Whole chat run (reference/chat/agent.ts:168:13): chartConfig.format is an empty object.
    name: 'chat grammar: chartConfig.format without its members',
    file: 'reference/chat/agent.ts',
    within: 'chartConfigFor',
    from: '    format: {\n      label: titleOf(spec),',
    to: '    format: {},\n    formatMembers: {\n      label: titleOf(spec),',
    only: ['chat.result.fields'],
  },
  {
    // Whole chat run (reference/chat/agent.ts:58:9): sums and averages are not rounded.
    name: 'chat grammar: sums and averages not rounded',
    file: 'reference/chat/agent.ts',
    within: 'sqlFor',
    from: ": m.aggregation === 'sum' || m.aggregation === 'avg'",
    to: ': false',
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Whole chat run (reference/chat/agent.ts:58:54): averages are not rounded.
    name: 'chat grammar: averages not rounded',
    file: 'reference/chat/agent.ts',
    within: 'sqlFor',
    from: "|| m.aggregation === 'avg'",
    to: "|| m.aggregation === ''",
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Whole chat run (reference/chat/agent.ts:302:41): the phrases are joined without commas,
    // so adjacent literals make one string and only a question offering a single phrase is
    // filtered (`in <value> only 2017` offers three).
    name: 'chat grammar: filter phrases looked up as one string',
    file: 'reference/chat/agent.ts',
    within: 'filterValues',
    from: "const list = wanted.map(literal).join(', ');",
    to: "const list = wanted.map(literal).join('');",
    only: ['chat.result.fields'],
  },
  {
    // Whole chat run (reference/chat/grammar.ts:91:46): the first column in table order named
    // anywhere after `by` wins, not the one right after it.
    name: 'chat grammar: the dimension is the first column of the table named after "by"',
    file: 'reference/chat/grammar.ts',
    within: 'columnAt',
    from: '(best === undefined || m.index < best.index)',
    to: '(best === undefined || false)',
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Whole chat run (reference/chat/grammar.ts:109:9): the synonyms apply on every table, so
    // on a table with a sales column and no amount, `sales` names nothing.
    name: 'chat grammar: sales means amount even where no amount column exists',
    file: 'reference/chat/grammar.ts',
    within: 'normalise',
    from: 'if (columns.some((c) => c.name === word)) text = text.replace(re, word);',
    to: 'if (true) text = text.replace(re, word);',
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Whole chat run (reference/chat/grammar.ts:107:14): runs of blanks are kept, so after
    // `average` two blanks stand before the column, which is then not taken as its measure.
    name: 'chat grammar: runs of blanks kept',
    file: 'reference/chat/grammar.ts',
    within: 'normalise',
    from: "    .replace(/\\s+/g, ' ')} `;",
    to: "    .replace(/\\s/g, ' ')} `;",
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Whole chat run (reference/chat/grammar.ts:126:9): an aggregation word without a numeric
    // column after it throws, and the whole question gets a text answer.
    name: 'chat grammar: a measure word without its column breaks the question',
    file: 'reference/chat/grammar.ts',
    within: 'readQuestion',
    from: 'if (hit !== undefined && hit.index <= 1) {\n      measure =',
    to: 'if (true && hit!.index <= 1) {\n      measure =',
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Whole chat run (reference/chat/grammar.ts:152:9): `by` followed by no column throws, and
    // the whole question gets a text answer.
    name: 'chat grammar: "by" without a column breaks the question',
    file: 'reference/chat/grammar.ts',
    within: 'readQuestion',
    from: 'if (hit !== undefined && hit.index <= 1) {\n      dimension = isDate',
    to: 'if (true && hit!.index <= 1) {\n      dimension = isDate',
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Whole chat run (reference/chat/grammar.ts:163:9): the column after a top N replaces the
    // dimension `by` named.
    name: 'chat grammar: the column after a top N overrides "by"',
    file: 'reference/chat/grammar.ts',
    within: 'readQuestion',
    from: '    if (dimension === undefined) {\n      const hit = columnAt(topMatch[2]',
    to: '    if (true) {\n      const hit = columnAt(topMatch[2]',
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Whole chat run (reference/chat/token.ts:21:13, `\s` for `\s+`): `Bearer` followed by
    // two blanks is refused.
    name: 'chat: one blank only after Bearer on chat',
    file: 'reference/http/chat.ts',
    within: 'bearer',
    from: "/^\\s*Bearer\\s+(\\S+)\\s*$/i.exec(header ?? '')",
    to: "/^\\s*Bearer\\s(\\S+)\\s*$/i.exec(header ?? '')",
    only: ['auth.header.format'],
    decision: 'auth.header.format',
  },
  {
    // Whole chat run (reference/chat/token.ts:21:13, no `^`): a header with a word before
    // `Bearer` is taken.
    name: 'chat: anything before Bearer on chat',
    file: 'reference/http/chat.ts',
    within: 'bearer',
    from: "/^\\s*Bearer\\s+(\\S+)\\s*$/i.exec(header ?? '')",
    to: "/\\s*Bearer\\s+(\\S+)\\s*$/i.exec(header ?? '')",
    only: ['auth.header.format'],
    decision: 'auth.header.format',
  },
  {
    // Whole chat run (reference/chat/token.ts:21:13, no `$`): a header with a word after the
    // token is taken.
    name: 'chat: anything after the chat token',
    file: 'reference/http/chat.ts',
    within: 'bearer',
    from: "/^\\s*Bearer\\s+(\\S+)\\s*$/i.exec(header ?? '')",
    to: "/^\\s*Bearer\\s+(\\S+)\\s*/i.exec(header ?? '')",
    only: ['auth.header.format'],
    decision: 'auth.header.format',
  },
  {
    // Whole chat run (reference/http/chat.ts:36:9): a path agentId that is no UUID is not
    // refused, and the chat fails on the missing path value.
    name: 'chat: a path agentId that is no UUID is not refused',
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: '    if (!path.ok) return sendError(reply, path.error);',
    to: '    if (false) return sendError(reply, path.error);',
    only: ['chat.stream.path'],
  },
  {
    // Whole chat run (reference/http/chat.ts:35:46): the issue of a bad path id does not say
    // it is in the path.
    name: 'chat: the issue of a bad path agentId without its place',
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: "parse(ChatPath, req.params, 'path')",
    to: "parse(ChatPath, req.params, '')",
    only: ['chat'],
    decision: 'errors.validation.status',
  },
  {
    // Whole chat run (reference/http/chat.ts:37:44): the issues of a bad body do not say they
    // are in the body.
    name: 'chat: the issues of a bad chat body without their place',
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: "parse(ChatBody, req.body, 'body')",
    to: "parse(ChatBody, req.body, '')",
    only: ['chat'],
    decision: 'errors.validation.status',
  },
  {
    // Whole chat run (reference/http/chat.ts:44:18): the agent_id mismatch issue is not placed
    // in the body.
    name: 'chat: the agent_id mismatch issue without its place',
    file: 'reference/chat/request.ts',
    within: 'readChatBody',
    from: "invalid(['body', 'payload', 'agent_id'],",
    to: "invalid(['', 'payload', 'agent_id'],",
    only: ['chat.body.agent-id-mismatch'],
    decision: 'chat.body.agent-id-mismatch',
  },
  {
    // Whole chat run (reference/http/chat.ts:101:7): requests without a thread_id share one
    // thread per user, so a bare follow-up refines the last chart.
    name: 'chat: requests without a thread_id share a thread',
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: '      body.value.thread_id === undefined\n        ? undefined\n',
    to: '      false\n        ? undefined\n',
    only: ['chat.thread.keeps-context', 'chat.thread.new-thread-context'],
  },
  {
    // Whole chat run (reference/chat/grammar.ts:51:40): `line` and `trend` give type ''.
    name: 'chat grammar: the line type word gives no type',
    file: 'reference/chat/grammar.ts',
    within: 'TYPE_WORDS',
    from: "[/\\b(line|lines|trend|over time)\\b/, 'line'],",
    to: "[/\\b(line|lines|trend|over time)\\b/, '' as ChartType],",
    only: ['chat.result.fields'],
  },
  {
    // Whole chat run (reference/chat/grammar.ts:61:4): the word `sum of` emptied matches at the
    // start of every question, so a numeric column standing first is summed.
    name: 'chat grammar: the first numeric column summed, not the one after "average"',
    file: 'reference/chat/grammar.ts',
    within: 'AGGREGATIONS',
    from: "  ['sum of', 'sum'],\n",
    to: "  ['', 'sum'],\n",
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Whole chat run (reference/chat/grammar.ts:61:14): `sum of` gives no aggregation.
    name: 'chat grammar: "sum of" gives no aggregation',
    file: 'reference/chat/grammar.ts',
    within: 'AGGREGATIONS',
    from: "  ['sum of', 'sum'],\n",
    to: "  ['sum of', '' as Aggregation],\n",
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Whole chat run (reference/chat/grammar.ts:76:41): `by week` gets bucket ''.
    name: 'chat grammar: the week bucket gives no period',
    file: 'reference/chat/grammar.ts',
    within: 'BUCKETS',
    from: "|\\bweekly\\b/, 'week'],",
    to: "|\\bweekly\\b/, '' as Bucket],",
    only: ['chat.result.chart-data-rows'],
  },
  {
    // Whole chat run (reference/chat/grammar.ts:100:26): `units` no longer means quantity.
    name: 'chat grammar: units do not mean quantity',
    file: 'reference/chat/grammar.ts',
    within: 'SYNONYMS',
    from: "[/\\b(units|items)\\b/g, 'quantity'],",
    to: "[/\\b(units|items)\\b/g, ''],",
    only: ['chat.result.chart-data-rows'],
  },
];
