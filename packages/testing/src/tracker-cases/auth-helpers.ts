import { expect } from 'vitest';
import { expectProblem, type Reply } from '../http-client.js';
import { TRACKER, totalOf } from './tracker-records.js';
import type { Caller } from './tracker-tokens.js';
import type { World } from './tracker-world.js';

// What the authentication cases share: the contract's 401, and requests of every action.

/** Asserts the 401 of the contract: problem+json, `WWW-Authenticate: Bearer`, nothing of the token echoed. */
export function expectUnauthorized(reply: Reply, label: string, token?: string): void {
  expect(reply.status, `${label}: ${reply.text}`).toBe(401);
  expectProblem(reply, 401);
  expect(reply.headers.get('www-authenticate') ?? '', `${label}: WWW-Authenticate`).toMatch(/^Bearer\b/i);
  if (token && token.length > 8) expect(reply.text, `${label}: the token is not echoed`).not.toContain(token);
}

/** A body each resource accepts from an admin of organization 1 (its own foreign keys). */
export function validBodies(world: World): Record<string, Record<string, unknown>> {
  const { one } = world;
  return {
    user: { name: 'New user', email: 'new.user@one.example', role: 'viewer' },
    project: { name: 'New project' },
    label: { name: 'new-label', color: '#123456' },
    issue: { projectId: one.projects[0]?.id, title: 'New issue' },
    comment: { issueId: one.issues[0]?.id, body: 'New comment' },
  };
}

/** Every action of every resource, with a caller's `Authorization`, must be a 401. */
export async function everyActionRefused(world: World, caller: Caller, label: string, token?: string): Promise<void> {
  const bodies = validBodies(world);
  for (const [name, info] of Object.entries(TRACKER)) {
    const record = world.one[`${name}s` as 'users'][0] as { id: number | string };
    const member = `${info.path}/${record.id}`;
    const requests: [string, string, unknown][] = [
      ['GET', info.path, undefined],
      ['GET', member, undefined],
      ['POST', info.path, bodies[name]],
      ['PATCH', member, bodies[name]],
      ['DELETE', member, undefined],
    ];
    for (const [method, path, body] of requests) {
      const reply = body === undefined ? await caller.send(method, path) : await caller.json(method, path, body);
      expectUnauthorized(reply, `${label}: ${method} ${path}`, token);
    }
  }
}

/** What organization 1 holds, as its admin counts it: no refused request may change it. */
export async function counts(world: World): Promise<number[]> {
  const totals: number[] = [];
  for (const name of Object.keys(TRACKER)) totals.push(await totalOf(world.one.admin, name as 'user'));
  return totals;
}
