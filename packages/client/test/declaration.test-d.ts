import 'reflect-metadata';
import { type ActionContext, belongsTo, defineResource, type ServerSet } from '@resourcery/core';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type CreateInput,
  type DefaultedKey,
  type RelationName,
  resourceClient,
  type UpdateInput,
} from '../src/index.js';

// What a create may leave out, and what a declaration keeps for clients when it types
// `ctx.state`: every `@ts-expect-error` is a mistake the types must refuse.

class Project {
  @IsString() @Length(1, 100) name!: string;
  @IsInt() orgId!: ServerSet<number>;
}

/** An issue: `orgId` is set by the server from the token, `status` and `priority` have defaults. */
class Issue {
  @IsInt() orgId!: ServerSet<number>;
  @IsInt() projectId!: number;
  @IsString() @Length(1, 200) title!: string;
  @IsIn(['open', 'in_progress', 'done']) status!: string;
  @IsInt() @Min(1) @Max(4) priority!: number;
  @IsOptional() @IsString() body?: string | null;
}

interface TrackerState {
  user?: { id: number; org: number };
}

const options = {
  name: 'issue',
  model: Issue,
  fields: { readOnly: ['orgId'] },
  defaults: { status: 'open', priority: 3 },
  relations: { project: belongsTo(Project, { foreignKey: 'projectId' }) },
} as const;

const issues = defineResource({ ...options, fields: { readOnly: ['orgId'] } });
const stateful = defineResource.withState<TrackerState>()({
  ...options,
  fields: { readOnly: ['orgId'] },
  hooks: {
    before: {
      create: (ctx) => {
        expectTypeOf(ctx.state).toEqualTypeOf<TrackerState>();
      },
    },
  },
});

type IssueInput = { projectId: number; title: string; status?: string; priority?: number; body?: string | null };

describe('a create leaves out what the server sets or defaults', () => {
  it('makes the fields with a declared default optional, and keeps their types', () => {
    expectTypeOf<DefaultedKey<typeof issues>>().toEqualTypeOf<'status' | 'priority'>();
    const client = resourceClient<typeof issues>({ baseUrl: '/api', name: 'issue' });
    expectTypeOf(client.create).parameter(0).toEqualTypeOf<IssueInput>();
    expectTypeOf<CreateInput<Issue, DefaultedKey<typeof issues>>>().toEqualTypeOf<IssueInput>();
    client.create({ projectId: 1, title: 'Crash on start' });
    client.create({ projectId: 1, title: 'Crash on start', status: 'done', priority: 1 });
    // @ts-expect-error: a default does not make a field take another type
    client.create({ projectId: 1, title: 'Crash on start', priority: 'high' });
    // @ts-expect-error: title has no default
    client.create({ projectId: 1 });
  });

  it('leaves a decorated ServerSet field out of create and update', () => {
    const client = resourceClient<typeof issues>({ baseUrl: '/api', name: 'issue' });
    expectTypeOf<UpdateInput<Issue>>().toEqualTypeOf<Partial<IssueInput>>();
    // @ts-expect-error: orgId is set by the server
    client.create({ projectId: 1, title: 'Crash on start', orgId: 2 });
    // @ts-expect-error: orgId is set by the server
    client.update(1, { orgId: 2 });
    expectTypeOf(client.show(1)).resolves.toHaveProperty('orgId').toEqualTypeOf<number>();
  });

  it('requires every field of a resource without defaults, as before', () => {
    const projects = defineResource({ name: 'project', model: Project });
    expectTypeOf<DefaultedKey<typeof projects>>().toEqualTypeOf<never>();
    const client = resourceClient<typeof projects>({ baseUrl: '/api', name: 'project' });
    expectTypeOf(client.create).parameter(0).toEqualTypeOf<{ name: string }>();
  });

  it('refuses a default for a field the model does not have', () => {
    // @ts-expect-error: not a field of Issue
    defineResource({ name: 'issue', model: Issue, defaults: { state: 'open' } });
  });
});

describe('defineResource.withState<State>() types ctx.state and infers the rest', () => {
  it('keeps the name, the relations and the defaults, as defineResource without a state does', () => {
    expectTypeOf(stateful.name).toEqualTypeOf<'issue'>();
    expectTypeOf<RelationName<typeof stateful>>().toEqualTypeOf<'project'>();
    expectTypeOf<DefaultedKey<typeof stateful>>().toEqualTypeOf<'status' | 'priority'>();
    const client = resourceClient<typeof stateful>({ baseUrl: '/api', name: 'issue' });
    expectTypeOf(client.create).parameter(0).toEqualTypeOf<IssueInput>();
    expectTypeOf(client.show(1, { include: ['project'] }))
      .resolves.toHaveProperty('project')
      .toEqualTypeOf<{ id: number; name: string; orgId: number } | null>();
    // @ts-expect-error: the resource is named "issue"
    resourceClient<typeof stateful>({ baseUrl: '/api', name: 'issues' });
    // @ts-expect-error: not a relation of issue
    client.show(1, { include: ['assignee'] });
  });

  it('types the hooks and steps with the state', () => {
    defineResource.withState<TrackerState>()({
      name: 'issue',
      model: Issue,
      steps: {
        scope: (ctx) => {
          expectTypeOf(ctx).toEqualTypeOf<ActionContext<Issue, TrackerState>>();
          return { orgId: ctx.state.user?.org ?? 0 };
        },
      },
    });
    defineResource.withState<TrackerState>()({
      name: 'issue',
      model: Issue,
      // @ts-expect-error: the state has no `tenant`
      steps: { scope: (ctx) => ({ orgId: ctx.state.tenant }) },
    });
  });
});
