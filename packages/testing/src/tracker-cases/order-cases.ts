import { expect } from 'vitest';
import { group } from '../http-cases/group.js';
import { expectProblem } from '../http-client.js';
import { type CommentJson, type IssueJson, type Json, listOf, missingId, RESOURCE_NAMES } from './tracker-records.js';
import type { Caller } from './tracker-tokens.js';
import { seedWorld, type World } from './tracker-world.js';

// CONTRACT part 4, "Roles", order of answers: 401; then 403 for an action the role may never
// take; then the body's own 400/413/415; then 404 for a record that is not visible; then 403 for
// a rule on that record or a field; then 422.

/** One request and the status it must get. */
type Expectation = readonly [
  method: string,
  path: string,
  body: string | undefined,
  contentType: string,
  status: number,
];

const JSON_TYPE = 'application/json';
const BROKEN = '{"title": ';

async function expectStatuses(world: World, caller: Caller, expectations: readonly Expectation[]): Promise<void> {
  const before = await Promise.all(RESOURCE_NAMES.map((name) => listOf(world.one.admin, name)));
  for (const [method, path, body, contentType, status] of expectations) {
    const reply = await caller.send(method, path, body === undefined ? {} : { body, contentType });
    expectProblem(reply, status);
  }
  expect(await Promise.all(RESOURCE_NAMES.map((name) => listOf(world.one.admin, name)))).toEqual(before);
}

const json = (value: Json) => JSON.stringify(value);

export const orderCases = (secret: string) =>
  group('order of answers', (api) => seedWorld(api, secret), {
    async 'order: an action the role may never take is 403 before the body’s 400 and 415'(_api, world) {
      const { one } = world;
      const issue = one.issues[0]?.id;
      const comment = one.comments[0]?.id;
      await expectStatuses(world, one.viewer, [
        ['POST', '/issues', BROKEN, JSON_TYPE, 403],
        ['POST', '/issues', 'title=x', 'text/plain', 403],
        ['POST', '/issues', '[]', JSON_TYPE, 403],
        ['PATCH', `/issues/${issue}`, BROKEN, JSON_TYPE, 403],
        ['PATCH', `/comments/${comment}`, 'body', 'text/plain', 403],
      ]);
      await expectStatuses(world, one.member, [
        ['POST', '/users', BROKEN, JSON_TYPE, 403],
        ['PATCH', `/users/${one.users[0]?.id}`, 'x', 'text/plain', 403],
      ]);
    },

    async 'order: an action the role may never take is 403 before 404, whatever the record'(_api, world) {
      const { one, two } = world;
      const missing = missingId('issue');
      await expectStatuses(world, one.viewer, [
        ['PATCH', `/issues/${missing}`, json({ title: 'x' }), JSON_TYPE, 403],
        ['PATCH', `/issues/${two.issues[0]?.id}`, json({ title: 'x' }), JSON_TYPE, 403],
        ['DELETE', `/issues/${missing}`, undefined, JSON_TYPE, 403],
        ['DELETE', `/comments/${two.comments[0]?.id}`, undefined, JSON_TYPE, 403],
        ['PATCH', `/comments/${missingId('comment')}`, json({ body: 'x' }), JSON_TYPE, 403],
      ]);
      await expectStatuses(world, one.member, [
        ['DELETE', `/issues/${missing}`, undefined, JSON_TYPE, 403],
        ['DELETE', `/issues/${two.issues[0]?.id}`, undefined, JSON_TYPE, 403],
        ['DELETE', `/projects/${two.projects[0]?.id}`, undefined, JSON_TYPE, 403],
        ['DELETE', `/users/${missing}`, undefined, JSON_TYPE, 403],
        ['PATCH', `/users/${two.users[0]?.id}`, json({ name: 'x' }), JSON_TYPE, 403],
      ]);
    },

    async 'order: a body that cannot be read (400, 415) comes before 404 for a record that is not visible'(
      _api,
      world,
    ) {
      const { one, two } = world;
      const missing = missingId('issue');
      await expectStatuses(world, one.member, [
        ['PATCH', `/issues/${missing}`, BROKEN, JSON_TYPE, 400],
        ['PATCH', `/issues/${two.issues[0]?.id}`, BROKEN, JSON_TYPE, 400],
        ['PATCH', `/issues/${two.issues[0]?.id}`, 'title=x', 'text/plain', 415],
        ['PATCH', `/comments/${missingId('comment')}`, BROKEN, JSON_TYPE, 400],
        // A body that reads as JSON but is no object is the body's validation: after the lookup (part 2).
        ['PATCH', `/comments/${two.comments[0]?.id}`, '42', JSON_TYPE, 404],
        ['PATCH', `/issues/${missing}`, '[]', JSON_TYPE, 404],
      ]);
    },

    async 'order: 404 for a record that is not visible comes before the record’s or a field’s 403'(_api, world) {
      const { one, two } = world;
      const theirComment = two.comments[1] as CommentJson;
      await expectStatuses(world, one.member, [
        ['PATCH', `/comments/${theirComment.id}`, json({ body: 'x' }), JSON_TYPE, 404],
        ['DELETE', `/comments/${theirComment.id}`, undefined, JSON_TYPE, 404],
        ['PATCH', `/comments/${missingId('comment')}`, json({ body: 'x' }), JSON_TYPE, 404],
        ['DELETE', `/comments/${missingId('comment')}`, undefined, JSON_TYPE, 404],
        ['PATCH', `/issues/${two.issues[0]?.id}`, json({ priority: 1 }), JSON_TYPE, 404],
        ['PATCH', `/issues/${missingId('issue')}`, json({ priority: 1 }), JSON_TYPE, 404],
      ]);
    },

    async 'order: a rule on the record or a field answers 403 before the body’s 422'(_api, world) {
      const { one } = world;
      const theirs = one.comments[1] as CommentJson;
      const issue = one.issues[0] as IssueJson;
      await expectStatuses(world, one.member, [
        ['PATCH', `/comments/${theirs.id}`, json({ body: '' }), JSON_TYPE, 403],
        ['PATCH', `/comments/${theirs.id}`, json({ nope: 1 }), JSON_TYPE, 403],
        ['PATCH', `/comments/${theirs.id}`, json({ issueId: missingId('issue') }), JSON_TYPE, 403],
        ['DELETE', `/comments/${theirs.id}`, undefined, JSON_TYPE, 403],
        ['PATCH', `/issues/${issue.id}`, json({ priority: 1, title: '' }), JSON_TYPE, 403],
        ['PATCH', `/issues/${issue.id}`, json({ priority: 9 }), JSON_TYPE, 403],
        ['PATCH', `/issues/${issue.id}`, json({ priority: 1, nope: true }), JSON_TYPE, 403],
        ['PATCH', `/issues/${issue.id}`, json({ priority: 1, projectId: missingId('project') }), JSON_TYPE, 403],
        ['POST', '/users', json({}), JSON_TYPE, 403],
      ]);
      await expectStatuses(world, one.viewer, [
        ['POST', '/issues', json({}), JSON_TYPE, 403],
        ['POST', '/comments', json({ issueId: missingId('issue') }), JSON_TYPE, 403],
      ]);
      // With the rules met, the same bodies are the 422s they are.
      const problem = expectProblem(await one.member.json('PATCH', `/issues/${issue.id}`, { title: '' }), 422);
      expect(Object.keys(problem.errors)).toEqual(['title']);
    },
  });
