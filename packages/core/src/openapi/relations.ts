import type { CompiledResource } from '../resource/compile.js';
import { compiledResource } from '../resource/define-resource.js';
import type { Resource } from '../resource/options.js';
import { isModelTarget, type Relation } from '../resource/relations.js';
import type { OnDelete } from '../schema/types.js';
import type { JsonSchema } from './schemas.js';

/** A relation of a documented resource, its target found among the document's resources. */
export interface DocumentedRelation {
  readonly name: string;
  readonly kind: Relation['kind'];
  readonly target: Resource;
  /** belongs-to: this resource's attribute; has-many: the target's. */
  readonly foreignKey: string;
  /** has-many: the most records `include` adds per record. */
  readonly limit: number;
}

/** A foreign key between two documented resources. */
export interface ForeignKeyLink {
  readonly holder: Resource;
  readonly field: string;
  readonly target: Resource;
  /** What either side declares (they agree, else `createApi` refuses them); `restrict` when neither does. */
  readonly onDelete: OnDelete | undefined;
}

/**
 * Finds each relation's target among the document's resources, as `createApi` does among the
 * API's: a model class names the one resource serving it, an arrow function the resource itself.
 *
 * @example
 * ```ts
 * relationsOf([authors, books]).get(books); // [{ name: 'author', kind: 'belongsTo', target: authors, ... }]
 * ```
 */
export function relationsOf(resources: readonly Resource[]): Map<Resource, DocumentedRelation[]> {
  const byResource = new Map<Resource, DocumentedRelation[]>();
  for (const resource of resources) {
    const list: DocumentedRelation[] = [];
    for (const [name, relation] of Object.entries(compiledResource(resource).relations)) {
      const { target } = relation;
      const matches = isModelTarget(target)
        ? resources.filter((candidate) => candidate.model === target)
        : resources.filter((candidate) => candidate === target());
      if (matches.length !== 1) {
        const why =
          matches.length === 0 ? 'a resource the document does not describe' : 'a model several resources serve';
        throw new TypeError(`openApiDocument: relation ${resource.name}.${name} names ${why}`);
      }
      const limit = relation.kind === 'belongsTo' ? 1 : relation.limit;
      const foreignKey = relation.kind === 'manyToMany' ? relation.ids : relation.foreignKey;
      list.push({ name, kind: relation.kind, target: matches[0] as Resource, foreignKey, limit });
    }
    byResource.set(resource, list);
  }
  return byResource;
}

/**
 * The foreign keys the relations make, one per attribute holding ids: a belongs-to is one of the
 * resource holding it, a has-many one of its target.
 *
 * @example
 * ```ts
 * foreignKeys(relationsOf([authors, books])); // [{ holder: books, field: 'authorId', target: authors, onDelete: undefined }]
 * ```
 */
export function foreignKeys(relations: ReadonlyMap<Resource, readonly DocumentedRelation[]>): ForeignKeyLink[] {
  const keys = new Map<string, ForeignKeyLink>();
  const add = (reference: ForeignKeyLink) => {
    const key = `${reference.holder.path}\u0000${reference.field}`;
    keys.set(key, { ...reference, onDelete: reference.onDelete ?? keys.get(key)?.onDelete });
  };
  for (const [resource, list] of relations) {
    for (const relation of list) {
      const declared = compiledResource(resource).relations[relation.name] as Relation;
      if (declared.kind === 'manyToMany') continue; // its links cascade on both sides
      const { onDelete } = declared;
      if (relation.kind === 'belongsTo') {
        add({ holder: resource, field: relation.foreignKey, target: relation.target, onDelete });
      } else add({ holder: relation.target, field: relation.foreignKey, target: resource, onDelete });
    }
  }
  return [...keys.values()];
}

/**
 * The resources whose destroy may answer 409: a record others still refer to through a foreign
 * key whose `onDelete` is `restrict` (the default), directly or through a chain of `cascade`s.
 *
 * @example
 * ```ts
 * conflictingDestroys(foreignKeys(relationsOf([authors, books]))); // Set { authors }
 * ```
 */
export function conflictingDestroys(keys: readonly ForeignKeyLink[]): Set<Resource> {
  const conflicting = new Set<Resource>();
  const visiting = new Set<Resource>();
  const mayConflict = (resource: Resource): boolean => {
    if (conflicting.has(resource)) return true;
    if (visiting.has(resource)) return false;
    visiting.add(resource);
    for (const key of keys) {
      if (key.target !== resource) continue;
      const rule = key.onDelete ?? 'restrict';
      if (rule === 'restrict' || (rule === 'cascade' && mayConflict(key.holder))) {
        conflicting.add(resource);
        return true;
      }
    }
    return false;
  };
  for (const key of keys) mayConflict(key.target);
  return conflicting;
}

/**
 * Says, on the schemas of the resource holding a foreign key, which records its values name.
 *
 * @example
 * ```ts
 * describeForeignKeys([built.output, built.createInput], books, keys);
 * ```
 */
export function describeForeignKeys(schemas: readonly JsonSchema[], holder: Resource, keys: readonly ForeignKeyLink[]) {
  for (const key of keys) {
    if (key.holder !== holder) continue;
    const description = `The id of an existing ${key.target.name} (one that does not exist is 422 \`does not exist\`)`;
    for (const schema of schemas) {
      const property = (schema.properties as Record<string, JsonSchema> | undefined)?.[key.field];
      if (property) property.description = description;
    }
  }
}

/**
 * The record as show and index answer it with `include`: the record's schema and, optional,
 * each relation: a belongs-to as the related record or `null`, a has-many as an array of them.
 *
 * @example
 * ```ts
 * withRelations(compiledResource(books), relations, 'Book', (resource) => pascal(resource.name));
 * // { allOf: [{ $ref: '#/components/schemas/Book' }, { type: 'object', properties: { author: ..., reviews: ... } }] }
 * ```
 */
export function withRelations(
  compiled: CompiledResource,
  relations: readonly DocumentedRelation[],
  record: string,
  recordOf: (resource: Resource) => string,
): JsonSchema {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const { name: singular } = compiled.resource;
  const properties: Record<string, JsonSchema> = {};
  for (const relation of relations) {
    const { name: target, plural } = relation.target;
    const asked = `Added when \`include\` names \`${relation.name}\`; included records carry no relations of their own.`;
    properties[relation.name] =
      relation.kind === 'belongsTo'
        ? {
            description: `The ${target} whose id this ${singular}'s \`${relation.foreignKey}\` holds, or \`null\` when there is none. ${asked}`,
            oneOf: [ref(recordOf(relation.target)), { type: 'null' }],
          }
        : relation.kind === 'manyToMany'
          ? {
              description: `The ${plural} whose ids this ${singular}'s \`${relation.foreignKey}\` holds (those the caller may read), ordered by id. ${asked}`,
              type: 'array',
              items: ref(recordOf(relation.target)),
              maxItems: relation.limit,
            }
          : {
              description: `The ${plural} whose \`${relation.foreignKey}\` is this ${singular}'s id, ordered by id, at most ${relation.limit}. ${asked}`,
              type: 'array',
              items: ref(recordOf(relation.target)),
              maxItems: relation.limit,
            };
  }
  return { allOf: [ref(record), { type: 'object', properties }] };
}
