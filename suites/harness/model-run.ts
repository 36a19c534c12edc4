/**
 * The one small command runner of the model-based runs (STYLE 7, issue 34): commands are data,
 * each with a precondition on the model, the call, and the model's verdict on it, reached
 * before the call: allowed (then what the answer must show, and the model's next state), or
 * refused. A refusal of the model is an expected refusal of the target: a 4xx in the §7
 * envelope, with the status and code where the document fixes them (§7), and the decided code
 * only against the reference. After every command the area compares what the document fixes
 * of the whole world with the model (`inStep`), so a refused request that changed something is
 * caught too. This module knows no machine: the areas' model files bring their own.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Conformance } from './conformance.ts';
import { expectClientError, expectError, successStatus } from './expect.ts';
import type { Reply } from './http.ts';

/** What the model says of a command before it is sent. */
export type Verdict =
  | {
      readonly kind: 'allowed';
      /** The status the document shows for a success; any 2xx where it shows none. */
      readonly status?: number;
      /** Compares the answer with the model and moves the model on; runs only on a success. */
      readonly then?: (res: Reply) => Promise<void> | void;
    }
  | {
      readonly kind: 'refused';
      /**
       * The model's code (spec/errors.ts), compared with the target's only on the reference;
       * none where the model refuses before any machine would (another account's path).
       */
      readonly code?: string;
      /** The status §7 gives the code, when it gives one: then status and code are compared. */
      readonly documented?: number;
      /** Why the model refuses, for the failure message. */
      readonly why: string;
      /** What else the document fixes of this refusal (a 410's named endpoint), checked last. */
      readonly also?: (res: Reply) => void;
    };

/** A command that calls the target and is judged against the model's verdict. */
export interface CallCommand<M, R> {
  readonly kind: 'call';
  readonly label: string;
  /** False leaves the command out: the model holds nothing it could aim at, or no verdict. */
  readonly pre: (m: Readonly<M>) => boolean;
  readonly verdict: (m: M, r: R) => Verdict;
  readonly call: (m: M, r: R) => Promise<Reply>;
}

/** A command that changes the world through the host hooks (not judged), and the model alike. */
export interface WorldCommand<M, R> {
  readonly kind: 'world';
  readonly label: string;
  readonly pre: (m: Readonly<M>) => boolean;
  readonly act: (m: M, r: R) => Promise<void>;
}

/**
 * A command that looks at the target other than by one call (a hub page in a browser) and
 * compares what it sees with the model itself.
 */
export interface LookCommand<M, R> {
  readonly kind: 'look';
  readonly label: string;
  readonly pre: (m: Readonly<M>) => boolean;
  readonly look: (m: M, r: R) => Promise<void>;
}

export type ModelCommand<M, R> = CallCommand<M, R> | WorldCommand<M, R> | LookCommand<M, R>;

/** Runs and commands per area: a fixed budget, printed with the results. */
export interface Budget {
  readonly runs: number;
  readonly commands: number;
}

export interface ModelArea<M, R> {
  /** The area's name, as the budget line prints it. */
  readonly area: string;
  readonly budget: Budget;
  readonly commands: readonly fc.Arbitrary<ModelCommand<M, R>>[];
  /** A fresh world and the model of it, for one run. */
  readonly world: (t: Conformance) => Promise<{ model: M; real: R }>;
  /** After each command: what the document fixes of the whole world, against the model. */
  readonly inStep?: (m: M, r: R, after: string) => Promise<void>;
}

/** What a model run did: runs, calls sent (allowed, refused), world changes, commands left out. */
export interface Tally {
  runs: number;
  sent: number;
  allowed: number;
  refused: number;
  world: number;
  looks: number;
  /** Commands drawn whose precondition failed on the model as it then stood. */
  left: number;
  /** The model's refusals by code (`refused` where it names none). */
  readonly codes: Record<string, number>;
}

/** `area: N runs × M commands`, the line each model test prints and names itself with. */
export const budgetLine = (area: string, b: Budget): string =>
  `${area}: ${b.runs} runs × ${b.commands} commands`;

