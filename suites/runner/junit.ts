/**
 * JUnit XML for CI systems: one `<testsuite>` per area. Probes are passing test cases with the
 * observation in `<system-out>`, so a CI gate never fails on a probe; not-run is `<skipped>`.
 */
import type { Result, Results } from '../../reports/schema.ts';
import { escapeXml as x } from './escape.ts';
import { coverageLine } from './outline.ts';

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function caseName(result: Result): string {
  return result.clauses.length > 0 ? `${result.name} {${result.clauses.join(' ')}}` : result.name;
}

function testcase(result: Result): string {
  const open = `    <testcase classname="${x(`eac.${result.area}`)}" name="${x(caseName(result))}" file="${x(result.file)}" time="${seconds(result.durationMs)}"`;
  const body: string[] = [];
  switch (result.outcome) {
    case 'fail': {
      const message = result.reason ?? 'failed';
      const firstLine = message.split(/\r?\n/, 1)[0] ?? message;
      body.push(
        `      <failure message="${x(firstLine)}" type="AssertionError">${x(`${message}\n\nreplay: ${result.replay}`)}</failure>`,
      );
      break;
    }
    case 'not-run':
      body.push(`      <skipped message="${x(result.reason ?? 'not run')}"/>`);
      break;
    case 'probe': {
      const lines =
        result.observations !== undefined && result.observations.length > 0
          ? result.observations.map(
              (o) =>
                `probe${o.endpoint !== undefined ? ` (${o.endpoint})` : ''}: ${o.observation} [${o.matchesDecision ? 'matches the decision' : 'departs from the decision'}]`,
            )
          : [`probe: ${result.reason ?? '(no observation recorded)'}`];
      if (result.decision !== undefined) lines.push(`reference decision: ${result.decision}`);
      body.push(`      <system-out>${x(lines.join('\n'))}</system-out>`);
      break;
    }
    case 'pass':
      break;
  }
  return body.length === 0 ? `${open}/>` : `${open}>\n${body.join('\n')}\n    </testcase>`;
}

export function renderJunit(run: Results): string {
  const { summary } = run;
  // Run-wide facts go on every suite: the JUnit schema has no properties on <testsuites>.
  const properties = [
    ['seed', String(run.seed)],
    ['target', run.target.baseUrl],
    ['hub', run.target.hubUrl],
    ['implementation', run.target.implementation ?? 'unknown'],
    ['profile', run.profile.source],
    ['parts-served', run.profile.serves.join(' ')],
    ['coverage', coverageLine(run)],
  ].map(([name = '', value = '']) => `      <property name="${x(name)}" value="${x(value)}"/>`);
  const areas = new Map<string, Result[]>();
  for (const result of run.results) {
    const list = areas.get(result.area) ?? [];
    list.push(result);
    areas.set(result.area, list);
  }
  const suites = [...areas.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([area, results]) => {
      const failures = results.filter((r) => r.outcome === 'fail').length;
      const skipped = results.filter((r) => r.outcome === 'not-run').length;
      const time = results.reduce((sum, r) => sum + r.durationMs, 0);
      return [
        `  <testsuite name="${x(area)}" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(time)}" timestamp="${x(run.startedAt)}">`,
        '    <properties>',
        ...properties,
        '    </properties>',
        ...results.map(testcase),
        '  </testsuite>',
      ].join('\n');
    });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="eac" tests="${summary.total}" failures="${summary.fail}" errors="0" skipped="${summary.notRun}" time="${seconds(run.durationMs)}" timestamp="${x(run.startedAt)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
