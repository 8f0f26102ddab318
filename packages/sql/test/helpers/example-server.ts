import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { workspaceAliases } from '../../../../vitest.shared.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Bundles the example's server (examples/books/src/server.ts) with the workspace packages from
 * source, as the tests see them, into node_modules/.cache, where Node finds the installed
 * dependencies (express, the drivers...). Answers the bundle's path.
 */
export async function bundleExampleServer(): Promise<string> {
  const folder = `${root}node_modules/.cache/resourcery-tests`;
  mkdirSync(folder, { recursive: true });
  const outfile = `${folder}/books-server-${process.pid}.mjs`;
  const aliases: Record<string, string> = workspaceAliases;
  await build({
    entryPoints: [`${root}examples/books/src/server.ts`],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    plugins: [
      {
        name: 'workspace-sources',
        setup(builder) {
          builder.onResolve({ filter: /^@resourcery\// }, ({ path }) => ({ path: aliases[path] ?? path }));
          // Every other package stays external: Node loads it from node_modules.
          builder.onResolve({ filter: /^[^./]/ }, ({ path }) => ({ path, external: true }));
        },
      },
    ],
  });
  return outfile;
}

/** The example's server running in a child process. */
export class ExampleServer {
  /** The last 10,000 characters the process wrote (stdout and stderr). */
  output = '';

  private constructor(
    readonly child: ChildProcess,
    /** `http://127.0.0.1:<port>/api` */
    readonly baseUrl: string,
  ) {}

  /** `http://127.0.0.1:<port>` */
  get origin(): string {
    return this.baseUrl.replace(/\/api$/, '');
  }

  /** Starts the bundled server on a free port with `DATABASE_URL` and waits until it listens. */
  static async start(bundle: string, databaseUrl: string, env: Record<string, string> = {}): Promise<ExampleServer> {
    const child = spawn(process.execPath, [bundle], {
      env: { ...process.env, ...env, DATABASE_URL: databaseUrl, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let server: ExampleServer | undefined;
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 15_000);
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
      child.stderr?.on('data', read);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${code}:\n${output}`));
      });
    });
    server = new ExampleServer(child, `http://127.0.0.1:${port}/api`);
    server.output = output;
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
