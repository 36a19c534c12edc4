import type { AgentAnswer } from './agent.ts';
import { ASK_FOR_A_QUESTION } from './request.ts';

/** One event of the chat stream (§6): `{type, payload?}`, written as a `data: {json}` line. */
export interface ChatStreamEvent {
  readonly type: string;
  readonly payload?: Record<string, unknown>;
}

export const sseLine = (event: ChatStreamEvent) => `data: ${JSON.stringify(event)}\n\n`;

/** Splits text into a few deltas, a handful of words each, that join back to it exactly. */
export function deltas(text: string, words = 4): string[] {
  // Blanks before the first word ride with it.
  const parts = text.match(/\s*\S+\s*/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < parts.length; i += words) out.push(parts.slice(i, i + words).join(''));
  return out.length === 0 ? [text] : out;
}

export function textEvents(text: string): ChatStreamEvent[] {
  return [
    { type: 'text-start' },
    ...deltas(text).map((t) => ({ type: 'text-delta', payload: { text: t } })),
    { type: 'text-end' },
  ];
}

/**
 * The events that follow the opening `start-step` of an answer (§6): for a chart, the
 * generateSql and generateChart tool calls each followed by its result (the generateChart
 * result is the chat result of §2.7), then the text in a second step; otherwise the text only.
 * The generateSql payloads name the agent version that answered (a reference choice, for
 * pinning tests).
 */
export function answerEvents(
  answer: AgentAnswer,
  context: { agentVersion: number; question: string; chartRef: string },
): ChatStreamEvent[] {
  if (answer.kind === 'text') {
    return [
      ...textEvents(answer.text),
      { type: 'finish-step' },
      {
        type: 'finish',
        payload: { finishReason: 'stop' },
      },
    ];
  }
  const { agentVersion } = context;
  const sqlCall: ChatStreamEvent = {
    type: 'tool-call',
    payload: {
      toolName: 'generateSql',
      toolCallId: 'call-sql',
      agentVersion,
      args: { question: context.question },
    },
  };
  const sqlResult: ChatStreamEvent = {
    type: 'tool-result',
    payload: {
      toolName: 'generateSql',
      toolCallId: 'call-sql',
      agentVersion,
      result: { sql: answer.sql, agentVersion },
    },
  };
  const chartCall: ChatStreamEvent = {
    type: 'tool-call',
    payload: {
      toolName: 'generateChart',
      toolCallId: 'call-chart',
      args: { sql: answer.sql },
    },
  };
  const chartResult: ChatStreamEvent = {
    type: 'tool-result',
    payload: {
      toolName: 'generateChart',
      toolCallId: 'call-chart',
      result: {
        chartConfig: answer.chartConfig,
        chartData: answer.chartData,
        generatedChartRef: context.chartRef,
        explanation: answer.explanation,
      },
    },
  };
  return [
    ...[sqlCall, sqlResult, chartCall, chartResult],
    { type: 'finish-step' },
    { type: 'start-step' },
    ...textEvents(answer.text),
    { type: 'finish-step' },
    {
      type: 'finish',
      payload: { finishReason: 'stop' },
    },
  ];
}

/** The answer to a history with no question (settings chatRequests 'answer'): text only. */
export function askEvents(agentVersion: number): ChatStreamEvent[] {
  return [
    { type: 'start', payload: { agentVersion } },
    ...textEvents(ASK_FOR_A_QUESTION),
    { type: 'finish', payload: { finishReason: 'stop' } },
  ];
}
