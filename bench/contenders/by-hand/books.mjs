// The books API's rules written out by hand, as a developer would without the library: the
// contract's query syntax, the body checks and class-validator on the example's Book class,
// problem+json bodies. Framework- and store-neutral so that every hand-written contender (Express,
// node:http, Bun; over memory-store.mjs or the SQL stores of sql-stores.mjs) does the same work.
import { validate } from 'class-validator';
import { Book } from '../../../examples/books/dist/book.js';

const TITLES = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  500: 'Internal Server Error',
};

/** An error that answers as `application/problem+json`. */
export class Problem extends Error {
  constructor(status, code, detail, { errors, headers = {} } = {}) {
    super(detail);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.errors = errors;
    this.headers = headers;
  }

  /** The RFC 9457 body, with the contract's `code` and (422) `errors` members. */
  toJSON() {
    const body = { type: 'about:blank', title: TITLES[this.status], status: this.status, detail: this.detail };
    body.code = this.code;
    if (this.errors) body.errors = this.errors;
    return body;
  }
}

export const notFound = (detail) => new Problem(404, 'not_found', detail);
const invalidQuery = (detail) => new Problem(400, 'invalid_query', detail);

/** Attribute types of a book; `id` is read-only. */
const TYPES = new Map([
  ['id', 'integer'],
  ['name', 'string'],
  ['author', 'string'],
]);
const WRITABLE = ['name', 'author'];
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_PER_PAGE = 100;

/** A positive decimal id within the safe range, else `undefined` (the route answers 404). */
export function parseId(raw) {
  if (!/^[1-9][0-9]*$/.test(raw)) return undefined;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : undefined;
}

// ---- index query -----------------------------------------------------------------------------

const FILTER_KEY = /^filter\[([^[\]]*)\](\[\])?$/;
const SORT_KEY = /^-?[A-Za-z_][A-Za-z0-9_]*$/;

function positiveInteger(name, value) {
  const number = Number(value);
  if (!/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(number)) {
    throw invalidQuery(`${name} must be a positive integer (got "${value}")`);
  }
  return number;
}

function attributeFor(parameter, name) {
  if (FORBIDDEN.has(name) || !TYPES.has(name)) {
    throw invalidQuery(`${parameter}: "${name}" is not an attribute that can be used here (allowed: id, name, author)`);
  }
  return TYPES.get(name);
}

function convert(type, parameter, value) {
  if (type === 'string') return value;
  const number = Number(value);
  if (!/^(0|-?[1-9][0-9]*)$/.test(value) || !Number.isSafeInteger(number)) {
    throw invalidQuery(`${parameter}: "${value}" is not a valid ${type}`);
  }
  return number;
}

/**
 * `filter[a]=x`, `filter[a][]=x&filter[a][]=y`, `sort=a,-b`, `page`, `per_page`, `count` from a
 * query string parsed by `querystring.parse` (Express's `req.query`: repeated keys give arrays),
 * checked as the contract says (400 for anything malformed or unknown); `id` ends every order.
 * `count` (default true) says whether the total is wanted; only the SQL stores act on it.
 */
export function parseListQuery(query) {
  const filters = new Map();
  let sort;
  let page = 1;
  let perPage = 25;
  let count = true;
  for (const key in query) {
    const value = query[key];
    if (key === 'sort' || key === 'page' || key === 'per_page' || key === 'count') {
      if (Array.isArray(value)) throw invalidQuery(`${key} is given more than once`);
      if (key === 'page') page = positiveInteger(key, value);
      else if (key === 'count') {
        if (value !== 'true' && value !== 'false') throw invalidQuery(`count must be true or false (got "${value}")`);
        count = value === 'true';
      } else if (key === 'per_page') perPage = positiveInteger(key, value);
      else {
        sort = value.split(',').map((entry) => {
          if (!SORT_KEY.test(entry)) throw invalidQuery(`sort must be a comma-separated list (got "${value}")`);
          return entry.startsWith('-')
            ? { field: entry.slice(1), descending: true }
            : { field: entry, descending: false };
        });
      }
    } else if (key === 'filter' || key.startsWith('filter[')) {
      const match = FILTER_KEY.exec(key);
      if (!match || match[1] === '') throw invalidQuery(`Malformed filter parameter "${key}"`);
      const [, field, brackets] = match;
      const array = brackets !== undefined;
      if ((!array && Array.isArray(value)) || filters.has(field)) {
        throw invalidQuery(`filter[${field}] is given more than once`);
      }
      filters.set(field, { field, array, raw: array && Array.isArray(value) ? value : [value] });
    }
  }

  const where = [...filters.values()].map(({ field, array, raw }) => {
    const parameter = `filter[${field}]${array ? '[]' : ''}`;
    const type = attributeFor(parameter, field);
    return { field, values: raw.map((value) => convert(type, parameter, value)) };
  });
  const order = [];
  for (const key of sort ?? [{ field: 'id', descending: true }]) {
    attributeFor('sort', key.field);
    if (order.some(({ field }) => field === key.field)) throw invalidQuery(`sort: "${key.field}" is listed twice`);
    order.push(key);
  }
  if (!order.some(({ field }) => field === 'id')) order.push({ field: 'id', descending: false });
  if (perPage > MAX_PER_PAGE) throw invalidQuery(`per_page must be at most ${MAX_PER_PAGE} (got ${perPage})`);
  return { where, order, page, perPage, count };
}

