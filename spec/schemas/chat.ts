import { z } from 'zod';
import { Uuid } from './common.ts';
import { ChartConfig } from './chart.ts';

export const ChatPath = z.object({ agentId: Uuid });

/** §4.15 */
export const ChatBody = z.object({
  messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string() })),
  thread_id: z.string().optional(),
  payload: z.object({ agent_id: z.string(), agent_version: z.number().optional() }),
});
export type ChatBody = z.infer<typeof ChatBody>;

/** §2.7 */
export const ChatResult = z.object({
  chartConfig: ChartConfig,
  chartData: z.array(z.record(z.string(), z.unknown())),
  generatedChartRef: z.string(),
  explanation: z.string(),
});
export type ChatResult = z.infer<typeof ChatResult>;

/** §6: the event types a client must understand. */
export const KnownChatEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text-start') }),
  z.object({ type: z.literal('text-delta'), payload: z.object({ text: z.string() }) }),
  z.object({ type: z.literal('text-end') }),
  z.object({ type: z.literal('tool-call'), payload: z.looseObject({ toolName: z.string() }) }),
  z.object({
    type: z.literal('tool-result'),
    payload: z.looseObject({ toolName: z.string(), result: z.unknown() }),
  }),
]);
export const KNOWN_EVENT_TYPES = [
  'text-start',
  'text-delta',
  'text-end',
  'tool-call',
  'tool-result',
];

/** §6: other types may appear (workflow steps, finish markers); clients skip them. */
export const OtherChatEvent = z.looseObject({ type: z.string() });
export const ChatEvent = z.union([KnownChatEvent, OtherChatEvent]);
export type ChatEvent = z.infer<typeof ChatEvent>;
