import { expect } from 'vitest';
import { type EventReader, openEvents, type ReceivedEvent } from '../event-reader.js';
import { group } from '../http-cases/group.js';
import { expectProblem } from '../http-client.js';
import { type CommentJson, type IssueJson, type Json, recordOf, type UserJson } from './tracker-records.js';
import { type Caller, mintToken, now } from './tracker-tokens.js';
import { type Org, seedWorld, subOf } from './tracker-world.js';

// CONTRACT part 4, "Live events": `GET /issues/events` (and comments, users) streams each committed
// change of a record the caller may see, as a show renders it for them, narrowed by the index's
// filters; never another organization's, never a hidden field, never a write that failed; bulk
// writes send one event per record; `Last-Event-ID` replays; the stream ends with the token.
// That nothing was sent is shown by order: events come in commit order, so a change the caller may
// see, made after, arrives first.

/** Opens `path` (an events path) as `caller`, asserting a stream. */
async function watch(caller: Caller, path: string, headers: Record<string, string> = {}): Promise<EventReader> {
  const events = await openEvents(caller.url(path), {
    ...(caller.authorization ? { authorization: caller.authorization } : {}),
    ...headers,
  });
  expect(events.status, events.text).toBe(200);
  expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return events;
}

/** The data of an event, parsed, after checking its name. */
function dataOf(event: ReceivedEvent | undefined, name: string): Json {
  expect(event, `a ${name} event`).toBeDefined();
  expect((event as ReceivedEvent).event, (event as ReceivedEvent).data).toBe(name);
  return JSON.parse((event as ReceivedEvent).data) as Json;
}

/** Creates an issue in the organization's first project as its member. */
async function newIssue(org: Org, title: string, values: Json = {}): Promise<IssueJson> {
  const reply = await org.member.json('POST', '/issues', {
    issue: { projectId: org.projects[0]?.id, title, ...values },
  });
  return recordOf<IssueJson>(reply, 'issue', 'member');
}

/** What `caller` is shown of a record right now. */
async function shown(caller: Caller, path: string, name: 'issue' | 'comment' | 'user', role: string): Promise<Json> {
  return recordOf<Json>(await caller.get(path), name, role);
}

