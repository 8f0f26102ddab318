// The calls of issue #27's features (labels, q=, statistics, restore, listed values) made by two
// clients nobody here wrote, both generated from the tracker's /api/openapi.json: openapi-fetch
// typed by openapi-typescript (`schema.ts`), and Orval's fetch client (`orval.ts`).
// generated-clients.test.ts generates them next to a copy of this file, typechecks the lot with
// tsc (so every `@ts-expect-error` below must be an error the generated types raise, and every
// typed read a type they promise) and runs `withOpenapiFetch` and `withOrval` against the server.
// The repository's tsconfig leaves this file out: what it imports exists only in that copy.
import createClient from 'openapi-fetch';
import type { Caller, ClientRun, Created, Reply } from './answers.js';
import { useBaseUrl } from './base-url.js';
import * as orval from './orval.js';
import type { components, paths } from './schema.js';

type Issue = components['schemas']['Issue'];
type Status = Issue['status'];

/** openapi-fetch's answer: `data` or `error`, and the response. */
async function fromOpenapiFetch(
  operation: string,
  call: Promise<{ data?: unknown; error?: unknown; response: Response }>,
): Promise<Reply> {
  const { data, error, response } = await call;
  return { operation, status: response.status, body: data ?? error, total: response.headers.get('x-total-count') };
}

/** Orval's answer: `data`, `status` and `headers`. */
async function fromOrval(
  operation: string,
  call: Promise<{ data: unknown; status: number; headers: Headers }>,
): Promise<Reply> {
  const { data, status, headers } = await call;
  return { operation, status, body: data, total: headers.get('x-total-count') };
}

