import type { OpenApiDocument } from '@resourcery/core';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { firstBranches, METHOD_NOT_ALLOWED, readNames, wordedRules } from './described-rules.js';
import { coerce, queryPairs, show } from './wire-values.js';

/** One HTTP request and its response, as they went over the wire. */
export interface Exchange {
  method: string;
  url: URL;
  requestHeaders: Headers;
  /** The body sent; `undefined` when none, `null` for a stream (not looked at). */
  requestBody: string | undefined | null;
  status: number;
  responseHeaders: Headers;
  responseBody: string;
}

/** What the document says about one exchange. */
export interface Verdict {
  /** The operation matched, `get /books`, or why none was: `unknown path`, `405 on /books`. */
  operation: string;
  /** Whether the document admits the request; `undescribed` when it does not say either way. */
  request: 'valid' | 'invalid' | 'undescribed';
  /** Why the request is invalid. */
  requestProblems: string[];
  /** How the response departs from the document; empty when it conforms. */
  responseProblems: string[];
}

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type Json = any;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
// What the request body description says besides `application/json`: any `+json` type, UTF-8.
const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/;

/**
 * Checks real exchanges against an OpenAPI 3.1 document with Ajv (draft 2020-12): finds the
 * operation, says whether the document admits the request (parameters, content type, body) and
 * lists every way the response departs from it (an undeclared status, a missing or ill-typed
 * header, a content type or body the document does not give).
 */
export class OpenApiChecker {
  private readonly ajv = new Ajv2020.default({ strict: false, allErrors: true });
  private readonly validators = new WeakMap<object, ValidateFunction>();
  private readonly routes: { template: string; pattern: RegExp; item: Json }[];
  private readonly basePath: string;

