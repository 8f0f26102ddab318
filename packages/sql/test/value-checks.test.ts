// Listed values (`@IsIn`, `@IsEnum`) become a CHECK named `<table>_<field>_check` on every
// database: made alike by the store and by migrations (catalog against catalog), refusing a value
// outside the list whoever writes it, and looked for by the drift check at start.
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineResource } from '@resourcery/core';
import { resourceSchemas } from '@resourcery/core/adapter';
import type { AttributeSchema, CollectionSchema } from '@resourcery/core/store';
import { createTableSql } from '@resourcery/sql';
import { callApi } from '@resourcery/testing';
import { IsEnum, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases } from './helpers/databases.js';
import { migratedBesideMade } from './helpers/migrated-tables.js';

enum Size {
  Small = 1,
  Large = 3,
}

class Ticket {
  @IsString() @Length(1, 100) title!: string;
  @IsIn(['open', 'in_progress', 'done']) status!: string;
  @IsOptional() @IsEnum(Size) size?: Size | null;
  @IsOptional() @IsIn(["it's", 'back\\slash']) mood?: string | null;
}

const tickets = defineResource({
  name: 'ticket',
  model: Ticket,
  defaults: { status: 'open' },
  steps: {
    // A step that writes a value the model does not list, past validation: the database refuses it.
    prepare: (_ctx, next) => {
      const values = next();
      return values.title === 'sneaky' ? { ...values, status: 'closed' } : values;
    },
  },
});
const resources = [tickets];

