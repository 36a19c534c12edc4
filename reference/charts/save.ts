import { z } from 'zod';
import { SaveFromChatBody } from '../../spec/schemas/chart.ts';
import type { Settings } from '../settings.ts';

/**
 * §4.14 leaves open which save-from-chat fields are mandatory. By default (decision
 * charts.save-from-chat.required-fields) chartConfig alone; a server may require a name too,
 * refusing a body without one before anything is saved.
 */
export function saveFromChatBody(
  rule: Settings['saveFromChatRequired'],
): z.ZodType<z.infer<typeof SaveFromChatBody>> {
  return rule === 'chart-config'
    ? SaveFromChatBody
    : SaveFromChatBody.extend({ name: z.string().min(1) });
}

/** Decision charts.save-from-chat.required-fields: a chart saved with no name takes its title. */
export function savedChartName(name: string | undefined, config: Record<string, unknown>): string {
  const title =
    typeof config['title'] === 'string' && config['title'] !== '' ? config['title'] : null;
  return name ?? title ?? 'Chart from chat';
}
