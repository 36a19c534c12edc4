import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startLatitudeOnReference } from './embedded.ts';

/** A port free a moment ago (the system's choice for a listener closed at once). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('startLatitudeOnReference', () => {
  it('listens on the ports asked for (eac latitude --port, --hub-port)', async () => {
    const [port, hubPort] = [await freePort(), await freePort()];
    const latitude = await startLatitudeOnReference({
      vary: ['status.created'],
      seed: 1,
      port,
      hubPort,
      log: () => undefined,
    });
    try {
      expect(new URL(latitude.url).port).toBe(String(port));
      expect(new URL(latitude.hubUrl).port).toBe(String(hubPort));
      // The reference behind it keeps ports of its own.
      expect(new URL(latitude.target.url).port).not.toBe(String(port));
    } finally {
      await latitude.close();
    }
  });
});
