// Live events (docs/live.md): an organization's tasks, each change streamed as it commits to every
// caller who may see it. `live: true` serves GET /api/tasks/events; the store keeps the change log.
import { bearerJwt, defineResource, type ServerSet } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { createListener } from '@resourcery/node';
import { IsIn, IsInt, IsString, Length } from 'class-validator';

export class Task {
  @IsInt() orgId!: ServerSet<number>;
  @IsString() @Length(1, 200) title!: string;
  @IsIn(['todo', 'doing', 'done']) state!: string;
}

export const tasks = defineResource({
  name: 'task',
  model: Task,
  timestamps: true,
  defaults: { state: 'todo' },
  // GET /api/tasks/events?filter[state]=doing: each committed change, as a show renders it.
  live: true,
  access: { create: ['member', 'admin'], update: ['member', 'admin'], destroy: ['admin'] },
});

/** The tasks API over `node:http`, on a store (memory; or `sqlStore(url)`, whose processes share events). */
export function tasksListener(store: Store, secret: string) {
  return createListener({
    resources: [tasks],
    store,
    basePath: '/api',
    authenticate: bearerJwt({
      secret,
      principal: (claims) => ({ sub: Number(claims.sub), org: Number(claims.org), role: claims.role as 'member' }),
    }),
    // Each organization sees its own tasks only, in its events too.
    tenancy: { field: 'orgId', of: (principal) => principal.org },
    // At most 2,000 streams in this process (one more is 503 with Retry-After); a comment every 20 s.
    live: { maxStreams: 2_000, heartbeatMs: 20_000 },
  });
}
