import type { FieldAccess } from '../access/declare.js';
import { ruleOf } from '../access/resource-access.js';
import { ACTIONS, type ActionName, type ActionSpec, BULK_ACTIONS } from '../contract/actions.js';
import type { CompiledResource } from '../resource/compile.js';
import { compiledResource } from '../resource/define-resource.js';
import { accessOf, readRules, refusedFor, restricts } from './access-schemas.js';
import { PROBLEM_RESPONSE_STATUS } from './problem-refs.js';
import { type ProblemResponseName, problemRef } from './problems.js';
import type { DocumentedRelation } from './relations.js';
import type { JsonSchema } from './schemas.js';
import { targetPath } from './stats-operation.js';

// What the access model adds to a resource's operations: the security an anonymous action
// relaxes, 401 and 403, the `archived` parameter and the archiving destroy, and the words on
// parameters that name fields some callers may not read.

/** What the document knows of the API's access. */
export interface DocumentedAccess {
  /** Whether the API has `authenticate`. */
  readonly authenticates: boolean;
  /** The root security requirements. */
  readonly security: readonly Record<string, string[]>[];
}

type Operation = JsonSchema & { responses: Record<string, unknown>; parameters?: JsonSchema[] };

/** Adds shared problem responses to an operation, its responses kept in the order of their statuses. */
function addProblems(operation: Operation, ...names: ProblemResponseName[]): void {
  const all: Record<string, unknown> = { ...operation.responses };
  for (const name of names) all[PROBLEM_RESPONSE_STATUS[name]] ??= problemRef(name);
  const rank = (status: string) => (status === 'default' ? 1000 : Number(status));
  operation.responses = Object.fromEntries(Object.entries(all).sort(([a], [b]) => rank(a) - rank(b)));
}

/** Whether the declaration may refuse the action to some callers (403), the API authenticating or not. */
function mayRefuse(compiled: CompiledResource, action: ActionName): boolean {
  const access = accessOf(compiled);
  const kind = ruleOf(action);
  if (restricts(access[kind]) || (kind !== 'create' && restricts(access.read))) return true;
  if (kind !== 'create' && kind !== 'update') return false;
  if (Object.values(access.fields ?? {}).some((rules) => restricts((rules as FieldAccess | undefined)?.[kind]))) {
    return true;
  }
  // An upsert may update the record it finds, under the update's rules.
  return action === 'create' && compiled.upsert.size > 0 && mayRefuse(compiled, 'update');
}

/** A resource's operations with their actions; `many`: a bulk write on the collection (`PATCH`, `DELETE`). */
function operationsOf(compiled: CompiledResource, items: Record<string, Record<string, unknown>>) {
  const { path } = compiled.resource;
  const of = (spec: ActionSpec, many: boolean) => ({
    operation: items[targetPath(spec.target, path)]?.[spec.method.toLowerCase()],
    action: spec.name,
    many,
  });
  return [...ACTIONS.map((spec) => of(spec, false)), ...BULK_ACTIONS.map((spec) => of(spec, true))].filter(
    (entry): entry is { operation: Operation; action: ActionName; many: boolean } => Boolean(entry.operation),
  );
}

/** The `archived` parameter of index, show, update and statistics, on a resource that archives instead of deleting. */
function archivedParameter(
  compiled: CompiledResource,
  action: 'index' | 'show' | 'update' | 'stats' | 'events',
): JsonSchema {
  const { name, plural } = compiled.resource;
  const field = compiled.archive as string;
  const descriptions = {
    index: `\`true\` lists the archived ${plural} too (those destroyed: \`${field}\` set; \`filter[${field}][null]=false\` then lists only them). By default they are left out.`,
    show: `\`true\` shows the ${name} even when it is archived (destroyed: \`${field}\` set); by default an archived ${name} is 404.`,
    stats: `\`true\` counts the archived ${plural} too (those destroyed: \`${field}\` set; \`filter[${field}][null]=false\` then counts only them). By default they are left out.`,
    events: `\`true\` sends the changes of the archived ${plural} too (an archive is then an \`updated\` event); by default archiving a ${name} sends \`destroyed\` and an archived ${name}'s changes are not sent.`,
    update: `\`true\` finds the ${name} even when it is archived (by default an archived ${name} is 404): to change it where it is (it stays archived), or to restore it by sending \`{"${field}": null}\`.`,
  };
  return {
    name: 'archived',
    in: 'query',
    description: descriptions[action],
    schema: { type: 'boolean', default: false },
  };
}

/** Adds a parameter before the header parameters (the query's parameters come first). */
function addParameter(operation: Operation, parameter: JsonSchema): void {
  const list = operation.parameters ?? [];
  const header = list.findIndex((entry) => entry.in === 'header');
  list.splice(header === -1 ? list.length : header, 0, parameter);
  operation.parameters = list;
}

