import { spawn } from 'node:child_process';

/**
 * Runs a command to its end (an npm script, the server's command-line tools) and keeps what it
 * printed.
 * @param opts.cwd the folder it runs in (this checkout by default)
 * @param opts.timeoutMs longest wait; past it the command is killed and this throws with its output
 * @returns its exit code (null when ended by a signal), stdout and stderr
 */
export async function runToEnd(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  opts: { cwd?: string; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { env, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  let timer: NodeJS.Timeout | undefined;
  try {
    const code = await Promise.race([
      new Promise<number | null>((resolve) => child.once('exit', resolve)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(
            new Error(`${command} ${args.join(' ')} still running after ${opts.timeoutMs} ms:\n${stdout}${stderr}`),
          );
        }, opts.timeoutMs ?? 180_000);
      }),
    ]);
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

/** `npm run --silent <script> -- args` to its end: see {@link runToEnd}. */
export const npmRun = (
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  opts: { cwd?: string; timeoutMs?: number } = {},
) => runToEnd('npm', ['run', '--silent', script, '--', ...args], env, opts);
