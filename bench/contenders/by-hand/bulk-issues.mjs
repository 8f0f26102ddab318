// The tracker's bulk create of issues (`POST /api/issues` with `{"issues": [...]}`) written by
// hand, as a careful developer would without the library, for bench/bulk.mjs: the bearer token
// verified (jose) and its claims read by the tracker's own `trackerPrincipal`, members and admins
// only, the organization from the token; each entry checked (known and writable fields, required
// ones, types, `labelIds`, the `date` and 2-place decimal formats) and validated by class-validator
// on the tracker's own `Issue` model, with the defaults (`status`, `priority`) applied; the
// project, assignee and labels each looked up once for the whole batch among the caller's
// organization's; then, in one transaction, ONE multi-row `INSERT ... RETURNING` of the issues
// (with their search words), one multi-row `INSERT` of their join rows and one of their changes
// (the tracker's issues are live; bulk-issues-sql.mjs); the answer the
// library gives (`{"issues": [...]}`, every field, in the order sent), or one 422 whose `errors`
// are keyed by JSON Pointer (`/issues/2/title`), nothing written.
import { validate } from 'class-validator';
import { jwtVerify } from 'jose';
import { Problem } from './books.mjs';

const WRITABLE = new Set(['projectId', 'title', 'body', 'status', 'priority', 'assigneeId', 'dueDate', 'estimate']);
const READ_ONLY = new Set(['id', 'orgId', 'archivedAt', 'createdAt', 'updatedAt']);
const NULLABLE = new Set(['body', 'assigneeId', 'dueDate', 'estimate']);
const DEFAULTS = { status: 'open', priority: 3 };
const MAX = 100;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DECIMAL = /^(-?)(\d{1,16})(?:\.(\d{1,2}))?$/;
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(;|$)/i;

/** The columns written, in the order of the `INSERT`. */
export const COLUMNS = [
  'orgId',
  'projectId',
  'title',
  'body',
  'status',
  'priority',
  'assigneeId',
  'dueDate',
  'estimate',
  'createdAt',
  'updatedAt',
  'title__words',
  'body__words',
];
/** The columns read back, in the order the library answers them (then `labelIds`). */
export const RETURNED = [
  'id',
  'orgId',
  'projectId',
  'title',
  'body',
  'status',
  'priority',
  'assigneeId',
  'dueDate',
  'estimate',
  'archivedAt',
  'createdAt',
  'updatedAt',
];

const add = (errors, field, message) => {
  errors[field] ??= [];
  errors[field].push(message);
};
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

