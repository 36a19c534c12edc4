/** `1 test`, `2 tests`: a count with its noun, for every line the runner and the reports print. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
