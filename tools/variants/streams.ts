import type { Variant } from './variant.ts';

/**
 * Wrong variants of the reference's stream writer (reference/chat/events.ts) that break §6 at
 * the second text message only: the first message of a chart answer stays whole, so a check
 * that looked at the first message alone would pass them. The reference's chart answers carry
 * one text message, so each variant adds a second one (the chart's explanation) and breaks it.
 */
const FROM = "    { type: 'start-step' },\n    ...textEvents(answer.text),\n";
const second = (events: string) => `${FROM}    ...${events},\n`;

export const streamsVariants: readonly Variant[] = [
  {
    name: 'streams: the second message opens with a delta (no text-start)',
    file: 'reference/chat/events.ts',
    within: 'answerEvents',
    from: FROM,
    to: second('textEvents(answer.explanation).slice(1)'),
    only: ['chat'],
  },
  {
    name: 'streams: the second message never completed (no text-end)',
    file: 'reference/chat/events.ts',
    within: 'answerEvents',
    from: FROM,
    to: second('textEvents(answer.explanation).slice(0, -1)'),
    only: ['chat'],
  },
  {
    name: 'streams: a delta of the second message whose text is no string',
    file: 'reference/chat/events.ts',
    within: 'answerEvents',
    from: FROM,
    to: second(
      "[{ type: 'text-start' }, { type: 'text-delta', payload: { text: answer.explanation.length } }, { type: 'text-end' }]",
    ),
    only: ['chat'],
  },
  {
    // §6 does not say a delta must sit inside a message: only the probe of our decision sees it.
    name: "streams: the second message's deltas outside any message (no text-start, no text-end)",
    file: 'reference/chat/events.ts',
    within: 'answerEvents',
    from: FROM,
    to: second('textEvents(answer.explanation).slice(1, -1)'),
    only: ['chat'],
    decision: 'events.text.bracketing',
  },
];
