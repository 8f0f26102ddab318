// Calls an API with `authenticate` through openapi-fetch, typed by openapi-typescript from the
// API's own /openapi.json, as a team without access to the server's code would: the token goes
// in `Authorization` from a middleware asked before every request. generated-bearer-client.test.ts
// generates `bearer-schema.ts` next to a copy of this file, typechecks both with tsc (so every
// `@ts-expect-error` below must be an error the generated types raise) and runs `callAsTeam`.
// The repository's tsconfig leaves this file out: what it imports exists only in that copy.
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './bearer-schema.js';

/** What one call got: its status, its body (data or problem) and the challenge of a 401. */
export interface Reply {
  status: number;
  body: unknown;
  challenge: string | null;
}

const reply = async (call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<Reply> => {
  const { data, error, response } = await call;
  return { status: response.status, body: data ?? error, challenge: response.headers.get('www-authenticate') };
};

/** A client sending `token()` as a bearer token, asked for before every request (none: no header). */
export function bearerClient(baseUrl: string, token: () => string | undefined) {
  const client = createClient<paths>({ baseUrl });
  const auth: Middleware = {
    onRequest({ request }) {
      const current = token();
      if (current) request.headers.set('Authorization', `Bearer ${current}`);
      return request;
    },
  };
  client.use(auth);
  return client;
}

/** The calls of the test, with the member's token, the viewer's, and none. */
export async function callAsTeam(baseUrl: string, tokens: { member: string; viewer: string }) {
  const member = bearerClient(baseUrl, () => tokens.member);
  const viewer = bearerClient(baseUrl, () => tokens.viewer);
  const anonymous = bearerClient(baseUrl, () => undefined);

  // The tenant's id is set by the server from the token: not a member of the create body.
  // @ts-expect-error: orgId is read-only, absent from IssueCreateInput
  const withOrg: components['schemas']['IssueCreateInput'] = { title: 'Crash', orgId: 2 };
  // A user record without `email` (shown to admins only) is still a User.
  const withoutEmail: components['schemas']['User'] = { id: 1, orgId: 1, name: 'Ada', role: 'member' };

  const created = await reply(member.POST('/issues', { body: { title: 'Crash on start', priority: 2 } }));
  const listed = await reply(member.GET('/issues', { params: { query: { archived: true, sort: '-id' } } }));
  const unauthenticated = await anonymous.GET('/issues');
  // The 401 is typed: a problem with a code.
  const code: string | undefined = unauthenticated.error?.code;
  const forbidden = await reply(viewer.POST('/issues', { body: { title: 'Not mine to file', priority: 3 } }));
  const notices = await reply(anonymous.GET('/notices'));
  return {
    created,
    listed,
    unauthenticated: { ...(await reply(Promise.resolve(unauthenticated))), code },
    forbidden,
    notices,
    typed: [withOrg, withoutEmail],
  };
}
