import fc from 'fast-check';
import { SignJWT } from 'jose';
import { expect } from 'vitest';

// Random data for the access property: two organizations, each with a few users, projects,
// labels, issues (some archived, with labels of their organization and estimates) and comments by
// two members, seeded through the API by the organization's own admin and members.

export const ROLES = ['viewer', 'member', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const NAMES = ['Ada', 'Bob', 'Casey', 'Dana'] as const;
export const PROJECT_NAMES = ['Roadmap', 'Infra', 'Web'] as const;
export const TITLES = ['Crash', 'Slow', 'Typo', 'Crash again'] as const;
export const STATUSES = ['open', 'in_progress', 'done'] as const;
export const LABEL_NAMES = ['bug', 'bugfix', 'ui', 'docs'] as const;
/** Estimates as sent (the answers carry them with two places). */
export const ESTIMATES = [null, '0.50', '3', '12.25', '-1.10', '0.05'] as const;

export interface IssuePlan {
  project: number;
  assignee: number | null;
  title: string;
  status: string;
  priority: number;
  estimate: string | null;
  /** Indexes into the organization's labels. */
  labels: number[];
  archived: boolean;
}

export interface OrgPlan {
  users: { name: string; role: Role }[];
  projects: string[];
  labels: string[];
  issues: IssuePlan[];
  comments: { issue: number; author: 2 | 3; body: string }[];
}

const orgPlan: fc.Arbitrary<OrgPlan> = fc.record({
  users: fc.array(fc.record({ name: fc.constantFrom(...NAMES), role: fc.constantFrom(...ROLES) }), {
    minLength: 1,
    maxLength: 3,
  }),
  projects: fc.uniqueArray(fc.constantFrom(...PROJECT_NAMES), { minLength: 1, maxLength: 3 }),
  labels: fc.uniqueArray(fc.constantFrom(...LABEL_NAMES), { maxLength: 4 }),
  issues: fc.array(
    fc.record({
      project: fc.nat(9),
      assignee: fc.option(fc.nat(9), { nil: null }),
      title: fc.constantFrom(...TITLES),
      status: fc.constantFrom(...STATUSES),
      priority: fc.integer({ min: 1, max: 4 }),
      estimate: fc.constantFrom(...ESTIMATES),
      // Most issues have labels (a label filter then has something to match or miss).
      labels: fc.oneof(
        { arbitrary: fc.constant<number[]>([]), weight: 1 },
        { arbitrary: fc.uniqueArray(fc.nat(9), { minLength: 1, maxLength: 3 }), weight: 3 },
      ),
      archived: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
    }),
    { maxLength: 5 },
  ),
  comments: fc.array(
    fc.record({
      issue: fc.nat(9),
      author: fc.constantFrom(2 as const, 3 as const),
      body: fc.constantFrom('ok', 'me too'),
    }),
    { maxLength: 5 },
  ),
});

/** The data of both organizations. */
export const worldPlan = fc.tuple(orgPlan, orgPlan);

/** A caller: organization 1 or 2, a role, one of three users (`sub` is `org * 10 + user`). */
export interface PrincipalPlan {
  org: 1 | 2;
  role: Role;
  user: 1 | 2 | 3;
}

export const principalPlan: fc.Arbitrary<PrincipalPlan> = fc.record({
  org: fc.constantFrom(1 as const, 2 as const),
  role: fc.constantFrom(...ROLES),
  user: fc.constantFrom(1 as const, 2 as const, 3 as const),
});

/** A client sending one principal's bearer token. */
export interface Client {
  // biome-ignore lint/suspicious/noExplicitAny: answers of any resource, read freely by the checks
  get(path: string): Promise<{ status: number; headers: Headers; body: any; text: string }>;
  // biome-ignore lint/suspicious/noExplicitAny: as for get
  send(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; text: string }>;
  /** The `Authorization` header it sends. */
  readonly authorization?: string;
}

export async function clientOf(baseUrl: string, secret: string, sub: number, org: number, role: Role): Promise<Client> {
  const claims: Record<string, unknown> = { sub, org, role };
  const token = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));
  const send = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(new URL(path.startsWith('/') ? `${baseUrl}${path}` : path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const json = /json/.test(response.headers.get('content-type') ?? '') && text ? JSON.parse(text) : undefined;
    return { status: response.status, headers: response.headers, body: json, text };
  };
  return { get: (path) => send('GET', path), send, authorization: `Bearer ${token}` };
}

/** The ids of each resource's records, of both organizations, in the order they were created. */
export type Seeded = Record<'users' | 'projects' | 'labels' | 'issues' | 'comments', (number | string)[]>;

async function created(client: Client, path: string, body: unknown, key: string): Promise<number | string> {
  const reply = await client.send('POST', path, body);
  expect(reply.status, `POST ${path} ${JSON.stringify(body)}: ${reply.text}`).toBe(200);
  return reply.body[key].id;
}

/** Seeds both organizations as planned (admins write users and projects, members the rest). */
export async function seed(baseUrl: string, secret: string, plans: readonly OrgPlan[]): Promise<Seeded> {
  const seeded: Seeded = { users: [], projects: [], labels: [], issues: [], comments: [] };
  for (const [index, plan] of plans.entries()) {
    const org = index + 1;
    const admin = await clientOf(baseUrl, secret, org * 10 + 1, org, 'admin');
    const members = [2, 3].map((n) => clientOf(baseUrl, secret, org * 10 + n, org, 'member'));
    const users: number[] = [];
    for (const [n, user] of plan.users.entries()) {
      const email = `${user.name.toLowerCase()}${n}@org${org}.example`;
      users.push((await created(admin, '/users', { ...user, email }, 'user')) as number);
    }
    const projects: number[] = [];
    for (const name of plan.projects) projects.push((await created(admin, '/projects', { name }, 'project')) as number);
    const labels: number[] = [];
    for (const [n, name] of plan.labels.entries()) {
      labels.push(
        (await created(await members[n % 2]!, '/labels', { name, color: `#00${org}0${n}0` }, 'label')) as number,
      );
    }
    const issues: number[] = [];
    for (const issue of plan.issues) {
      const body = {
        projectId: projects[issue.project % projects.length],
        assigneeId: issue.assignee === null ? null : users[issue.assignee % users.length],
        title: issue.title,
        status: issue.status,
        priority: issue.priority,
        estimate: issue.estimate,
        labelIds: labels.length ? issue.labels.map((n) => labels[n % labels.length]) : [],
      };
      issues.push((await created(await members[0]!, '/issues', body, 'issue')) as number);
    }
    for (const comment of issues.length ? plan.comments : []) {
      const body = { issueId: issues[comment.issue % issues.length], body: comment.body };
      seeded.comments.push(await created(await members[comment.author - 2]!, '/comments', body, 'comment'));
    }
    for (const [n, issue] of plan.issues.entries()) {
      if (!issue.archived) continue;
      const reply = await admin.send('DELETE', `/issues/${issues[n]}`);
      expect(reply.status, reply.text).toBe(204);
    }
    seeded.users.push(...users);
    seeded.projects.push(...projects);
    seeded.labels.push(...labels);
    seeded.issues.push(...issues);
  }
  return seeded;
}
