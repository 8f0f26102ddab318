import { belongsTo, defineResource, hasMany, manyToMany } from '@resourcery/core';
import { Comment, Issue, Label, Project, User } from './models.js';
import type { TrackerPrincipal } from './principal.js';

// Who may do what is declared here, once per resource; the API enforces it on every path that
// reads, counts, references or changes records (include=, relation filters, foreign keys too).
// Tenancy (`orgId`) is declared once for all of them in app.ts.

/** Members and admins write; viewers only read. */
const writers = ['member', 'admin'];
const admins = ['admin'];

/** Admins change every comment; members only those they wrote (the others are 403). */
const ownComments = (p: TrackerPrincipal) => p.role === 'admin' || (p.role === 'member' && { authorId: p.sub });

export const users = defineResource({
  name: 'user',
  model: User,
  timestamps: true,
  unique: ['email'],
  access: { create: admins, update: admins, destroy: admins, fields: { email: { read: admins } } },
  relations: { issues: hasMany(Issue, { foreignKey: 'assigneeId' }) },
  // `group=email` is for admins only: to others `email` is a field that does not exist.
  stats: { group: ['role', 'email'] },
  // GET /api/users/events: live events (docs/live.md); `email` is absent from them for non-admins too.
  live: true,
});

export const projects = defineResource({
  name: 'project',
  model: Project,
  timestamps: true,
  unique: ['name'],
  access: { create: writers, update: writers, destroy: admins },
  relations: { issues: hasMany(Issue, { foreignKey: 'projectId' }) },
});

export const labels = defineResource({
  name: 'label',
  model: Label,
  unique: ['name'],
  // POST /api/labels?upsert=name: the organization's label of that name, updated or created.
  upsert: ['name'],
  access: { create: writers, update: writers, destroy: admins },
});

export const issues = defineResource({
  name: 'issue',
  model: Issue,
  timestamps: true,
  types: { dueDate: 'date' },
  defaults: { status: 'open', priority: 3 },
  archive: 'archivedAt',
  // The organization's count of its issues (X-Total-Count of GET /api/issues) is kept as they are
  // written, not counted on each request (PostgreSQL; docs/stores.md, "Kept counts").
  keepCount: true,
  // GET /api/issues/stats?group=status,priority&sum=estimate (docs/statistics.md).
  stats: {
    group: ['status', 'priority', 'projectId', 'assigneeId', 'dueDate'],
    sum: ['estimate', 'priority'],
    min: ['estimate', 'dueDate', 'createdAt'],
    max: ['estimate', 'dueDate', 'createdAt'],
  },
  search: ['title', 'body'],
  // POST, PATCH and DELETE /api/issues take up to 100 records at once, all or none (docs/bulk.md).
  bulk: true,
  // GET /api/issues/events?filter[status]=open: each committed change as a show renders it (docs/live.md).
  live: true,
  access: { create: writers, update: writers, destroy: admins, fields: { priority: { update: admins } } },
  relations: {
    project: belongsTo(Project, { foreignKey: 'projectId' }),
    assignee: belongsTo(User, { foreignKey: 'assigneeId', onDelete: 'nullify' }),
    comments: hasMany(Comment, { foreignKey: 'issueId' }),
    labels: manyToMany(Label, { ids: 'labelIds' }),
  },
});

export const comments = defineResource({
  name: 'comment',
  model: Comment,
  timestamps: true,
  pagination: 'cursor',
  live: true,
  access: {
    create: writers,
    update: ownComments,
    destroy: ownComments,
    presets: { authorId: (p) => p.sub },
  },
  relations: { issue: belongsTo(Issue, { foreignKey: 'issueId', onDelete: 'cascade' }) },
});

/** The tracker's resources, referenced ones first. */
export const resources = [users, projects, labels, issues, comments] as const;
