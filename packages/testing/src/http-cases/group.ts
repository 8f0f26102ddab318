import type { HttpClient } from '../http-client.js';

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
