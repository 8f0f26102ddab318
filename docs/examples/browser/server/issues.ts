// The server's declaration of the issues a browser app calls (docs/client.md, "In a browser
// project"): decorated models, compiled with experimentalDecorators as the server needs them.
import { belongsTo, defineResource, type ServerSet } from '@resourcery/core';
import { IsIn, IsInt, IsString, Length, Max, Min } from 'class-validator';

export class Project {
  @IsString() @Length(1, 100) name!: string;
}

export class Issue {
  @IsInt() orgId!: ServerSet<number>; // the signed-in user's organization, never sent by clients
  @IsInt() projectId!: number;
  @IsString() @Length(1, 200) title!: string;
  @IsIn(['open', 'in_progress', 'done']) status!: string;
  @IsInt() @Min(1) @Max(4) priority!: number;
}

/** What the API's `state` option finds for each request (here, from a session or a token). */
export interface State {
  orgId?: number;
}

export const projects = defineResource({ name: 'project', model: Project });

export const issues = defineResource.withState<State>()({
  name: 'issue',
  model: Issue,
  defaults: { status: 'open', priority: 3 }, // a create may leave them out
  fields: { readOnly: ['orgId'] },
  relations: { project: belongsTo(Project, { foreignKey: 'projectId' }) },
  steps: {
    scope: (ctx) => ({ orgId: ctx.state.orgId ?? 0 }),
    prepare: (ctx, next) => (ctx.action === 'create' ? { ...next(), orgId: ctx.state.orgId } : next()),
  },
});
