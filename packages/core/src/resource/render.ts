import { etagOf, notModified } from '../http/conditional.js';
import { cursorHeaders, paginationHeaders } from '../http/links.js';
import type { NeutralRequest } from '../http/neutral.js';
import { parseMemberQuery } from '../query/parse-query.js';
import { checkName } from '../query/resolve-filter.js';
import { checkInclude } from '../query/resolve-query.js';
import type { Context } from './context.js';
import type { RecordOf } from './context-types.js';
import { encodeCursor } from './cursor.js';
import { addIncluded } from './include.js';
import type { Listed } from './step-types.js';
import { cursorBinding } from './steps.js';

type Rec = RecordOf<Record<string, unknown>>;

/** What an answer holds of each record: the relations to add, and the fields to keep (all when `undefined`). */
export interface View {
  readonly include: readonly string[];
  readonly fields: readonly string[] | undefined;
  /** `archived=true`: an archived record is shown too. */
  readonly archived?: boolean;
}

/** The view a show asks for (`include=`, `fields=`; its other query parameters are not read). */
export function memberView(ctx: Context): View {
  const { rawQuery } = ctx.request;
  if (rawQuery === '') return { include: [], fields: undefined };
  const { include, fields, archived } = parseMemberQuery(rawQuery, ctx.compiled.limits);
  for (const field of fields ?? []) checkName('fields', field, ctx.view.query.fields);
  return { include: checkInclude(include, ctx.compiled.query.relations), fields, archived };
}

/** `id` and the asked fields of a rendered record (the included relations are added after). */
function sparse(rendered: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const kept: Record<string, unknown> = { id: rendered.id };
  for (const field of fields) if (Object.hasOwn(rendered, field)) kept[field] = rendered[field];
  return kept;
}

/**
 * A record as this caller sees it: the resource's render step, without the fields hidden from
 * the caller, whatever the step added.
 */
export function renderRecord(ctx: Context, record: Rec): Record<string, unknown> {
  const { steps } = ctx.compiled;
  const rendered = steps.render(record, ctx);
  // The default render shows only the fields the caller may read; one of the resource's own may add any.
  if (steps.rendered) for (const field of ctx.view.hidden) delete rendered[field];
  return rendered;
}

/** Records as the client sees them: rendered, narrowed to the asked fields, with the included relations. */
export async function renderAll(ctx: Context, records: readonly Rec[], view: View): Promise<Record<string, unknown>[]> {
  const { fields, include } = view;
  const rendered = records.map((record) =>
    fields ? sparse(renderRecord(ctx, record), fields) : renderRecord(ctx, record),
  );
  if (include.length > 0) await addIncluded(ctx, include, records, rendered);
  return rendered;
}

/** The body of a one-record answer: `{ "<name>": rendered }`. */
export async function single(ctx: Context, record: Rec, view?: View): Promise<Record<string, unknown>> {
  const rendered = view ? (await renderAll(ctx, [record], view))[0] : renderRecord(ctx, record);
  return { [ctx.resource.name]: rendered };
}

/**
 * The answer of an index: the page's records and its pagination headers (page numbers or
 * cursors). An estimated total is sent as `X-Total-Count-Estimate`, never as `X-Total-Count`
 * (which stays exact), and tells no `last` page: `next` is found by the record read past the page.
 */
export async function indexAnswer(ctx: Context, request: NeutralRequest, listed: Listed<Record<string, unknown>>) {
  const query = ctx.query;
  const { perPage } = query;
  const hasMore = listed.records.length > perPage;
  const records = hasMore ? listed.records.slice(0, perPage) : listed.records;
  ctx.records = records;
  ctx.total = listed.total;
  ctx.estimated = listed.estimated === true && listed.total !== undefined;
  const exact = ctx.estimated ? undefined : listed.total;
  ctx.result = { [ctx.resource.plural]: await renderAll(ctx, records, query) };
  if (ctx.compiled.query.pagination === 'cursor') {
    const last = records[records.length - 1];
    const next = hasMore && last ? await encodeCursor(ctx.keys, cursorBinding(ctx), last) : undefined;
    Object.assign(ctx.headers, cursorHeaders(request, next, exact));
  } else {
    Object.assign(ctx.headers, paginationHeaders(request, query.page, perPage, exact, hasMore));
  }
  if (ctx.estimated) ctx.headers['X-Total-Count-Estimate'] = String(listed.total);
}

/** A weak tag that no strong comparison matches: the tag of a derived representation. */
export const DERIVED = 'W/"derived"';

/**
 * The weak tag of a show answering a derived representation (`include=`, `fields=`), over the
 * answer as the after hooks left it, so that a change to a related record changes it too; and
 * the 304 when `If-None-Match` names it.
 */
export function tagAnswer(ctx: Context, request: NeutralRequest): void {
  const etag = `W/${etagOf(ctx.keys.etag, { answer: ctx.result })}`;
  ctx.headers.ETag = etag;
  if (notModified(request.headers['if-none-match'], etag)) {
    ctx.status = 304;
    ctx.result = undefined;
  }
}
