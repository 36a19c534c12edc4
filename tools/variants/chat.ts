import type { Variant } from './variant.ts';

/**
 * Wrong variants for the chat suites' own checks beyond tools/variants/chat-reference.ts:
 * version pinning, the agent_id check, the rate window's edges, the missing-property decision
 * and the §2.7/§6 shapes every answer is read for. Each must make `eac run --only chat` fail.
 */
export const chatVariants: readonly Variant[] = [
  {
    name: 'chat: agent_version ignored, the latest version always answers',
    file: 'reference/chat/request.ts',
    within: 'answeringVersion',
    from: 'const wanted = pinned ??',
    to: 'const wanted = latest ?? pinned ??',
    only: ['chat'],
  },
  {
    name: 'chat: payload.agent_id not compared with the path',
    file: 'reference/chat/request.ts',
    within: 'readChatBody',
    from: 'if (refuse && payload.agent_id.toLowerCase() !== agentId)',
    to: 'if (refuse && payload.agent_id.length < 0)',
    only: ['chat'],
  },
  {
    name: 'chat: the rate window never starts again',
    file: 'reference/chat/rate.ts',
    within: 'takeChatSlot',
    from: "if (window?.kind !== 'fixed' || window.start !== start) {",
    to: "if (window?.kind !== 'fixed') {",
    only: ['chat'],
  },
  {
    name: 'chat: the rate limit lets the 181st request through',
    file: 'reference/chat/rate.ts',
    within: 'takeChatSlot',
    from: 'if (window.count < CHAT_RATE_LIMIT) {',
    to: 'if (window.count <= CHAT_RATE_LIMIT) {',
    only: ['chat'],
  },
  {
    name: 'chat: a missing property found only once the stream runs',
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: 'if (lacking !== undefined) return sendError(reply, missingProperty(lacking.property));',
    to: 'if (lacking === null) return sendError(reply, missingProperty(String(lacking)));',
    only: ['chat'],
  },
  {
    name: 'chat: a chat result without generatedChartRef',
    file: 'reference/chat/events.ts',
    within: 'answerEvents',
    from: '        generatedChartRef: context.chartRef,\n',
    to: '',
    only: ['chat'],
  },
  {
    name: 'chat: text-delta text sent as an array',
    file: 'reference/chat/events.ts',
    within: 'textEvents',
    from: "({ type: 'text-delta', payload: { text: t } })",
    to: "({ type: 'text-delta', payload: { text: [t] } })",
    only: ['chat'],
  },
  {
    name: 'chat: without agent_version the first version answers, not the latest',
    file: 'reference/chat/request.ts',
    within: 'answeringVersion',
    from: 'const latest = versions[versions.length - 1] ?? 1;',
    to: 'const latest = versions[0] ?? 1;',
    only: ['chat.body.agent-version-default-latest'],
  },
  // Every position of a thread (issue 34): the second, third and later messages get what the
  // first gets, and the context is the latest chart's, however many came before.
  {
    name: "chat: from a thread's third message on, agent_version is ignored",
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: '      agent.versions,\n      reading.pinned,\n',
    to: '      agent.versions,\n      (thread?.charts ?? 0) >= 2 ? undefined : reading.pinned,\n',
    only: ['chat.body.agent-version-optional'],
  },
  {
    name: 'chat: a follow-up in a thread that pins no version gets the oldest, not the latest',
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: '      agent.versions,\n      reading.pinned,\n',
    to: '      agent.versions,\n      reading.pinned ?? (thread !== undefined ? agent.versions[0] : undefined),\n',
    only: ['chat.body.agent-version-default-latest'],
  },
  {
    name: 'chat: a thread remembers its first two charts only, later follow-ups refer to the second',
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: "if (said.kind === 'chart') remember(",
    to: "if (said.kind === 'chart' && (thread?.charts ?? 0) < 2) remember(",
    only: ['chat.thread.keeps-context'],
    kind: 'stale-cache',
  },
  {
    name: 'chat: after two charts in a thread, an answer never completes its text message',
    file: 'reference/http/chat.ts',
    within: 'chatRoutes',
    from: '      chartRef,\n    }))\n      open.send(event);',
    to: "      chartRef,\n    }).filter((e) => (thread?.charts ?? 0) < 2 || e.type !== 'text-end'))\n      open.send(event);",
    only: ['events.text.closed'],
  },
];