/** The value of a call that must have succeeded. */
function ok<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} failed`);
  return value;
}

/** Every call, made by openapi-fetch with the caller's bearer token (and one without). */
export async function withOpenapiFetch({ baseUrl, token }: Caller): Promise<ClientRun> {
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
  const anonymous = createClient<paths>({ baseUrl });
  const replies: Record<string, Reply> = {};
  const record = (name: string, call: Promise<Reply>) =>
    call.then((reply) => {
      replies[name] = reply;
      return reply;
    });

  const project = ok((await api.POST('/projects', { body: { name: 'Web' } })).data, 'project').project.id;
  const bug = ok((await api.POST('/labels', { body: { name: 'bug', color: '#d73a4a' } })).data, 'bug').label.id;
  const ui = ok((await api.POST('/labels', { body: { name: 'ui', color: '#0e8a16' } })).data, 'ui').label.id;
  const crashCall = api.POST('/issues', {
    body: {
      projectId: project,
      title: 'Login crash on submit',
      body: 'The form crashes after the password',
      status: 'in_progress',
      estimate: '2.50',
      labelIds: [ui, bug, ui],
    },
  });
  await record('created', fromOpenapiFetch('POST /issues', crashCall));
  const crash = ok((await crashCall).data, 'crash').issue;
  // What the generated types promise of the record: its labels' ids, its status among the listed ones.
  const labelIds: number[] = crash.labelIds;
  const status: 'open' | 'in_progress' | 'done' = crash.status;
  const exported = ok(
    (
      await api.POST('/issues', {
        body: { projectId: project, title: 'Crash report export', estimate: 1.25, labelIds: [ui] },
      })
    ).data,
    'exported',
  ).issue.id;
  const typo = ok(
    (
      await api.POST('/issues', {
        body: {
          issue: { projectId: project, title: 'Login page typo', status: 'done', estimate: '3', labelIds: [bug] },
        },
      })
    ).data,
    'typo',
  ).issue.id;
  const created: Created = { project, bug, ui, crash: crash.id, exported, typo };

  const index = (name: string, query: paths['/issues']['get']['parameters']['query']) =>
    record(name, fromOpenapiFetch('GET /issues', api.GET('/issues', { params: { query } })));
  const stats = (name: string, query: paths['/issues/stats']['get']['parameters']['query']) =>
    record(name, fromOpenapiFetch('GET /issues/stats', api.GET('/issues/stats', { params: { query } })));

  await index('search', { q: 'login crash', 'filter[labels.name]': 'bug', include: ['labels'] });
  await index('any label', { q: 'crash', 'filter[labels.name][]': ['bug', 'ui'], sort: 'id' });
  await stats('stats', { group: 'status', sum: 'estimate' });
  await stats('stats searched', { q: 'login', group: 'status', sum: 'estimate' });
  await stats('stats by label', { 'filter[labels.name]': 'ui', max: 'estimate' });
  // Typed: an entry's count is a number, its group value one of the listed statuses (or null).
  const entry = ok((await api.GET('/issues/stats', { params: { query: { group: 'status' } } })).data, 'stats').stats[0];
  const counted: number | undefined = entry?.count;
  const grouped: Status | null | undefined = entry?.status;

  // Archive, then restore: DELETE sets archivedAt; PATCH ?archived=true with {"archivedAt": null} clears it.
  const id = { id: typo };
  await record(
    'archive',
    fromOpenapiFetch('DELETE /issues/{id}', api.DELETE('/issues/{id}', { params: { path: id } })),
  );
  await record(
    'archived show',
    fromOpenapiFetch('GET /issues/{id}', api.GET('/issues/{id}', { params: { path: id } })),
  );
  await stats('archived stats', { archived: true, 'filter[archivedAt][null]': false });
  await record(
    'restore',
    fromOpenapiFetch(
      'PATCH /issues/{id}',
      api.PATCH('/issues/{id}', {
        params: { path: id, query: { archived: true } },
        // The document says `archivedAt?: null` (openapi-typescript types it so), but openapi-fetch's
        // Writable<> turns a property whose only value is null into `?: never`
        // (openapi-ts/openapi-typescript#2717): remove the next line when openapi-fetch fixes it.
        // @ts-expect-error: openapi-fetch's Writable<> drops the null-only archivedAt
        body: { archivedAt: null },
      }),
    ),
  );
  await index('after restore', { sort: 'id' });

  // A status outside the list: the generated union refuses it, the server answers 422.
  await record(
    'unlisted status',
    fromOpenapiFetch(
      'POST /issues',
      // @ts-expect-error: 'closed' is not one of the listed statuses
      api.POST('/issues', { body: { projectId: project, title: 'Closed already', status: 'closed' } }),
    ),
  );
  await index('unlisted filter', { 'filter[status]': 'closed' });
  await record(
    'no token',
    fromOpenapiFetch('GET /issues/stats', anonymous.GET('/issues/stats', { params: { query: { group: 'status' } } })),
  );
  return { created, replies, typed: { labelIds, status, counted, grouped } };
}

/** Every call, made by Orval's client with the caller's bearer token (and one without). */
export async function withOrval({ baseUrl, token }: Caller): Promise<ClientRun> {
  useBaseUrl(baseUrl);
  const auth: RequestInit = { headers: { Authorization: `Bearer ${token}` } };
  const replies: Record<string, Reply> = {};
  const record = async (
    name: string,
    operation: string,
    call: Promise<{ data: unknown; status: number; headers: Headers }>,
  ) => {
    const reply = await fromOrval(operation, call);
    replies[name] = reply;
    return reply;
  };

  const projectReply = await orval.createProject({ name: 'Web' }, auth);
  if (projectReply.status !== 200) throw new Error(`project: ${projectReply.status}`);
  const project = projectReply.data.project.id;
  const label = async (name: string, color: string) => {
    const reply = await orval.createLabel({ name, color }, auth);
    if (reply.status !== 200) throw new Error(`label ${name}: ${reply.status}`);
    return reply.data.label.id;
  };
  const bug = await label('bug', '#d73a4a');
  const ui = await label('ui', '#0e8a16');
  const crashReply = await orval.createIssue(
    {
      projectId: project,
      title: 'Login crash on submit',
      body: 'The form crashes after the password',
      status: 'in_progress',
      estimate: '2.50',
      labelIds: [ui, bug, ui],
    },
    auth,
  );
  replies.created = await fromOrval('POST /issues', Promise.resolve(crashReply));
  if (crashReply.status !== 200) throw new Error(`crash: ${crashReply.status}`);
  const labelIds: number[] = crashReply.data.issue.labelIds;
  const status: 'open' | 'in_progress' | 'done' = crashReply.data.issue.status;
  const issue = async (body: Parameters<typeof orval.createIssue>[0]) => {
    const reply = await orval.createIssue(body, auth);
    if (reply.status !== 200) throw new Error(`issue: ${reply.status}`);
    return reply.data.issue.id;
  };
  const exported = await issue({ projectId: project, title: 'Crash report export', estimate: 1.25, labelIds: [ui] });
  const typo = await issue({
    issue: { projectId: project, title: 'Login page typo', status: 'done', estimate: '3', labelIds: [bug] },
  });
  const created: Created = { project, bug, ui, crash: crashReply.data.issue.id, exported, typo };

  const index = (name: string, query: Parameters<typeof orval.indexIssues>[0]) =>
    record(name, 'GET /issues', orval.indexIssues(query, auth));
  const stats = (name: string, query: Parameters<typeof orval.statsIssues>[0]) =>
    record(name, 'GET /issues/stats', orval.statsIssues(query, auth));

  await index('search', { q: 'login crash', 'filter[labels.name]': 'bug', include: ['labels'] });
  await index('any label', { q: 'crash', 'filter[labels.name][]': ['bug', 'ui'], sort: 'id' });
  await stats('stats', { group: 'status', sum: 'estimate' });
  await stats('stats searched', { q: 'login', group: 'status', sum: 'estimate' });
  await stats('stats by label', { 'filter[labels.name]': 'ui', max: 'estimate' });
  const statsReply = await orval.statsIssues({ group: 'status' }, auth);
  if (statsReply.status !== 200) throw new Error(`stats: ${statsReply.status}`);
  const counted: number | undefined = statsReply.data.stats[0]?.count;
  const grouped: Status | null | undefined = statsReply.data.stats[0]?.status;

  await record('archive', 'DELETE /issues/{id}', orval.destroyIssue(typo, auth));
  await record('archived show', 'GET /issues/{id}', orval.showIssue(typo, undefined, auth));
  await stats('archived stats', { archived: true, 'filter[archivedAt][null]': false });
  await record(
    'restore',
    'PATCH /issues/{id}',
    orval.updateIssue(typo, { archivedAt: null }, { archived: true }, auth),
  );
  await index('after restore', { sort: 'id' });

  await record(
    'unlisted status',
    'POST /issues',
    // @ts-expect-error: 'closed' is not one of the listed statuses
    orval.createIssue({ projectId: project, title: 'Closed already', status: 'closed' }, auth),
  );
  await index('unlisted filter', { 'filter[status]': 'closed' });
  await record('no token', 'GET /issues/stats', orval.statsIssues({ group: 'status' }));
  return { created, replies, typed: { labelIds, status, counted, grouped } };
}
