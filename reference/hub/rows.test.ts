import { describe, expect, it } from 'vitest';
import { hookAccount, postData, referenceForTests } from '../test-client.ts';

// What a chart shows when it cannot load (decision hub.chart.unloadable): its config's fields
// as the head of an empty table. A config may name dimensions only, measures only, or neither
// (§2.6: both lists are optional), and a reference in them may lack its field.

describe('hub rows of an unloadable chart', () => {
  const ref = referenceForTests({ hooks: true, seed: 1313 });

  const post = postData;

  it('heads the table with the fields the config names, whichever lists it has', async () => {
    const { org, userToken } = await hookAccount(ref);
    const ws = await post(`${ref.hooks}/accounts/${org}/workspaces`, { name: 'Sales' });
    const boardId = String(ws['dashboardId']);
    const field = (f: string) => ({ name: f, field: f, label: f, format: '' });
    const configs: Record<string, Record<string, unknown>> = {
      // A field reference may name no field (§2.6): it heads no column.
      'Dimensions only': { dimensions: [{ name: 'unnamed' }, field('region')] },
      'Measures only': { measures: [field('total')] },
      Neither: {},
    };
    for (const [title, config] of Object.entries(configs))
      await post(`${ref.hooks}/accounts/${org}/dashboards/${boardId}/charts`, {
        name: title,
        chartConfig: { title, type: 'bar', ...config },
      });
    const token = await userToken();
    const res = await fetch(
      `${ref.running.hubUrl}/share/dashboard/${boardId}?jwt=${String(token)}`,
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    const head = (title: string) => {
      const at = html.indexOf(`<figure role="figure" aria-label="${title}"`);
      expect(at, title).toBeGreaterThan(-1);
      const fig = html.slice(at, html.indexOf('</figure>', at));
      return [...fig.matchAll(/<th\b[^>]*>(.*?)<\/th>/g)].map((m) => m[1]);
    };
    expect(head('Dimensions only')).toEqual(['region']);
    expect(head('Measures only')).toEqual(['total']);
    expect(head('Neither')).toEqual([]);
  });
});
