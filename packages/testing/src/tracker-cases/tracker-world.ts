import type { HttpClient } from '../http-client.js';
import {
  type CommentJson,
  create,
  type IssueJson,
  type LabelJson,
  type ProjectJson,
  type ResourceName,
  type UserJson,
} from './tracker-records.js';
import { type Caller, callerOf, type Role } from './tracker-tokens.js';

// The data every group of the tracker suite starts from: two organizations, each with an admin,
// two members and a viewer (tokens only: the tracker trusts the claims), three users, two
// projects (one named alike in both), two labels, three issues and three comments (two members
// wrote them). Organization 2's names and texts are distinct from organization 1's, except the
// shared ones, so that a leak of them can be looked for in any answer.

/** One organization: its callers and the records seeded in it (as its admin sees them). */
export interface Org {
  readonly id: number;
  readonly admin: Caller;
  readonly member: Caller;
  /** A second member of the same organization. */
  readonly otherMember: Caller;
  readonly viewer: Caller;
  readonly users: UserJson[];
  readonly projects: ProjectJson[];
  readonly labels: LabelJson[];
  /** Crash (priority 2, assigned), Slow (in progress, priority 4, assigned), Typo (defaults, unassigned). */
  readonly issues: IssueJson[];
  /** By the member on issue 0, by the other member on issue 0, by the member on issue 1. */
  readonly comments: CommentJson[];
}

/** Both organizations, the server's base client and the secret tokens are signed with. */
export interface World {
  readonly api: HttpClient;
  readonly secret: string;
  readonly one: Org;
  readonly two: Org;
}

/** A caller of `org` with `role`; `sub` is `org * 10 + n` (n: admin 1, member 2, other member 3, viewer 4). */
export function subOf(org: number, n: number): number {
  return org * 10 + n;
}

/** The callers of one organization. */
async function callers(api: HttpClient, org: number, secret: string) {
  const of = (n: number, role: Role, expires: boolean) =>
    callerOf(api, { sub: subOf(org, n), org, role }, secret, expires);
  return {
    admin: await of(1, 'admin', false),
    member: await of(2, 'member', true),
    otherMember: await of(3, 'member', true),
    viewer: await of(4, 'viewer', true),
  };
}

async function seedOrg(api: HttpClient, org: number, secret: string): Promise<Org> {
  const tag = org === 1 ? 'One' : 'Two';
  const domain = `${tag.toLowerCase()}.example`;
  const who = await callers(api, org, secret);
  const as = <T extends Record<string, unknown>>(caller: Caller, name: ResourceName, values: Record<string, unknown>) =>
    create<T>(caller, name, caller.claims?.role ?? 'admin', values);
  const users = [
    await as<UserJson>(who.admin, 'user', { name: `Ada ${tag}`, email: `ada.lovelace@${domain}`, role: 'admin' }),
    await as<UserJson>(who.admin, 'user', { name: `Mallory ${tag}`, email: `mallory.m@${domain}`, role: 'member' }),
    await as<UserJson>(who.admin, 'user', { name: 'Casey Common', email: `casey.c@${domain}`, role: 'viewer' }),
  ];
  const projects = [
    await as<ProjectJson>(who.admin, 'project', { name: 'Roadmap' }),
    await as<ProjectJson>(who.admin, 'project', { name: `Project ${tag} Only` }),
  ];
  const labels = [
    await as<LabelJson>(who.member, 'label', { name: 'bug', color: '#d73a4a' }),
    await as<LabelJson>(who.member, 'label', { name: `label-${tag}`, color: org === 1 ? '#00aa00' : '#0000bb' }),
  ];
  const [roadmap, only] = projects as [ProjectJson, ProjectJson];
  const issues = [
    await as<IssueJson>(who.member, 'issue', {
      projectId: roadmap.id,
      title: `Crash on start ${tag}`,
      body: `Stack trace of ${tag}`,
      priority: 2,
      assigneeId: users[0]?.id,
    }),
    await as<IssueJson>(who.member, 'issue', {
      projectId: only.id,
      title: `Slow search ${tag}`,
      status: 'in_progress',
      priority: 4,
      assigneeId: users[1]?.id,
      dueDate: '2024-06-30',
      estimate: '3.50',
    }),
    await as<IssueJson>(who.otherMember, 'issue', { projectId: roadmap.id, title: `Typo ${tag}` }),
  ];
  const [crash, slow] = issues as [IssueJson, IssueJson];
  const comments = [
    await as<CommentJson>(who.member, 'comment', { issueId: crash.id, body: `Seen it too, ${tag}` }),
    await as<CommentJson>(who.otherMember, 'comment', { issueId: crash.id, body: `Same here, ${tag}` }),
    await as<CommentJson>(who.member, 'comment', { issueId: slow.id, body: `Working on it, ${tag}` }),
  ];
  return { id: org, ...who, users, projects, labels, issues, comments };
}

/** Seeds both organizations through the API (their admins and members), organization 1 first. */
export async function seedWorld(api: HttpClient, secret: string): Promise<World> {
  const one = await seedOrg(api, 1, secret);
  const two = await seedOrg(api, 2, secret);
  return { api, secret, one, two };
}

/** What organization `org`'s records hold that no caller of the other organization may ever read. */
export function secretsOf(org: Org): string[] {
  return [
    ...org.users.filter((user) => user.name !== 'Casey Common').map((user) => user.name),
    ...org.users.map((user) => user.email as string),
    ...org.projects.filter((project) => project.name !== 'Roadmap').map((project) => project.name),
    ...org.labels.filter((label) => label.name !== 'bug').map((label) => label.name),
    ...org.issues.map((issue) => issue.title),
    ...org.comments.map((comment) => comment.body),
  ];
}

/** The emails of both organizations: no answer to a caller other than an admin may hold one. */
export function emailsOf(world: World): string[] {
  return [...world.one.users, ...world.two.users].map((user) => user.email as string);
}