const folder = mkdtempSync(join(tmpdir(), 'resourcery-value-checks-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The schema's attributes with `change` applied to the one named `field`. */
function changed(schema: CollectionSchema, field: string, change: Partial<AttributeSchema> | 'no values') {
  return schema.attributes.map((attribute) => {
    if (attribute.name !== field) return attribute;
    if (change !== 'no values') return { ...attribute, ...change };
    const { values: _, ...rest } = attribute;
    return rest;
  });
}

describe('the schema', () => {
  it('lists the values of @IsIn and @IsEnum (a numeric enum by its numbers)', () => {
    const [schema] = resourceSchemas(resources) as [CollectionSchema];
    const byName = new Map(schema.attributes.map((attribute) => [attribute.name, attribute]));
    expect(byName.get('status')).toMatchObject({ type: 'string', values: ['open', 'in_progress', 'done'] });
    expect(byName.get('size')).toMatchObject({ type: 'integer', nullable: true, values: [1, 3] });
    expect(byName.get('title')?.values).toBeUndefined();
    expect(createTableSql(schema, 'postgres').join('\n')).toContain(
      `CONSTRAINT "tickets_status_check" CHECK ("status" IN ('open', 'in_progress', 'done'))`,
    );
    expect(createTableSql(schema, 'mariadb').join('\n')).toContain(
      "CONSTRAINT `tickets_mood_check` CHECK (`mood` IN ('it''s', 'back\\\\slash'))",
    );
  });

  it('refuses a default that is not one of the values', () => {
    expect(() =>
      resourceSchemas([defineResource({ name: 'ticket', model: Ticket, defaults: { status: 'closed' } })]),
    ).toThrow('defineResource(ticket): defaults.status is not one of its values');
  });
});

for (const database of testDatabases(folder)) {
  describe(database.label, () => {
    it('migrations make the CHECKs the store makes, catalog against catalog; both refuse an unlisted value', async () => {
      // The API starts on the migrated tables: the drift check finds every CHECK.
      await migratedBesideMade(database, resources, async ({ api, store, tablePrefix, catalog }) => {
        expect(catalog.join('\n')).toMatch(/tickets_status_check/);
        expect(catalog.join('\n')).toMatch(/tickets_size_check/);
        // A hook's unlisted value: the database refuses it, the API answers 422 naming the field.
        const sneaky = await callApi(api, { method: 'POST', path: '/tickets', body: { title: 'sneaky' } });
        expect(sneaky.status).toBe(422);
        expect((sneaky.body as { errors: unknown }).errors).toEqual({ status: ['is not accepted'] });
        // A raw write, past the API: refused by the database itself.
        const table = `${tablePrefix}tickets`;
        const raw = sql`insert into ${sql.table(table)} (${sql.ref('title')}, ${sql.ref('status')}) values ('raw', 'closed')`;
        await expect(raw.execute(store.db)).rejects.toThrow(/tickets_status_check/);
        const fine = await callApi(api, { method: 'POST', path: '/tickets', body: { title: 'A', size: 3 } });
        expect(fine.status).toBe(200);
        expect((await callApi(api, { method: 'GET', path: '/tickets' })).body).toMatchObject({
          tickets: [{ title: 'A', status: 'open', size: 3, mood: null }],
        });
      });
    });

    it('the drift check names a CHECK a table lacks or holds with other values; one of another name serves', async () => {
      const { store, tablePrefix } = database.open();
      const [declared] = resourceSchemas(resources) as [CollectionSchema];
      await store.init([]); // tells MariaDB from MySQL
      const q = store.dialect === 'mariadb' ? '`' : '"';
      /** A tickets table made from `made` (and `extra` statements), then checked against the declaration. */
      const check = async (
        name: string,
        made: Partial<CollectionSchema>,
        extra: (table: string) => string[] = () => [],
      ) => {
        const schema = { ...declared, name };
        store.collection(schema); // dropped on close
        const table = `${tablePrefix}${name}`;
        for (const statement of [
          ...createTableSql({ ...schema, ...made }, store.dialect, { tablePrefix }),
          ...extra(table),
        ]) {
          await sql.raw(statement).execute(store.db);
        }
        return store.init([schema]).then(
          () => 'fits',
          (error: Error) => error.message,
        );
      };
      try {
        expect(await check('t_whole', {})).toBe('fits');
        const none = await check('t_none', { attributes: changed(declared, 'status', 'no values') });
        expect(none).toContain(
          `no CHECK (${q}status${q} IN ('open', 'in_progress', 'done')) (the store names it "${tablePrefix}t_none_status_check")`,
        );
        const fewer = await check('t_fewer', { attributes: changed(declared, 'status', { values: ['open', 'done'] }) });
        expect(fewer).toContain(
          `the CHECK "${tablePrefix}t_fewer_status_check" on "status" allows (done, open) where (done, in_progress, open) are declared`,
        );
        const sizes = await check('t_sizes', { attributes: changed(declared, 'size', { values: [1, 2, 3] }) });
        expect(sizes).toContain(
          `the CHECK "${tablePrefix}t_sizes_size_check" on "size" allows (1, 2, 3) where (1, 3) are declared`,
        );
        const moods = await check('t_moods', { attributes: changed(declared, 'mood', { values: ["it's"] }) });
        expect(moods).toContain(`on "mood" allows (it's) where (back\\slash, it's) are declared`);
        // The same values under a name of the team's own, in another order: it serves.
        const own = (table: string) => [
          `ALTER TABLE ${q}${table}${q} ADD CONSTRAINT ${q}${table}_mine${q} CHECK (${q}status${q} IN ('done', 'open', 'in_progress'))`,
        ];
        if (store.dialect !== 'sqlite') {
          expect(await check('t_own', { attributes: changed(declared, 'status', 'no values') }, own)).toBe('fits');
        }
        // A CHECK of the store's name on a field now declared without values refuses what it accepts.
        const stale = await check('t_stale', {}, () => []).then(async (answer) => {
          expect(answer).toBe('fits');
          const loose = { ...declared, name: 't_stale', attributes: changed(declared, 'status', 'no values') };
          store.collection(loose);
          return store.init([loose]).then(
            () => 'fits',
            (error: Error) => error.message,
          );
        });
        expect(stale).toContain(
          `the CHECK "${tablePrefix}t_stale_status_check" limits "status", which is declared without a list of values`,
        );
      } finally {
        await store.close();
      }
    });
  });
}
