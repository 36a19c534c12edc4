import type { Variant } from './variant.ts';

/**
 * Wrong variants for the chat suites' own checks beyond tools/variants/chat-reference.ts:
 * version pinning, the agent_id check, the rate window's edges, the missing-property decision
 * and the §2.7/§6 shapes every answer is read for. Each must make `eac run --only chat` fail.
 */
export const chatVariants: readonly Variant[] = [
  {
    name: 'chat: agent_version ignored, the latest version always answers',
    file: 'reference/http/chat.ts',
    from: 'const agentVersion = version ?? agent.versions[agent.versions.length - 1] ?? 1;',
    to: 'const agentVersion = agent.versions[agent.versions.length - 1] ?? version ?? 1;',
    only: ['chat'],
  },
  {
    name: 'chat: payload.agent_id not compared with the path',
    file: 'reference/http/chat.ts',
    from: 'if (payload.agent_id.toLowerCase() !== agentId)',
    to: 'if (payload.agent_id.length < 0)',
    only: ['chat'],
  },
  {
    name: 'chat: the rate window never starts again',
    file: 'reference/chat/rate.ts',
    from: 'if (window === undefined || window.start !== start) {',
    to: 'if (window === undefined) {',
    only: ['chat'],
  },
  {
    name: 'chat: the rate limit lets the 181st request through',
    file: 'reference/chat/rate.ts',
    from: 'if (window.count < CHAT_RATE_LIMIT) {',
    to: 'if (window.count <= CHAT_RATE_LIMIT) {',
    only: ['chat'],
  },
  {
    name: 'chat: a missing property found only once the stream runs',
    file: 'reference/http/chat.ts',
    from: 'if (lacking !== undefined) return sendError(reply, missingProperty(lacking.property));',
    to: 'if (lacking === null) return sendError(reply, missingProperty(String(lacking)));',
    only: ['chat'],
  },
  {
    name: 'chat: a chat result without generatedChartRef',
    file: 'reference/chat/events.ts',
    from: '        generatedChartRef: context.chartRef,\n',
    to: '',
    only: ['chat'],
  },
  {
    name: 'chat: text-delta text sent as an array',
    file: 'reference/chat/events.ts',
    from: "({ type: 'text-delta', payload: { text: t } })",
    to: "({ type: 'text-delta', payload: { text: [t] } })",
    only: ['chat'],
  },
  {
    name: 'chat: without agent_version the first version answers, not the latest',
    file: 'reference/http/chat.ts',
    from: 'const agentVersion = version ?? agent.versions[agent.versions.length - 1] ?? 1;',
    to: 'const agentVersion = version ?? agent.versions[0] ?? 1;',
    only: ['chat.body.agent-version-default-latest'],
  },
];
