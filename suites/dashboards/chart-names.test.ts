import { buildWorld } from '../harness/given/accounts.ts';
import { probe } from '../harness/conformance.ts';
import { describeAnswer } from '../harness/expect.ts';
import { v1Post } from '../harness/given/dashboards.ts';
import { SAVE_FROM_CHAT } from '../harness/paths.ts';

// §4.14 leaves open which save-from-chat fields are required; decision
// charts.save-from-chat.required-fields: only chartConfig, and a chart saved with no name is
// called after chartConfig.title, or 'Chart from chat' when there is no title either.
const parts = ['v1-dashboards'] as const;

probe(
  ['charts.save-from-chat.required-fields'],
  "a chart saved with neither a name nor a chartConfig.title is called 'Chart from chat'",
  async (t) => {
    const w = await buildWorld(t);
    const res = await v1Post(t, SAVE_FROM_CHAT, w.creds().apiKey, {
      chartConfig: { type: 'bar', sqlOverride: 'SELECT 1 AS n' },
    });
    const name = (res.body as { data?: { name?: unknown } }).data?.name;
    t.observe(
      `${describeAnswer(res)} name=${JSON.stringify(name)}`,
      res.status === 200 && name === 'Chart from chat',
    );
  },
  { needs: ['accounts'], parts },
);
