import { messageOf } from './errors.js';
import { cleanUp, lastOutput } from './processes.js';

/**
 * Runs a bench that starts processes: past its deadline, or on SIGINT/SIGTERM, it takes down what
 * it started and exits non-zero; a set-up failure prints its message and the children's last output.
 */
export async function runBench(name: string, deadlineMs: number, main: () => Promise<void>): Promise<never> {
  const abort = (why: string, code: number) => {
    console.error(`${name}: ${why}, stopping what it started.`);
    void cleanUp().finally(() => process.exit(code));
  };
  const deadline = setTimeout(() => abort(`ran over ${deadlineMs / 1000} s`, 1), deadlineMs);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => abort(signal, 130));

  let failed = false;
  try {
    await main();
  } catch (error) {
    failed = true;
    console.error(`${name} set-up failed: ${messageOf(error)}`);
    const output = lastOutput();
    if (output) console.error(`last output of the server and companion:\n${output}`);
  } finally {
    clearTimeout(deadline);
    await cleanUp();
  }
  process.exit(failed ? 1 : 0);
}
