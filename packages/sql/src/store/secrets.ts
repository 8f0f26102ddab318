import {
  type Collection,
  type CollectionSchema,
  ConstraintViolation,
  type ListQuery,
  randomSecret,
} from '@resourcery/core/store';

/**
 * The library's own table of secrets (`<tablePrefix>resourcery_secrets`): one row per name, its
 * value made once by whichever process asked first. Names compare exactly (a binary collation).
 */
export const SECRETS_SCHEMA: CollectionSchema = {
  name: 'resourcery_secrets',
  attributes: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'name', type: 'string', nullable: false, maxLength: 100 },
    { name: 'value', type: 'string', nullable: false, maxLength: 100 },
  ],
  indexed: [],
  unique: [['name']],
};

function byName(name: string): ListQuery {
  const where = [{ field: 'name', values: [name] }];
  return { where, order: [{ field: 'id', direction: 'asc' }], limit: 1, offset: 0, count: false, select: ['value'] };
}

/**
 * The secrets of a SQL store, kept in {@link SECRETS_SCHEMA}'s table: read; if absent, a random
 * value inserted (a unique violation means another process inserted first) and read again, so
 * every process of a deployment, and every restart, answers the same value. Each answer is
 * remembered by the process; a failure (the database is down) is not.
 *
 * @example
 * ```ts
 * const secrets = new SecretKeeper(async () => store.collection(SECRETS_SCHEMA));
 * await secrets.get('cursor'); // 'k3X0…', the same in every process
 * ```
 */
export class SecretKeeper {
  readonly #known = new Map<string, Promise<string>>();

  constructor(private readonly table: () => Promise<Collection>) {}

  get(name: string): Promise<string> {
    if (typeof name !== 'string' || name.length === 0 || [...name].length > 100) {
      return Promise.reject(new TypeError('store.secret(name): the name is 1 to 100 characters'));
    }
    let known = this.#known.get(name);
    if (!known) {
      known = this.#read(name);
      this.#known.set(name, known);
      known.catch(() => this.#known.delete(name));
    }
    return known;
  }

  async #read(name: string): Promise<string> {
    const table = await this.table();
    const stored = (await table.list(byName(name))).records[0];
    if (stored) return stored.value as string;
    try {
      await table.create({ name, value: randomSecret() });
    } catch (error) {
      // Another process made it between the read and the insert: its value is the one.
      if (!(error instanceof ConstraintViolation && error.kind === 'unique')) throw error;
    }
    const made = (await table.list(byName(name))).records[0];
    if (!made) throw new Error(`store.secret(${name}): the secret vanished after it was made`);
    return made.value as string;
  }
}
