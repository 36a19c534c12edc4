import { z } from 'zod';
import { CredentialFields, success, Uuid } from './common.ts';

const FieldRef = z.looseObject({
  name: z.string().optional(),
  field: z.string().optional(),
  label: z.string().optional(),
  format: z.string().optional(),
});

/**
 * §2.6: what the agent's chart tool produces and save-from-chat accepts. Allowed values are
 * not shown, so every member is optional and unknown members are kept (the chat output is
 * seen to carry more, e.g. a dimension's type and bucketing, a measure's aggregation).
 */
export const ChartConfig = z.looseObject({
  title: z.string().optional(),
  type: z.string().optional(),
  dimensions: z.array(FieldRef).optional(),
  measures: z.array(FieldRef).optional(),
  format: z
    .looseObject({
      label: z.string().optional(),
      formatOptions: z.string().optional(),
      formatLocale: z.string().optional(),
      labelSuffix: z.string().optional(),
      labelPrefix: z.string().optional(),
      dateFormat: z.string().optional(),
    })
    .optional(),
  comparisons: z
    .array(z.object({ name: z.string(), measure: z.string(), customPeriod: z.number() }))
    .optional(),
  mapConfig: z.object({ latitude: z.string(), longitude: z.string() }).optional(),
  filters: z.array(z.object({ field: z.string(), value: z.string() })).optional(),
  havingFilters: z
    .array(
      z.object({
        field: z.string(),
        operator: z.string(),
        value: z.string(),
        aggregation: z.string(),
      }),
    )
    .optional(),
  settings: z
    .looseObject({
      secondYAxis: z.boolean().optional(),
      colors: z.array(z.string()).optional(),
      legend: z.boolean().optional(),
      legendPosition: z.string().optional(),
      stacking: z.boolean().optional(),
      showDataLabels: z.boolean().optional(),
      enableLegendSlider: z.boolean().optional(),
      showAxisLabels: z.boolean().optional(),
      debug: z.boolean().optional(),
      pageSize: z.number().optional(),
      sliceLimit: z.number().optional(),
    })
    .optional(),
  orderBy: z.array(z.object({ field: z.string() })).optional(),
  /** Must survive saving, or the saved chart cannot load its data. */
  sqlOverride: z.string().optional(),
});
export type ChartConfig = z.infer<typeof ChartConfig>;

/** §4.14 */
export const SaveFromChatBody = z.object({
  ...CredentialFields,
  organizationId: z.string().optional(),
  chartConfig: ChartConfig,
  connectionId: Uuid.optional(),
  sql: z.string().optional(),
  agentId: Uuid.optional(),
  name: z.string().optional(),
  thumbnail: z.string().optional(),
});
export const SaveFromChatResponse = success(z.object({ chartId: z.string(), name: z.string() }));