function validDate(text) {
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** Checks one entry (flat); answers its values with the defaults, its label ids, and its errors by field. */
async function checkEntry(Issue, entry) {
  const errors = {};
  const values = { ...DEFAULTS };
  let labelIds = [];
  for (const [field, value] of Object.entries(entry)) {
    if (field === 'labelIds') {
      const ok = Array.isArray(value) && value.every((id) => Number.isSafeInteger(id) && id > 0);
      if (ok) labelIds = [...new Set(value)].sort((a, b) => a - b);
      else add(errors, field, 'must be an array of ids');
    } else if (READ_ONLY.has(field)) add(errors, field, 'is read-only');
    else if (!WRITABLE.has(field)) add(errors, field, 'is not a known field');
    else if (value === null && !NULLABLE.has(field)) add(errors, field, 'must not be null');
    else values[field] = value;
  }
  for (const field of ['projectId', 'title']) if (entry[field] === undefined) add(errors, field, 'is required');
  if (typeof values.dueDate === 'string' && !validDate(values.dueDate))
    add(errors, 'dueDate', 'must be a date (YYYY-MM-DD)');
  if (typeof values.estimate === 'number') values.estimate = String(values.estimate);
  const failures = await validate(Object.assign(new Issue(), values), {
    skipUndefinedProperties: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
  });
  for (const failure of failures) {
    for (const message of Object.values(failure.constraints ?? {})) add(errors, failure.property, message);
  }
  return { values, labelIds, errors };
}

/** A 2-place decimal's text as hundredths (SQLite keeps it scaled, as the library does). */
export function hundredths(text) {
  const [, sign, whole, places = ''] = DECIMAL.exec(text);
  const value = Number(whole) * 100 + Number(places.padEnd(2, '0'));
  return sign ? -value : value;
}

/** Hundredths as the library answers a 2-place decimal: `'12.50'`. */
export function decimalText(value) {
  const abs = Math.abs(value);
  return `${value < 0 ? '-' : ''}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * The route: `(request) => { status, headers, body }` over a neutral request (what `api.handle`
 * takes), on `db`, one of the drivers of bulk-issues-sql.mjs.
 *
 * @example
 * ```js
 * const route = bulkIssuesByHand({ Issue, principal: trackerPrincipal, secret, searchWords, db });
 * const answer = await route(request); // { status: 200, headers, body: '{"issues":[...]}' }
 * ```
 */
export function bulkIssuesByHand({ Issue, principal: principalOf, secret, searchWords, db }) {
  const key = new TextEncoder().encode(secret);
  const words = db.words(searchWords);

  async function caller(request) {
    const match = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(request.headers.authorization ?? '');
    if (!match) throw new Problem(401, 'unauthorized', 'A bearer token is required');
    let claims;
    try {
      ({ payload: claims } = await jwtVerify(match[1], key, { algorithms: ['HS256'] }));
    } catch {
      throw new Problem(401, 'invalid_token', 'The bearer token is invalid');
    }
    const principal = principalOf(claims);
    if (!principal) throw new Problem(401, 'invalid_token', 'The bearer token lacks a claim');
    if (principal.role !== 'member' && principal.role !== 'admin')
      throw new Problem(403, 'forbidden', 'You may not create issues');
    return principal;
  }

  async function readList(request) {
    if (!JSON_TYPE.test(request.headers['content-type'] ?? ''))
      throw new Problem(415, 'unsupported_media_type', 'Send application/json');
    let body;
    try {
      body = JSON.parse(Buffer.from(await request.readDeclaredBody()).toString('utf8'));
    } catch {
      throw new Problem(400, 'malformed_body', 'The request body is not JSON');
    }
    const list = isObject(body) ? body.issues : undefined;
    if (!Array.isArray(list) || Object.keys(body).length !== 1)
      throw new Problem(422, 'validation_failed', 'Send {"issues": [...]}', {
        errors: { '/issues': ['must be a list of issues'] },
      });
    if (list.length === 0 || list.length > MAX)
      throw new Problem(422, 'validation_failed', `Send 1 to ${MAX} issues`, {
        errors: { '/issues': [`must hold 1 to ${MAX} records`] },
      });
    return list;
  }

  /** Every entry checked, then every reference looked up once for the batch; one 422 lists all. */
  async function checkAll(list, org) {
    const errors = {};
    const at = (index, field) => `/issues/${index}${field === undefined ? '' : `/${field}`}`;
    const fail = () => {
      const fields = Object.keys(errors);
      throw new Problem(422, 'validation_failed', `The request body has invalid fields: ${fields.join(', ')}`, {
        errors,
      });
    };
    for (const [index, entry] of list.entries()) {
      if (!isObject(entry)) errors[at(index)] = ['must be an object holding the fields of one issue'];
    }
    if (Object.keys(errors).length > 0) fail();
    const checked = await Promise.all(list.map((entry) => checkEntry(Issue, entry)));
    for (const [index, entry] of checked.entries()) {
      for (const [field, messages] of Object.entries(entry.errors)) errors[at(index, field)] = messages;
    }
    const valid = checked.filter((entry) => Object.keys(entry.errors).length === 0);
    const wanted = (pick) => [...new Set(valid.flatMap(pick).filter((id) => typeof id === 'number'))];
    const [projects, users, labels] = await Promise.all([
      db.visible(
        'projects',
        org,
        wanted((entry) => [entry.values.projectId]),
      ),
      db.visible(
        'users',
        org,
        wanted((entry) => [entry.values.assigneeId]),
      ),
      db.visible(
        'labels',
        org,
        wanted((entry) => entry.labelIds),
      ),
    ]);
    for (const [index, entry] of checked.entries()) {
      if (Object.keys(entry.errors).length > 0) continue;
      const { projectId, assigneeId } = entry.values;
      if (!projects.has(projectId)) errors[at(index, 'projectId')] = ['does not exist'];
      if (assigneeId != null && !users.has(assigneeId)) errors[at(index, 'assigneeId')] = ['does not exist'];
      if (!entry.labelIds.every((id) => labels.has(id))) errors[at(index, 'labelIds')] = ['does not exist'];
    }
    if (Object.keys(errors).length > 0) fail();
    return checked;
  }

  return async function route(request) {
    try {
      const principal = await caller(request);
      const checked = await checkAll(await readList(request), principal.org);
      const now = new Date().toISOString();
      const rows = checked.map(({ values }) => ({
        ...values,
        body: values.body ?? null,
        assigneeId: values.assigneeId ?? null,
        dueDate: values.dueDate ?? null,
        estimate: values.estimate ?? null,
        orgId: principal.org,
        createdAt: now,
        updatedAt: now,
        title__words: words(values.title),
        body__words: words(values.body ?? null),
      }));
      const issues = await db.insertIssues(
        rows,
        checked.map((entry) => entry.labelIds),
      );
      return { status: 200, headers: JSON_HEADERS, body: JSON.stringify({ issues }) };
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      return { status: error.status, headers: PROBLEM_HEADERS, body: JSON.stringify(error) };
    }
  };
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };
const PROBLEM_HEADERS = { 'Content-Type': 'application/problem+json', 'X-Content-Type-Options': 'nosniff' };