export const liveCases = (secret: string) =>
  group('live events', (api) => seedWorld(api, secret), {
    async 'live events: each committed change of the caller’s organization, as a show renders it for them; another organization’s never'(
      _api,
      { one, two },
    ) {
      const events = await watch(one.viewer, '/issues/events');
      try {
        await newIssue(two, 'Elsewhere');
        await two.admin.json('PATCH', `/issues/${two.issues[0]?.id}`, { title: 'Elsewhere too' });
        const made = await newIssue(one, 'Live one');
        expect(dataOf(await events.next(), 'created')).toEqual({
          issue: await shown(one.viewer, `/issues/${made.id}`, 'issue', 'viewer'),
        });
        await one.member.json('PATCH', `/issues/${made.id}`, { title: 'Live one, renamed', status: 'in_progress' });
        const updated = dataOf(await events.next(), 'updated');
        expect(updated).toEqual({ issue: await shown(one.viewer, `/issues/${made.id}`, 'issue', 'viewer') });
        expect((updated.issue as IssueJson).title).toBe('Live one, renamed');
        expect((await two.admin.send('DELETE', `/issues/${two.issues[1]?.id}`)).status).toBe(204);
        expect((await one.admin.send('DELETE', `/issues/${made.id}`)).status).toBe(204);
        expect(dataOf(await events.next(), 'destroyed')).toEqual({ issue: { id: made.id } });
      } finally {
        events.close();
      }
    },

    async 'live events: comments stream too, each as its show renders it'(_api, { one, two }) {
      const events = await watch(one.member, '/comments/events');
      try {
        await two.member.json('POST', '/comments', { comment: { issueId: two.issues[0]?.id, body: 'Not yours' } });
        const reply = await one.otherMember.json('POST', '/comments', {
          comment: { issueId: one.issues[1]?.id, body: 'Live' },
        });
        const comment = recordOf<CommentJson>(reply, 'comment', 'member');
        expect(dataOf(await events.next(), 'created')).toEqual({
          comment: await shown(one.member, `/comments/${comment.id}`, 'comment', 'member'),
        });
        expect((await one.otherMember.send('DELETE', `/comments/${comment.id}`)).status).toBe(204);
        expect(dataOf(await events.next(), 'destroyed')).toEqual({ comment: { id: comment.id } });
      } finally {
        events.close();
      }
    },

    async 'live events: the filters narrow the stream; an update is sent when the record matched them before or after it'(
      _api,
      { one },
    ) {
      const events = await watch(one.viewer, '/issues/events?filter[status]=open&filter[priority][gte]=2');
      try {
        await newIssue(one, 'Done already', { status: 'done' }); // never matches: not sent
        const open = await newIssue(one, 'Open one'); // open, priority 3
        expect((dataOf(await events.next(), 'created').issue as IssueJson).id).toBe(open.id);
        await one.member.json('PATCH', `/issues/${open.id}`, { status: 'done' }); // matched before
        expect(dataOf(await events.next(), 'updated').issue).toMatchObject({ id: open.id, status: 'done' });
        await one.member.json('PATCH', `/issues/${open.id}`, { title: 'Still done' }); // matches neither
        await one.member.json('PATCH', `/issues/${open.id}`, { status: 'open' }); // matches after
        expect(dataOf(await events.next(), 'updated').issue).toMatchObject({ id: open.id, title: 'Still done' });
      } finally {
        events.close();
      }
    },

    async 'live events: a field hidden from the caller is absent from every event (a user’s email for non-admins)'(
      _api,
      { one },
    ) {
      const asViewer = await watch(one.viewer, '/users/events');
      const asAdmin = await watch(one.admin, '/users/events');
      try {
        const reply = await one.admin.json('POST', '/users', {
          user: { name: 'Live Lee', email: 'lee@one.example', role: 'member' },
        });
        const user = recordOf<UserJson>(reply, 'user', 'admin');
        const seen = dataOf(await asViewer.next(), 'created');
        expect(seen).toEqual({ user: await shown(one.viewer, `/users/${user.id}`, 'user', 'viewer') });
        expect(JSON.stringify(seen)).not.toContain('lee@one.example');
        expect(dataOf(await asAdmin.next(), 'created')).toEqual({ user });
        // `filter[email]` is a field that does not exist for a viewer: 400 before any stream.
        expectProblem(
          await one.viewer.send('GET', '/users/events?filter[email]=lee@one.example', {
            headers: { accept: 'text/event-stream' },
          }),
          400,
        );
      } finally {
        asViewer.close();
        asAdmin.close();
      }
    },

    async 'live events: a write that fails sends nothing; a bulk write sends one event per record, in order'(
      _api,
      { one },
    ) {
      const events = await watch(one.viewer, '/issues/events');
      try {
        const sent = [1, 2, 3].map((n) => ({ projectId: one.projects[0]?.id, title: `Batch ${n}` }));
        const failed = await one.member.json('POST', '/issues', {
          issues: [...sent, { projectId: one.projects[0]?.id }],
        });
        expectProblem(failed, 422);
        expectProblem(await one.member.json('PATCH', `/issues/${one.issues[0]?.id}`, { title: '' }), 422);
        const made = await one.member.json('POST', '/issues', { issues: sent });
        expect(made.status, made.text).toBe(200);
        const ids = (made.body.issues as IssueJson[]).map((issue) => issue.id);
        const received = [await events.next(), await events.next(), await events.next()];
        expect(received.map((event) => (dataOf(event, 'created').issue as IssueJson).id)).toEqual(ids);
      } finally {
        events.close();
      }
    },

    async 'live events: Last-Event-ID replays every later event once, then goes on live; an unknown id starts with reset'(
      _api,
      { one },
    ) {
      const first = await watch(one.viewer, '/issues/events');
      const a = await newIssue(one, 'Replay A');
      const seen = await first.next();
      first.close();
      expect((dataOf(seen, 'created').issue as IssueJson).id).toBe(a.id);
      const b = await newIssue(one, 'Replay B');
      await one.member.json('PATCH', `/issues/${b.id}`, { title: 'Replay B2' });
      const again = await watch(one.viewer, '/issues/events', { 'last-event-id': (seen as ReceivedEvent).id });
      try {
        expect(dataOf(await again.next(), 'created').issue).toMatchObject({ id: b.id, title: 'Replay B' });
        expect(dataOf(await again.next(), 'updated').issue).toMatchObject({ id: b.id, title: 'Replay B2' });
        const c = await newIssue(one, 'Replay C');
        expect(dataOf(await again.next(), 'created').issue).toMatchObject({ id: c.id });
      } finally {
        again.close();
      }
      const unknown = await watch(one.viewer, '/issues/events', { 'last-event-id': 'another-log-7' });
      try {
        expect(dataOf(await unknown.next(), 'reset')).toEqual({});
        const d = await newIssue(one, 'After reset');
        expect(dataOf(await unknown.next(), 'created').issue).toMatchObject({ id: d.id });
      } finally {
        unknown.close();
      }
    },

    async 'live events: 401 without a token, 406 without text/event-stream, 400 for index-only parameters, 404 where not live'(
      api,
      { one },
    ) {
      const stream = { headers: { accept: 'text/event-stream' } };
      expectProblem(await api.send('GET', '/issues/events', stream), 401);
      expectProblem(await one.viewer.send('GET', '/issues/events', { headers: { accept: 'application/json' } }), 406);
      for (const query of ['sort=title', 'page=2', 'include=project', 'filter[nope]=1', 'filter[priority][gt]=x']) {
        expectProblem(await one.viewer.send('GET', `/issues/events?${query}`, stream), 400);
      }
      expectProblem(await one.viewer.send('GET', '/projects/events', stream), 404);
    },

    async 'live events: the stream ends when the caller’s token expires'(api, { one }) {
      const claims = { sub: subOf(one.id, 4), org: one.id, role: 'viewer' };
      const token = await mintToken({ ...claims, exp: now() + 2 }, { secret });
      const events = await openEvents(api.url('/issues/events'), { authorization: `Bearer ${token}` });
      expect(events.status, events.text).toBe(200);
      // Only the stream's end answers `until` (it never matches): within a few seconds of `exp`.
      expect(await events.until(() => false, 10_000)).toEqual([]);
    },
  });
