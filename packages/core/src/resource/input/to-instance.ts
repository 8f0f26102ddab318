import { Expose, plainToInstance } from 'class-transformer';
import type { ModelClass } from '../../schema/infer-attributes.js';

/** The part of class-transformer's metadata storage read here (`class-transformer/cjs/storage`). */
interface TransformerMetadata {
  findTypeMetadata(target: object, property: string): unknown;
  findTransformMetadatas(target: object, property: string, transformationType: number): readonly unknown[];
  getExposedMetadatas(target: object): readonly unknown[];
  getExcludedMetadatas(target: object): readonly unknown[];
}

/** class-transformer's `TransformationType.PLAIN_TO_CLASS`. */
const PLAIN_TO_CLASS = 0;

/**
 * The metadata storage `plainToInstance` reads, or `undefined` when it cannot be reached or is
 * not the one the decorators imported here write to (then every call goes through
 * `plainToInstance`). A private probe class decorated through the public API proves it is.
 * The module is loaded with the runtime's `require` where it has one (Node, Bun, Deno), found
 * through `process.getBuiltinModule` so that runtimes without it load this file too.
 */
const storage = ((): TransformerMetadata | undefined => {
  try {
    const runtime = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process;
    const modules = runtime?.getBuiltinModule?.('module') as typeof import('node:module') | undefined;
    const found = modules?.createRequire(import.meta.url)('class-transformer/cjs/storage.js').defaultMetadataStorage as
      | TransformerMetadata
      | undefined;
    class Probe {}
    Expose()(Probe.prototype, 'probe');
    return found?.getExposedMetadatas(Probe).length === 1 ? found : undefined;
  } catch {
    return undefined;
  }
})();

/** The model and the fields a body may set, as in `InputRules`. */
export interface InstanceRules {
  readonly model: ModelClass;
  readonly attributes: ReadonlyMap<string, unknown>;
}

/** Per rules: whether `plainToInstance` would only copy the values (no class-transformer metadata). */
const plain = new WeakMap<InstanceRules, boolean>();

function isPlainModel(rules: InstanceRules): boolean {
  let known = plain.get(rules);
  const { model } = rules;
  if (known === undefined) {
    known =
      storage !== undefined &&
      storage.getExposedMetadatas(model).length === 0 &&
      storage.getExcludedMetadatas(model).length === 0;
    if (known && storage) {
      for (const field of rules.attributes.keys()) {
        if (
          storage.findTypeMetadata(model, field) ||
          storage.findTransformMetadatas(model, field, PLAIN_TO_CLASS).length
        ) {
          known = false;
          break;
        }
      }
    }
    plain.set(rules, known);
  }
  return known;
}

/**
 * The same instance as `plainToInstance(model, values)`, without its per-call cost when the model
 * has no class-transformer decorator on the rules' attributes (no `@Type`, `@Transform`, `@Expose`,
 * `@Exclude`): `new model()` (its field initializers run), then every value copied, except onto
 * a getter without setter or a method, which `plainToInstance` skips too. The keys of `values`
 * must be attributes of the rules (never `__proto__` or `constructor`); the answer is cached per
 * rules object.
 *
 * @example
 * ```ts
 * toInstance({ model: Book, attributes }, { name: 'Dune' }); // Book { name: 'Dune' }
 * ```
 */
export function toInstance(rules: InstanceRules, values: Record<string, unknown>): Record<string, unknown> {
  const { model } = rules;
  if (!isPlainModel(rules)) return plainToInstance(model, values) as Record<string, unknown>;
  const instance = new model() as Record<string, unknown>;
  // As `plainToInstance`: the prototype of the instance's constructor.
  const prototype = (instance.constructor as { prototype?: object } | undefined)?.prototype;
  for (const key of Object.keys(values)) {
    const descriptor = prototype ? Object.getOwnPropertyDescriptor(prototype, key) : undefined;
    if ((descriptor && !descriptor.set) || instance[key] instanceof Function) continue;
    instance[key] = values[key];
  }
  return instance;
}
