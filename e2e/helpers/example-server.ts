import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { bundleExampleServer as bundle } from '../../scripts/bundle-example-server.mjs';

/**
 * Bundles the example's server (`examples/books/src/<entry>`, default `server.ts`) from the
 * workspace sources, as the tests see them; answers its path.
 */
export function bundleExampleServer(entry?: string): Promise<string> {
  return bundle('resourcery-tests', entry);
}

/** The example's server running in a child process. */
export class ExampleServer {
  /** The last 10,000 characters the process wrote (stdout and stderr). */
  output = '';
  /** What the process wrote on stderr. */
  stderr = '';

  private constructor(
    readonly child: ChildProcess,
    /** `http://127.0.0.1:<port>/api` */
    readonly baseUrl: string,
  ) {}

  /** `http://127.0.0.1:<port>` */
  get origin(): string {
    return this.baseUrl.replace(/\/api$/, '');
  }

  /**
   * Starts the bundled server on a free port with `DATABASE_URL` and waits until it listens.
   * `command` runs it: Node by default, or another runtime (`[bun]`, `[deno, 'run', '-A']`).
   */
  static async start(
    bundle: string,
    databaseUrl: string,
    env: Record<string, string> = {},
    command: readonly string[] = [process.execPath],
  ): Promise<ExampleServer> {
    const [executable = process.execPath, ...args] = command;
    const child = spawn(executable, [...args, bundle], {
      env: { ...process.env, ...env, DATABASE_URL: databaseUrl, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stderr = '';
    let server: ExampleServer | undefined;
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL'); // no process is left behind
        reject(new Error(`the server did not start:\n${output}`));
      }, 15_000);
      const read = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-10_000);
        const match = /http:\/\/localhost:(\d+)\/api/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
        if (server) server.output = output;
      };
      child.stdout?.on('data', read); // keeps reading the request log, so the pipe never fills
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (server) server.stderr = stderr;
        read(chunk);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${code}:\n${output}`));
      });
    });
    server = new ExampleServer(child, `http://127.0.0.1:${port}/api`);
    server.output = output;
    server.stderr = stderr;
    return server;
  }

  /** Kills the process with `signal` and waits until it is gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill(signal);
    await exited;
  }
}