/** Judges an answer by the model's verdict; returns whether it was a success. */
export async function judge(
  t: Conformance,
  res: Reply,
  verdict: Verdict,
  what: string,
): Promise<boolean> {
  if (verdict.kind === 'refused') {
    if (verdict.documented !== undefined && verdict.code !== undefined) {
      expectError(res, verdict.documented, `${what} (the model: ${verdict.why})`, verdict.code);
    } else {
      const envelope = expectClientError(res, `${what} (the model refuses: ${verdict.why})`);
      if (t.target.checkDecisions && verdict.code !== undefined)
        expect(envelope.error.code, `${what}: the decided code`).toBe(verdict.code);
    }
    verdict.also?.(res);
    return false;
  }
  const ok =
    verdict.status === undefined ? successStatus(res.status) : res.status === verdict.status;
  expect(
    ok,
    `${what}: the model allows it (${verdict.status ?? '2xx'}), the target answered ${res.status} ${res.text.slice(0, 300)}`,
  ).toBe(true);
  await verdict.then?.(res);
  return true;
}

/** Runs one command against the target and the model; false when its precondition failed. */
async function runCommand<M, R>(
  t: Conformance,
  area: ModelArea<M, R>,
  command: ModelCommand<M, R>,
  m: M,
  r: R,
  tally: Tally,
  trail: string[],
): Promise<void> {
  if (!command.pre(m)) {
    tally.left += 1;
    return;
  }
  trail.push(command.label);
  if (command.kind === 'world') {
    tally.world += 1;
    await command.act(m, r);
  } else if (command.kind === 'look') {
    tally.looks += 1;
    await command.look(m, r);
  } else {
    const verdict = command.verdict(m, r);
    tally.sent += 1;
    if (verdict.kind === 'refused') {
      const code = verdict.code ?? 'refused';
      tally.codes[code] = (tally.codes[code] ?? 0) + 1;
    }
    const res = await command.call(m, r);
    if (await judge(t, res, verdict, command.label)) tally.allowed += 1;
    else tally.refused += 1;
  }
  await area.inStep?.(m, r, command.label);
}

/**
 * Runs the area's budget: `runs` worlds, each driven by `commands` commands that fast-check
 * draws from the test's seed (t.fc: the run ends at its first failure, unshrunk, since a
 * shrink would rebuild worlds by the dozen). A failure names the commands of its run up to
 * the failing one; the harness adds the seed and the replay line.
 */
export async function modelRuns<M, R>(t: Conformance, area: ModelArea<M, R>): Promise<Tally> {
  const tally: Tally = {
    runs: 0,
    sent: 0,
    allowed: 0,
    refused: 0,
    world: 0,
    looks: 0,
    left: 0,
    codes: {},
  };
  const trail: string[] = [];
  const { runs, commands } = area.budget;
  // Exactly `commands` commands per run, drawn by fast-check from the test's seed; one whose
  // precondition fails on the model as it then stands is left out (and counted).
  const sequence = fc.array(fc.oneof(...area.commands), {
    minLength: commands,
    maxLength: commands,
  });
  try {
    await fc.assert(
      fc.asyncProperty(sequence, async (cmds) => {
        tally.runs += 1;
        trail.length = 0;
        trail.push('(building the world)');
        const { model, real } = await area.world(t);
        await area.inStep?.(model, real, 'building the world');
        for (const command of cmds) await runCommand(t, area, command, model, real, tally, trail);
      }),
      t.fc(runs),
    );
  } catch (err) {
    if (err instanceof Error)
      err.message += `\n  ${budgetLine(area.area, area.budget)}; the failing run's commands, the last one failing: ${trail.join(' | ')}`;
    throw err;
  }
  // The budget and what it bought, for whoever runs the file with vitest's own output.
  console.info(
    `model run ${budgetLine(area.area, area.budget)}: ${tally.runs} runs, ${tally.sent} calls (${tally.allowed} allowed, ${tally.refused} refused as the model refused: ${JSON.stringify(tally.codes)}), ${tally.world} world changes, ${tally.looks} looks, ${tally.left} left out by their precondition`,
  );
  return tally;
}