/** Says, on the parameters naming fields, which are refused to callers who may not read them. */
function noteReadRules(compiled: CompiledResource, operation: Operation, relations: readonly DocumentedRelation[]) {
  const own = readRules(compiled);
  const targets = new Map(relations.map((relation) => [relation.name, relation.target]));
  for (const parameter of operation.parameters ?? []) {
    const name = String(parameter.name);
    const filtered = /^filter\[([^\]]+)\]/.exec(name)?.[1];
    if (filtered !== undefined) {
      const dot = filtered.indexOf('.');
      const target = dot === -1 ? undefined : targets.get(filtered.slice(0, dot));
      const rules = dot === -1 ? own : target ? readRules(compiledResource(target)) : new Map();
      const who = rules.get(dot === -1 ? filtered : filtered.slice(dot + 1));
      if (who !== undefined) parameter.description = `${parameter.description}${refusedFor(filtered, who)}`;
    } else if (name === 'sort' || name === 'fields' || (compiled.stats && name in compiled.stats)) {
      const stats = compiled.stats as Record<string, ReadonlySet<string>> | undefined;
      const offered = name === 'sort' ? compiled.query.sortable : (stats?.[name] ?? compiled.query.fields);
      const notes = [...own].filter(([field]) => offered.has(field)).map(([field, who]) => refusedFor(field, who));
      parameter.description = `${parameter.description}${notes.join('')}`;
    }
  }
}

/**
 * Adds to the path items of one resource what its access model and the API's authentication
 * say: on an API with `authenticate`, 401 and 403 on every operation, and the security made
 * optional (`[{}, ...]`) on the actions `access.anonymous` lists; elsewhere 403 on operations
 * a rule may refuse. A resource with `archive` gets `archived` on index, show and update, an
 * update that says how to restore, and a destroy (one or several) that says it archives. The bulk
 * writes on the collection (`PATCH`, `DELETE`) follow the rules of update and destroy; the 403 of
 * a write that takes a list names fields by JSON Pointer. Parameters naming a field some callers
 * may not read say they are refused to them.
 *
 * @example
 * ```ts
 * const items = resourcePaths(compiled, names, operationId);
 * describeOperationAccess(compiled, items, { authenticates: true, security: [{ bearer: [] }] }, relations);
 * ```
 */
export function describeOperationAccess(
  compiled: CompiledResource,
  items: Record<string, Record<string, unknown>>,
  api: DocumentedAccess,
  relations: readonly DocumentedRelation[],
): void {
  const { name, plural } = compiled.resource;
  const anonymous = new Set(accessOf(compiled).anonymous ?? []);
  for (const { operation, action, many } of operationsOf(compiled, items)) {
    // A 403 on a write that takes a list names the fields by JSON Pointer into the body.
    const forbidden =
      compiled.bulk && (action === 'create' || (many && action === 'update')) ? 'BulkForbidden' : 'Forbidden';
    if (api.authenticates) {
      addProblems(operation, 'Unauthorized', forbidden);
      if (anonymous.has(action) && api.security.length > 0) {
        // A caller without credentials may take it; one with credentials that are not good is still a 401.
        operation.security = [{}, ...structuredClone(api.security)];
        operation.description = `${operation.description ? `${operation.description} ` : ''}Callers without credentials may take it too; credentials that are not good are 401.`;
      }
    } else if (mayRefuse(compiled, action)) {
      addProblems(operation, forbidden);
    }
    const archived =
      action === 'index' || action === 'show' || action === 'update' || action === 'stats' || action === 'events';
    if (compiled.archive && archived && !many) {
      addParameter(operation, archivedParameter(compiled, action));
      addProblems(operation, 'BadRequest');
    }
    if (compiled.archive && action === 'update' && !many) {
      operation.description = `${operation.description ? `${operation.description} ` : ''}Restoring an archived ${name}: \`?archived=true\` with \`{"${compiled.archive}": null}\` (with other changes or alone), allowed to whoever may destroy it (403 naming \`${compiled.archive}\` for the others); If-Match and the update's rules apply as to any update.`;
    }
    if (compiled.archive && action === 'destroy') {
      const which = many ? `the ${plural}` : `the ${name}`;
      operation.summary = many ? `Archive several ${plural}` : `Archive a ${name}`;
      operation.description = `Archives ${which} rather than deleting ${many ? 'them' : 'it'}: sets \`${compiled.archive}\`; an archived ${name} is kept but answers 404 on show, update and destroy, and is left out of the index, unless asked for with \`archived=true\` (index, show). ${operation.description}`;
      (operation.responses['204'] as JsonSchema).description = many
        ? `The ${plural} were archived`
        : `The ${name} was archived`;
    }
    if (ruleOf(action) === 'read') noteReadRules(compiled, operation, relations);
  }
}