  constructor(private readonly document: OpenApiDocument) {
    addFormats.default(this.ajv);
    this.ajv.addSchema({ $id: 'doc', components: document.components });
    this.basePath = (document.servers?.[0]?.url ?? '').replace(/\/+$/, '');
    this.routes = Object.entries(document.paths).map(([template, item]) => ({
      template,
      item,
      pattern: new RegExp(`^${template.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
    }));
  }

  /** Answers what the document says about `exchange`. */
  check(exchange: Exchange): Verdict {
    const requestProblems: string[] = [];
    const responseProblems: string[] = [];
    const method = exchange.method.toLowerCase();
    const path = exchange.url.pathname.startsWith(this.basePath)
      ? exchange.url.pathname.slice(this.basePath.length)
      : exchange.url.pathname;
    const route = this.routes.find((candidate) => candidate.pattern.test(path));
    const verdict = (operation: string, request: Verdict['request']): Verdict => ({
      operation,
      request: requestProblems.length > 0 ? 'invalid' : request,
      requestProblems,
      responseProblems,
    });

    if (!route) {
      this.checkResponse(this.resolve({ $ref: '#/components/responses/NotFound' }), 404, exchange, responseProblems);
      return verdict('unknown path', 'invalid');
    }
    const declared = METHODS.filter((name) => route.item[name]);
    const operation = route.item[method === 'head' ? 'get' : method];
    if (method === 'options') {
      this.checkAllow(exchange, declared, responseProblems);
      if (exchange.status !== 204) responseProblems.push(`OPTIONS answered ${exchange.status}, not 204`);
      return verdict(`options ${route.template}`, 'valid');
    }
    if (!operation) {
      // OpenAPI describes the methods a path has, not those it refuses: the document says in
      // words that they answer a 405 problem with `Allow`.
      this.checkResponse(METHOD_NOT_ALLOWED, 405, exchange, responseProblems);
      this.checkAllow(exchange, declared, responseProblems);
      return verdict(`405 on ${route.template}`, 'invalid');
    }

    const groups = route.pattern.exec(path)?.groups ?? {};
    const parameters = [...(route.item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => this.resolve(p));
    const undescribed = this.checkParameters(parameters, groups, exchange, requestProblems);
    const bodyUnseen =
      operation.requestBody && this.checkBody(this.resolve(operation.requestBody), exchange, requestProblems);
    const response = operation.responses[String(exchange.status)];
    // The `fields` parameter says it in words: without it, records are whole (each `anyOf`'s first schema).
    const whole =
      parameters.some((p) => p.in === 'query' && p.name === 'fields') && !exchange.url.searchParams.has('fields');
    if (!response) responseProblems.push(`status ${exchange.status} is not declared for ${method} ${route.template}`);
    else this.checkResponse(this.resolve(response), exchange.status, exchange, responseProblems, whole);
    return verdict(`${method} ${route.template}`, undescribed || bodyUnseen ? 'undescribed' : 'valid');
  }

  /** Path, header and query parameters; answers whether a query parameter is one the document does not mention. */
  private checkParameters(
    parameters: Json[],
    groups: Record<string, string>,
    exchange: Exchange,
    problems: string[],
  ): boolean {
    for (const parameter of parameters.filter((p) => p.in === 'header')) {
      const value = exchange.requestHeaders.get(parameter.name);
      if (value === null) {
        if (parameter.required) problems.push(`header ${parameter.name} is missing`);
      } else this.validate(parameter.schema, coerce(parameter.schema, value), `header ${parameter.name}`, problems);
    }
    const pairs = queryPairs(exchange.url.search);
    if (!pairs) {
      problems.push('the query string has a broken percent-encoding');
      return false;
    }
    for (const parameter of parameters.filter((p) => p.in === 'path')) {
      let raw: string;
      try {
        raw = decodeURIComponent(groups[parameter.name] ?? '');
      } catch {
        raw = '\u0000';
      }
      this.validate(parameter.schema, coerce(parameter.schema, raw), `path parameter ${parameter.name}`, problems);
    }
    const query = parameters.filter((p) => p.in === 'query');
    for (const parameter of query) {
      const values = pairs.filter(([key]) => key === parameter.name).map(([, value]) => value);
      if (values.length === 0) {
        if (parameter.required) problems.push(`query parameter ${parameter.name} is missing`);
        continue;
      }
      const { schema } = parameter;
      // `style: form, explode: false`: one parameter, its items comma-separated (`include=a,b`).
      const joined = schema.type === 'array' && parameter.explode === false;
      if ((schema.type !== 'array' || joined) && values.length > 1) {
        problems.push(`query parameter ${parameter.name} is repeated`);
      }
      const items = joined ? (values[0] as string).split(',') : values;
      const value =
        schema.type === 'array' ? items.map((v) => coerce(schema.items, v)) : coerce(schema, values[0] as string);
      this.validate(schema, value, `query parameter ${parameter.name}`, problems);
    }
    const names = new Set(pairs.map(([key]) => key));
    problems.push(...wordedRules(pairs));
    // The names the server reads, and refuses when they are wrong: the document lists every one it takes.
    const unknown = [...names].filter((name) => !query.some((p) => p.name === name));
    const read = readNames(query, exchange.method);
    for (const name of unknown.filter((n) => read?.test(n))) problems.push(`query parameter ${name} is not declared`);
    return unknown.length > 0;
  }

  /** The request body; answers whether it could not be looked at (a stream). */
  private checkBody(requestBody: Json, exchange: Exchange, problems: string[]): boolean {
    if (exchange.requestBody === null) return true;
    if (exchange.requestBody === undefined || exchange.requestBody === '') {
      if (requestBody.required) problems.push('the body is missing');
      return false;
    }
    const [media = '', ...parameters] = (exchange.requestHeaders.get('content-type') ?? '')
      .split(';')
      .map((part) => part.trim().toLowerCase());
    const charset = parameters.find((p) => p.startsWith('charset='))?.slice(8);
    if (!JSON_MEDIA.test(media) || (charset !== undefined && !['utf-8', 'utf8'].includes(charset))) {
      problems.push(`the body's content type ${media || '(none)'} is not JSON`);
      return false;
    }
    let body: unknown;
    try {
      body = JSON.parse(exchange.requestBody);
    } catch {
      problems.push('the body is not JSON');
      return false;
    }
    this.validate(requestBody.content['application/json'].schema, body, 'the body', problems);
    return false;
  }

  private checkResponse(response: Json, status: number, exchange: Exchange, problems: string[], whole = false): void {
    if (exchange.status !== status) problems.push(`answered ${exchange.status} where the document says ${status}`);
    for (const [name, header] of Object.entries<Json>(response.headers ?? {})) {
      const value = exchange.responseHeaders.get(name);
      if (value === null) {
        if (header.required) problems.push(`the ${name} header is missing`);
      } else this.validate(header.schema, coerce(header.schema, value), `the ${name} header`, problems);
    }
    const type = (exchange.responseHeaders.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (!response.content) {
      if (exchange.responseBody !== '') problems.push(`a body where the document declares none`);
      return;
    }
    const media = response.content[type];
    if (!media) problems.push(`content type "${type}" is not one of ${Object.keys(response.content).join(', ')}`);
    else if (exchange.method !== 'HEAD') {
      let body: unknown;
      try {
        body = JSON.parse(exchange.responseBody);
      } catch {
        problems.push('the response body is not JSON');
        return;
      }
      this.validate(whole ? firstBranches(media.schema) : media.schema, body, 'the response body', problems);
    }
  }

  private checkAllow(exchange: Exchange, declared: string[], problems: string[]): void {
    const expected = new Set([...declared.map((m) => m.toUpperCase()), 'OPTIONS']);
    if (expected.has('GET')) expected.add('HEAD');
    const allow = (exchange.responseHeaders.get('allow') ?? '').split(',').map((m) => m.trim().toUpperCase());
    if (allow.length !== expected.size || !allow.every((m) => expected.has(m))) {
      problems.push(`Allow is "${allow.join(', ')}" but the document declares ${[...expected].join(', ')}`);
    }
  }

  private validate(schema: Json, value: unknown, what: string, problems: string[]): void {
    let validator = this.validators.get(schema);
    if (!validator) {
      // Local references point into the document, registered as `doc`.
      validator = this.ajv.compile(
        JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')),
      );
      this.validators.set(schema, validator);
    }
    if (!validator(value)) problems.push(`${what}: ${this.ajv.errorsText(validator.errors)} (${show(value)})`);
  }

  /** Follows a `$ref` to a component (responses, request bodies, parameters). */
  private resolve(object: Json): Json {
    if (typeof object?.$ref !== 'string') return object;
    const target = (object.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: Json, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], this.document);
    if (!target) throw new Error(`The document has no ${object.$ref}`);
    return this.resolve(target);
  }
}
