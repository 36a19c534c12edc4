import { defineClauses } from './types.ts';

// §6: the event grammar of the chat stream.
export const s6 = defineClauses([
  {
    id: 'events.stream.line-format',
    section: '6',
    level: 'must',
    summary: "Each event is one 'data: ' line holding JSON, lines split by newlines.",
  },
  {
    id: 'events.stream.type-field',
    section: '6',
    level: 'must',
    summary: 'Every event object has a type field.',
  },
  {
    id: 'events.text-start',
    section: '6',
    level: 'must',
    summary: 'text-start, with no payload, opens a new assistant message.',
  },
  {
    id: 'events.text-delta',
    section: '6',
    level: 'must',
    summary: 'text-delta carries the next piece of assistant text in payload.text, a string.',
  },
  {
    id: 'events.text-end',
    section: '6',
    level: 'must',
    summary: 'text-end, with no payload, closes the open assistant message.',
  },
  {
    id: 'events.text.closed',
    section: '6',
    level: 'must',
    summary:
      'A text-end completes a message that a text-start opened, and every message opened is completed before the stream ends.',
  },
  {
    id: 'events.text.bracketing',
    section: '6',
    level: 'unspecified',
    summary:
      'Whether text-delta events always sit between a text-start and a text-end is left open.',
    decision:
      'Always: every text-delta follows a text-start and precedes the matching text-end; messages do not nest.',
  },
  {
    id: 'events.tool-call',
    section: '6',
    level: 'must',
    summary: 'tool-call tells that the agent began a tool, named in payload.toolName.',
  },
  {
    id: 'events.tool-names.examples',
    section: '6',
    level: 'observed',
    summary: 'Tool names generateSql and generateChart appear.',
  },
  {
    id: 'events.tool-result',
    section: '6',
    level: 'must',
    summary: 'tool-result tells that a tool ended, with payload.toolName and payload.result.',
  },
  {
    id: 'events.tool-result.after-call',
    section: '6',
    level: 'must',
    summary:
      'A tool-result ends a tool that an earlier tool-call of the same toolName started and no result has ended yet.',
  },
  {
    id: 'events.tool-call.answered',
    section: '6',
    level: 'unspecified',
    summary:
      'Whether every tool-call is followed by its tool-result within the stream is left open.',
    decision:
      'Always: every tool-call gets a tool-result of the same toolName before the stream ends, generateSql before generateChart.',
  },
  {
    id: 'events.tool-result.generate-chart',
    section: '6',
    level: 'must',
    summary: 'For generateChart, the tool-result payload.result is a §2.7 chat result.',
  },
  {
    id: 'events.other-types.allowed',
    section: '6',
    level: 'must',
    summary:
      'Streams may hold further types (workflow steps, finish markers); clients skip unknown types.',
  },
  {
    id: 'events.non-data-lines',
    section: '6',
    level: 'must',
    summary: "A line that does not begin with 'data: ' carries no event.",
  },
  {
    id: 'events.stream.sse-framing',
    section: '6',
    level: 'unspecified',
    summary:
      'Whether an empty line follows each data line (Server-Sent Events framing, one message per event) is left open.',
    decision:
      "Yes: each event is written as 'data: {json}' followed by an empty line, so a standard EventSource parser sees one message per event.",
  },
  {
    id: 'events.stream.end',
    section: '6',
    level: 'unspecified',
    summary: 'How the end of a chat stream is marked is left open.',
    decision: "The reference sends a final {type: 'finish'} event, then closes the response.",
  },
  {
    id: 'events.webhooks',
    section: '6',
    level: 'unspecified',
    summary: 'Outbound notifications to the customer are left open.',
    decision: 'The reference sends no webhooks.',
  },
]);
