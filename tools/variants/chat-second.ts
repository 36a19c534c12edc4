import type { Variant } from './variant.ts';

/**
 * Wrong variants of the second chat agent (reference/chat/second-agent.ts, latitude entry
 * chat.second-agent): the faults an agent whose words the suites cannot predict may have, to be
 * caught by the checks that hold for any agent (suites/chat). Each runs with the second agent on.
 */
const second = { only: ['chat'], latitude: ['chat.second-agent'] } as const;

export const chatSecondVariants: readonly Variant[] = [
  {
    name: 'chat second agent: the last row filter dropped from its scope (its SQL and its queries)',
    file: 'reference/chat/second-agent.ts',
    within: 'scopeOf',
    from: 'const rowFilters = rowFiltersOf(connection).filter((r) =>',
    to: 'const rowFilters = rowFiltersOf(connection).slice(0, -1).filter((r) =>',
    kind: 'sibling',
    ...second,
  },
  {
    name: "chat second agent: a thread's context dropped, the follow-up answered as a new question",
    file: 'reference/chat/second-agent.ts',
    within: 'plainAnswer',
    from: 'const plan = await settleOne(last, context);',
    to: 'const plan = await settleOne(last, undefined);',
    ...second,
  },
  {
    name: 'chat second agent: agent_version ignored, the latest version reported',
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: '        version: agentVersion,\n',
    to: '        version: agent.versions[agent.versions.length - 1] ?? agentVersion,\n',
    ...second,
  },
  {
    name: 'chat second agent: chartData one row short of what its SQL returns',
    file: 'reference/chat/second-agent.ts',
    within: 'plainAnswer',
    from: '    chartData: rows.value.rows,\n',
    to: '    chartData: rows.value.rows.slice(0, -1),\n',
    ...second,
  },
  {
    // Rounding to whole numbers is within the suites' stated tolerance at the table's
    // amounts (a millionth of millions): values off by a unit of measure are not.
    name: 'chat second agent: chartData values in thousands while its SQL yields units',
    file: 'reference/chat/second-agent.ts',
    within: 'plainAnswer',
    from: '    chartData: rows.value.rows,\n',
    to: "    chartData: rows.value.rows.map((r) => ({ ...r, value: typeof r['value'] === 'number' ? r['value'] / 1000 : r['value'] })),\n",
    kind: 'encoding',
    ...second,
  },
  {
    name: 'chat second agent: a thread remembers its first chart only, follow-ups refer to it',
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: "if (plain.kind === 'chart') remember(",
    to: "if (plain.kind === 'chart' && thread?.plan === undefined) remember(",
    kind: 'stale-cache',
    ...second,
    only: ['chat.thread.keeps-context'],
  },
];
