import { afterAll, beforeAll, describe, it } from 'vitest';
import { HttpClient } from '../http-client.js';

/** One named check of the contract; receives the client and what the group's setup answered. */
export type Case<T> = (api: HttpClient, state: T) => Promise<void>;

/** Cases that share one server (started on an empty store) and the data `setup` stores first. */
export interface CaseGroup {
  readonly name: string;
  readonly setup: (api: HttpClient) => Promise<unknown>;
  readonly cases: Readonly<Record<string, Case<unknown>>>;
}

/** Declares a group; its cases run in order, so a case may rely only on `setup`, never on another case. */
export function group<T>(
  name: string,
  setup: (api: HttpClient) => Promise<T>,
  cases: Record<string, Case<T>>,
): CaseGroup {
  return { name, setup, cases: cases as Record<string, Case<unknown>> };
}

/** A setup that stores nothing. */
export const empty = async (): Promise<undefined> => undefined;

/** A running server, as a suite's `start` answers it. */
interface Target {
  readonly baseUrl: string;
  close(): Promise<void>;
}

/**
 * Registers groups of cases as Vitest suites: each group gets a fresh target from `start` (closed
 * after it; `start` is told the group) and its `setup`; `skip` names cases not to run, with the reason.
 */
export function registerGroups(
  name: string,
  groups: readonly CaseGroup[],
  start: (group: CaseGroup) => Promise<Target>,
  options: { skip?: Readonly<Record<string, string>>; timeout?: number },
): void {
  const skip = options.skip ?? {};
  const timeout = options.timeout ?? 30_000;
  const names = groups.flatMap((entry) => Object.keys(entry.cases));
  for (const key of Object.keys(skip)) {
    if (!names.includes(key)) throw new Error(`${name}: skip names no case: "${key}"`);
  }
  describe(name, () => {
    for (const entry of groups) {
      describe(entry.name, () => {
        let target: Target | undefined;
        let api: HttpClient;
        let state: unknown;
        beforeAll(async () => {
          target = await start(entry);
          api = new HttpClient(target.baseUrl.replace(/\/+$/, ''));
          state = await entry.setup(api);
        }, timeout);
        afterAll(() => target?.close(), timeout);

        for (const [title, run] of Object.entries(entry.cases)) {
          const reason = skip[title];
          if (reason === undefined) it(title, () => run(api, state), timeout);
          else it.skip(`${title} (skipped: ${reason})`, () => run(api, state));
        }
      });
    }
  });
}
