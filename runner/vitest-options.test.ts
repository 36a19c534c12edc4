import { mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createVitest } from 'vitest/node';
import { WRITES_NOTHING } from './vitest-options.ts';

const discard = new Writable({ write: (_chunk, _encoding, done) => done() });

/** Every file and folder under `dir`, relative, sorted. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('a vitest started as the kit starts it', () => {
  // A user's project with the kit installed in its node_modules, as npm lays it out: the kit's
  // folder holds a package.json, a vitest config and a test file, and no node_modules.
  const user = mkdtempSync(path.join(tmpdir(), 'eac-writes-'));
  const kit = path.join(user, 'node_modules', 'kit');
  mkdirSync(kit, { recursive: true });
  writeFileSync(path.join(user, 'package.json'), '{"name":"user","private":true}\n');
  writeFileSync(path.join(kit, 'package.json'), '{"name":"kit","type":"module"}\n');
  writeFileSync(
    path.join(kit, 'vitest.config.ts'),
    "export default { test: { include: ['one.test.ts'], globals: true } };\n",
  );
  writeFileSync(path.join(kit, 'one.test.ts'), "it('passes', () => { expect(1).toBe(1); });\n");
  afterAll(() => rmSync(user, { recursive: true, force: true }));

  it("runs a test and writes nothing in the kit's folder or the user's node_modules", async () => {
    const before = tree(user);
    const vitest = await createVitest(
      'test',
      {
        root: kit,
        config: path.join(kit, 'vitest.config.ts'),
        watch: false,
        reporters: [],
        ...WRITES_NOTHING,
      },
      {},
      { stdout: discard, stderr: discard },
    );
    try {
      await vitest.start();
      expect(vitest.state.getCountOfFailedTests()).toBe(0);
      expect(vitest.state.getFiles().map((file) => file.result?.state)).toEqual(['pass']);
    } finally {
      await vitest.close();
    }
    expect(tree(user)).toEqual(before);
  });
});