/**
 * `X-Total-Count` and the RFC 8288 `Link` header; each link keeps the other parameters. Without
 * a `total` (`count=false`) there is neither the count nor a `last` link, and `next` is there
 * when `hasMore` (the store read one record past the page).
 */
export function paginationHeaders(url, rawQuery, page, perPage, total, hasMore = false) {
  const kept = rawQuery.split('&').filter((pair) => pair !== '' && pair !== 'page' && !pair.startsWith('page='));
  const href = (target) => `<${url}?${[...kept, `page=${target}`].join('&')}>`;
  if (total === undefined) {
    const links = [`${href(1)}; rel="first"`];
    if (page > 1) links.push(`${href(page - 1)}; rel="prev"`);
    if (hasMore) links.push(`${href(page + 1)}; rel="next"`);
    return { Link: links.join(', ') };
  }
  const last = Math.max(1, Math.ceil(total / perPage));
  const links = [`${href(1)}; rel="first"`];
  if (page > 1) links.push(`${href(Math.min(page - 1, last))}; rel="prev"`);
  if (page < last) links.push(`${href(page + 1)}; rel="next"`);
  links.push(`${href(last)}; rel="last"`);
  return { Link: links.join(', '), 'X-Total-Count': String(total) };
}

// ---- request bodies --------------------------------------------------------------------------

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

function add(errors, field, message) {
  errors[field] ??= [];
  errors[field].push(message);
}

/**
 * Checks a parsed body for create (`partial: false`) or update (`partial: true`), flat or
 * wrapped in `{"book": ...}`, and answers the values to store; one 422 lists every bad field.
 */
export async function validateBook(body, partial) {
  let input = body;
  if (isObject(input)) {
    const keys = Object.keys(input);
    if (keys.length === 1 && keys[0] === 'book') input = input.book;
  }
  if (!isObject(input)) {
    throw new Problem(400, 'malformed_body', 'The request body must be a JSON object, like {"book": {...}}');
  }

  const errors = Object.create(null);
  const values = {};
  for (const [field, value] of Object.entries(input)) {
    if (FORBIDDEN.has(field)) add(errors, field, 'is not allowed');
    else if (field === 'id') add(errors, field, 'is read-only');
    else if (!TYPES.has(field)) add(errors, field, 'is not a known field');
    else if (value === null) add(errors, field, 'must not be null');
    else if (typeof value !== 'string') add(errors, field, 'must be a string');
    else values[field] = value;
  }
  if (!partial) {
    for (const field of WRITABLE) if (input[field] === undefined) add(errors, field, 'is required');
  }
  const failures = await validate(Object.assign(new Book(), values), {
    skipUndefinedProperties: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
  });
  for (const failure of failures) {
    for (const message of Object.values(failure.constraints ?? {})) add(errors, failure.property, message);
  }
  const fields = Object.keys(errors);
  if (fields.length > 0) {
    throw new Problem(422, 'validation_failed', `The request body has invalid fields: ${fields.join(', ')}`, {
      errors: { ...errors },
    });
  }
  return values;
}

/** What the hand-written servers on node:http and Bun.serve share beyond the rules above. */
export const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(;|$)/i;
export const LIMIT = 1024 * 1024;
export const COLLECTION = '/api/books';
export const COLLECTION_ALLOW = 'GET, HEAD, POST, OPTIONS';
export const MEMBER_ALLOW = 'GET, HEAD, PATCH, DELETE, OPTIONS';
