/**
 * Vitest global setup of mutation mode (tools/mutation/stryker.vitest.ts): the reference that judges
 * most mutants lives here, in the test-runner process, instead of being imported and started
 * in every mutant's fresh worker (about 1.2 s of the ~2.4 s a mutant cost).
 *
 * Stryker's instrumented code asks, each time it runs, whether its mutant is the active one
 * (`globalThis.__stryker__.activeMutant`). A mutant whose code runs only while tests run (a
 * "runtime" mutant, by Stryker's dry-run coverage: most of the reference's handlers) is
 * therefore switched on by setting that id in this process too. For each such mutant the test
 * worker (tools/mutation/setup.ts) asks `POST /mutant {activeMutant, hitLimit}`; this process
 * sets the id, starts a FRESH reference (new store and servers; the modules are already
 * loaded, so that costs ~0.2 s), answers its target, and closes the previous one behind it.
 * What stays from one mutant to the next is only what the modules hold at their top level, which
 * is computed when they load (outside any test), so Stryker counts mutants there as static and
 * judges them the old way: a reference started in the worker, modules loaded anew.
 * `reference/module-state.test.ts` keeps the reference free of lazily filled top-level state.
 *
 * The dry run (coverage per test) also starts the reference in the worker, so that the code a
 * test reaches is attributed to it exactly as before.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import type { ResolvedTarget } from '../../runner/target.ts';

declare module 'vitest' {
  interface ProvidedContext {
    /** Base address of the mutant switch of this process (tools/mutation/global-setup.ts). */
    eacMutationSwitch: string;
  }
}

interface StrykerNamespace {
  activeMutant?: string;
  hitCount?: number | undefined;
  hitLimit?: number | undefined;
}

const NAMESPACE = '__stryker__';
const ns = (): StrykerNamespace => {
  const g = globalThis as unknown as Record<string, StrykerNamespace | undefined>;
  return (g[NAMESPACE] ??= {});
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let current: { id: string; running: Promise<ResolvedTarget> } | undefined;
  const closing = new Set<Promise<void>>();
  const retire = (running: Promise<ResolvedTarget>) => {
    const done = running
      .then((r) => r.close())
      .catch(() => undefined)
      .finally(() => closing.delete(done));
    closing.add(done);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        try {
          if (req.method !== 'POST' || req.url !== '/mutant') throw new Error(`no ${req.url}`);
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            activeMutant?: unknown;
            hitLimit?: unknown;
          };
          const id = String(body.activeMutant);
          if (current?.id !== id) {
            // Switch first, then start: the new reference runs with the new mutant only.
            if (current !== undefined) retire(current.running);
            const s = ns();
            s.activeMutant = id;
            s.hitCount = typeof body.hitLimit === 'number' ? 0 : undefined;
            s.hitLimit = typeof body.hitLimit === 'number' ? body.hitLimit : undefined;
            const { startEmbedded } = await import('../../runner/target.ts');
            current = { id, running: startEmbedded(Number(process.env['EAC_SEED'] ?? 7)) };
          }
          const { target } = await current.running;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(target));
        } catch (error) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(error instanceof Error ? (error.stack ?? error.message) : String(error));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  project.provide('eacMutationSwitch', `http://127.0.0.1:${port}`);

  return async () => {
    if (current !== undefined) retire(current.running);
    await Promise.all(closing);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
