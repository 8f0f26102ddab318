import type { AccessRules, FieldAccess, Tenancy } from '../access/declare.js';
import type { Who } from '../access/principal.js';
import type { CompiledResource } from '../resource/compile.js';
import type { InputRules } from '../resource/input/validate-input.js';
import type { JsonSchema, ResourceSchemas } from './schemas.js';

// What the access model of a resource changes in its schemas: fields set from the caller's
// principal are read-only, fields some callers may not read are not always there, fields some
// may not write say who may. The document describes every caller; the rules say who is who.

/** A resource's declared access rules (`defineResource({ access })`); none is `{}`. */
export function accessOf(compiled: CompiledResource): AccessRules {
  return (compiled.resource.options.access ?? {}) as AccessRules;
}

/** Whether a rule or a `Who` may let some callers out (`true`, and no rule, let everyone in). */
export const restricts = (rule: unknown): boolean => rule !== undefined && rule !== true;

/**
 * The callers a `Who` admits, in words: `callers with the role \`admin\``.
 *
 * @example
 * ```ts
 * whoCan(['member', 'admin']); // 'callers with the role `member` or `admin`'
 * ```
 */
export function whoCan(who: Who): string {
  if (who === true) return 'every caller';
  if (who === false || (Array.isArray(who) && who.length === 0)) return 'no caller';
  if (typeof who === 'function') return 'the callers a rule of the API admits';
  return `callers with the role ${(who as readonly string[]).map((role) => `\`${role}\``).join(' or ')}`;
}

/** The fields some callers may not read, with who may. */
export function readRules(compiled: CompiledResource): Map<string, Who> {
  const rules = new Map<string, Who>();
  for (const [field, access] of Object.entries(accessOf(compiled).fields ?? {}) as [string, FieldAccess][]) {
    if (restricts(access?.read)) rules.set(field, access.read as Who);
  }
  return rules;
}

/**
 * What a parameter naming a field some callers may not read says of it: the 400 of a field that
 * does not exist, for the others.
 */
export function refusedFor(field: string, who: Who): string {
  return ` \`${field}\` is refused (400, as a field that does not exist) for callers who may not read it; ${whoCan(who)} may.`;
}

/**
 * The fields the server sets from the caller's principal on create: the API's tenant field
 * (where the resource has it) and the resource's presets. Clients never send them (422).
 */
export function serverSetFields(compiled: CompiledResource, tenancy: Tenancy | undefined): string[] {
  const tenant = tenancy && compiled.attributes.has(tenancy.field) ? [tenancy.field] : [];
  return [...new Set([...tenant, ...Object.keys(accessOf(compiled).presets ?? {})])];
}

/** The compiled resource with the server-set fields read-only, as `createApi` mounts it. */
export function withServerSet(compiled: CompiledResource, serverSet: readonly string[]): CompiledResource {
  if (serverSet.length === 0) return compiled;
  const readOnly = (rules: InputRules): InputRules => ({
    ...rules,
    readOnly: new Set([...rules.readOnly, ...serverSet]),
    writable: new Set([...rules.writable].filter((name) => !serverSet.includes(name))),
  });
  return { ...compiled, create: readOnly(compiled.create), update: readOnly(compiled.update) };
}

/** Adds a sentence to a property's description. */
function say(schema: JsonSchema, name: string, text: string): void {
  const property = (schema.properties as Record<string, JsonSchema> | undefined)?.[name];
  if (!property) return;
  property.description = property.description ? `${property.description}. ${text}` : text;
}

/**
 * Describes on a resource's schemas what its access model and the API's tenancy say of each
 * field: server-set fields (the tenant's, the presets) and the archive field; fields some
 * callers may not read (not `required` in the record, which they then lack); fields some
 * callers may not write (403 for the others).
 *
 * @example
 * ```ts
 * describeFieldAccess(compiledResource(users), built, ['orgId'], { field: 'orgId', of: (p) => p.org });
 * built.output.properties.email.description; // 'Present only for callers allowed to read it: ...'
 * ```
 */
export function describeFieldAccess(
  compiled: CompiledResource,
  built: ResourceSchemas,
  serverSet: readonly string[],
  tenancy: Tenancy | undefined,
): void {
  const { output, createInput, updateInput } = built;
  const { name, plural } = compiled.resource;
  for (const field of serverSet) {
    say(
      output,
      field,
      field === tenancy?.field
        ? "Set by the server from the caller's credentials (their tenant); read-only: sending it is 422"
        : `Set by the server from the caller's credentials when the ${name} is created; read-only: sending it is 422`,
    );
  }
  if (compiled.archive) {
    say(
      output,
      compiled.archive,
      `Set by the server when the ${name} is destroyed, which archives it; \`null\` until then. Archived ${plural} are 404 and left out of the index unless \`archived=true\``,
    );
    // The one value a client may send: `null`, with `?archived=true`, restores.
    (updateInput.properties as Record<string, JsonSchema>)[compiled.archive] = {
      type: 'null',
      description: `\`null\` with \`?archived=true\` restores an archived ${name} (only for whoever may destroy it: 403 naming it for the others); without \`archived=true\`, or any other value, it is 422 read-only`,
    };
  }
  for (const [field, who] of readRules(compiled)) {
    output.required = (output.required as string[]).filter((required) => required !== field);
    say(output, field, `Present only for callers allowed to read it (${whoCan(who)}); absent for the others`);
  }
  for (const [field, access] of Object.entries(accessOf(compiled).fields ?? {}) as [string, FieldAccess][]) {
    if (restricts(access?.create)) {
      const text = `Only ${whoCan(access.create as Who)} may set it on create; for the others it is 403 naming it`;
      say(createInput, field, text);
      say(output, field, text);
    }
    if (restricts(access?.update)) {
      const text = `Only ${whoCan(access.update as Who)} may change it; for the others a different value is 403 naming it (the stored value passes)`;
      say(updateInput, field, text);
      say(output, field, text);
    }
  }
}
