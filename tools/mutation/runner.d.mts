// Types of the pure helpers of tools/mutation/runner.mjs (plain JavaScript, loaded by Stryker),
// for tools/mutation/runner.test.ts.
export interface VitestFileTask {
  filepath: string;
  type?: string;
  result?: { state?: string; errors?: ReadonlyArray<{ message?: string }> } | undefined;
  tasks: ReadonlyArray<unknown>;
}
export interface WholeFileFailure {
  file: string;
  message: string;
}
export function wholeFileFailures(files: ReadonlyArray<VitestFileTask>): WholeFileFailure[];
export function judge(
  result: { status: string; nrOfTests?: number },
  failures: WholeFileFailure[],
  testIds: ReadonlyArray<string>,
): { status: string; nrOfTests?: number; failureMessage?: string; killedBy?: string[] };
export const strykerPlugins: unknown[];
