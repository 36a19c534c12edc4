/**
 * JUnit XML for CI systems: one `<testsuite>` per area. Probes are passing test cases with the
 * observation in `<system-out>`, so a CI gate never fails on a probe; not-run is `<skipped>`, and
 * so is a probe-error (a probe that broke while recording), its message saying so.
 * With an expectations file (like pytest's xfail): an expected failure is `<skipped>` with the
 * failure in `<system-out>`, and an unexpected pass or other unexpected outcome is a `<failure>`.
 * Each gate of the run (expectations, `--max-not-run`, `--min-coverage`) is a test case of a
 * `gates` suite, named after the gate, a `<failure>` when breached.
 */
import { verdictOf, type Result, type Results } from './schema.ts';
import { escapeXml as x } from './escape.ts';
import { coverageLine, NO_HUB_SHOWN } from './outline.ts';

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function caseName(result: Result): string {
  return result.clauses.length > 0 ? `${result.name} {${result.clauses.join(' ')}}` : result.name;
}

/** How the case shows in JUnit: what a CI test tab counts as a failure or a skip. */
function shownAs(result: Result): 'failure' | 'skipped' | 'other' {
  const verdict = verdictOf(result);
  if (verdict === 'expected-fail') return 'skipped';
  if (verdict !== 'ok') return 'failure';
  return result.outcome === 'not-run' || result.outcome === 'probe-error' ? 'skipped' : 'other';
}

function firstLineOf(text: string): string {
  return text.split(/\r?\n/, 1)[0] ?? text;
}

function expectationText(result: Result): string {
  const e = result.expected;
  if (e === undefined) return '';
  return `expected ${e.outcome}${e.by !== 'test' ? ` (by clause ${e.by})` : ''}: ${e.reason}${e.issue !== undefined ? ` (${e.issue})` : ''}`;
}

function testcase(result: Result): string {
  const open = `    <testcase classname="${x(`eac.${result.area}`)}" name="${x(caseName(result))}" file="${x(result.file)}" time="${seconds(result.durationMs)}"`;
  const body: string[] = [];
  const verdict = verdictOf(result);
  if (verdict === 'expected-fail') {
    body.push(
      `      <skipped message="${x(`expected failure: ${result.expected?.reason ?? ''}`)}"/>`,
      `      <system-out>${x(`${result.reason ?? 'failed'}\n\n${expectationText(result)}\nreplay: ${result.replay}`)}</system-out>`,
    );
    return `${open}>\n${body.join('\n')}\n    </testcase>`;
  }
  if (verdict === 'unexpected-pass' || verdict === 'unexpected-other') {
    const what = `${verdict === 'unexpected-pass' ? 'unexpected pass' : 'unexpected outcome'}: ${result.outcome}, ${expectationText(result)}`;
    body.push(
      `      <failure message="${x(what.split(/\r?\n/, 1)[0] ?? what)}" type="${verdict === 'unexpected-pass' ? 'UnexpectedPass' : 'UnexpectedOutcome'}">${x(`${what}\n${result.reason ?? ''}\n\nreplay: ${result.replay}`)}</failure>`,
    );
    return `${open}>\n${body.join('\n')}\n    </testcase>`;
  }
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
    case 'probe-error': {
      // Not the target's failure: a skip that names what broke, so CI shows it without failing.
      const message = result.reason ?? 'probe-error';
      body.push(
        `      <skipped message="${x(firstLineOf(message.startsWith('probe-error') ? message : `probe-error: ${message}`))}"/>`,
        `      <system-out>${x(`${message}\n\nreplay: ${result.replay}`)}</system-out>`,
      );
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
    ['hub', run.target.hubUrl ?? NO_HUB_SHOWN],
    ['implementation', run.target.implementation ?? 'unknown'],
    ['profile', run.profile.source],
    ['parts-served', run.profile.serves.join(' ')],
    ['coverage', coverageLine(run)],
    ...(run.interrupted === true ? [['interrupted', 'true']] : []),
    ...(run.gate !== undefined
      ? [
          ['expectations', run.gate.expectationsFile],
          ['expected-failures', String(run.gate.expectedFailures)],
          ['unexpected', String(run.gate.unexpected)],
        ]
      : []),
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
      const failures = results.filter((r) => shownAs(r) === 'failure').length;
      const skipped = results.filter((r) => shownAs(r) === 'skipped').length;
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
  // The gates are test cases of their own, so a breached one fails the CI test tab too.
  const gates = run.gates ?? [];
  const breached = gates.filter((g) => g.breached).length;
  if (gates.length > 0)
    suites.push(
      [
        `  <testsuite name="gates" tests="${gates.length}" failures="${breached}" errors="0" skipped="0" time="0.000" timestamp="${x(run.startedAt)}">`,
        ...gates.map((g) => {
          const open = `    <testcase classname="eac.gates" name="${x(g.name)}" time="0.000"`;
          return g.breached
            ? `${open}>\n      <failure message="${x(g.detail)}" type="GateBreached">${x(`${g.name}: ${g.detail}`)}</failure>\n    </testcase>`
            : `${open}/>`;
        }),
        '  </testsuite>',
      ].join('\n'),
    );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="eac" tests="${summary.total + gates.length}" failures="${run.results.filter((r) => shownAs(r) === 'failure').length + breached}" errors="0" skipped="${run.results.filter((r) => shownAs(r) === 'skipped').length}" time="${seconds(run.durationMs)}" timestamp="${x(run.startedAt)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
