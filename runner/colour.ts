/**
 * Colour for what `eac` prints: only on a terminal, and never when NO_COLOR is set to anything
 * but the empty string (no-color.org), nor on TERM=dumb. A log file or a CI pipe gets plain text.
 */

export interface ColourStream {
  readonly isTTY?: boolean;
}

export function colourOn(
  stream: ColourStream,
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  return stream.isTTY === true && (env['NO_COLOR'] ?? '') === '' && env['TERM'] !== 'dumb';
}

export interface Paint {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
}

/** SGR pairs: each closes only what it opened, so painted pieces nest. */
const SGR = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39] };

export function paint(on: boolean): Paint {
  const style = ([open, close]: readonly number[]) =>
    on ? (text: string) => `\x1b[${open}m${text}\x1b[${close}m` : (text: string) => text;
  return {
    bold: style(SGR.bold),
    dim: style(SGR.dim),
    red: style(SGR.red),
    green: style(SGR.green),
    yellow: style(SGR.yellow),
  };
}
