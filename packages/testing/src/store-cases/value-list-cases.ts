import type { Collection, CollectionSchema, StoredRecord } from '@resourcery/core/store';
import { expect } from 'vitest';
import type { CaseHome, StoreCaseGroup } from './fixtures.js';
import { all, violation } from './library.js';

/**
 * A ticket whose attributes may hold only listed values (`@IsIn`, `@IsEnum`): a required string
 * with a default, a nullable integer, and a nullable string whose values hold a quote and a
 * backslash (the SQL stores write them as literals of a CHECK).
 */
function ticketSchema(prefix: string): CollectionSchema {
  return {
    name: `${prefix}_tickets`,
    attributes: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'title', type: 'string', nullable: false, maxLength: 100 },
      { name: 'status', type: 'string', nullable: false, default: 'open', values: ['open', 'in_progress', 'done'] },
      { name: 'priority', type: 'integer', nullable: true, values: [1, 2, 3, 4] },
      { name: 'mood', type: 'string', nullable: true, values: ["it's", 'back\\slash', 'été'] },
    ],
    indexed: ['status', 'priority'],
  };
}

/** The refusal of a value outside the list. */
function outside(field: string) {
  return { name: 'ConstraintViolation', kind: 'check', field, referencedBy: undefined };
}

type TicketCase = (tickets: Collection, home: CaseHome) => Promise<void>;

function ticketGroup(name: string, cases: Record<string, TicketCase>): StoreCaseGroup {
  return { name, schemas: (prefix) => [ticketSchema(prefix)], cases };
}

/** Listed values: an attribute with `values` holds one of them (or `null` when nullable), whoever writes. */
export const valueListCases = ticketGroup('listed values', {
  'a create with listed values (and null where nullable) is stored; the default is one of them': async (tickets) => {
    const first = await tickets.create({ title: 'A' });
    expect(first).toMatchObject({ status: 'open', priority: null, mood: null });
    const second = await tickets.create({ title: 'B', status: 'done', priority: 4, mood: "it's" });
    const third = await tickets.create({ title: 'C', status: 'in_progress', priority: 1, mood: 'back\\slash' });
    const fourth = await tickets.create({ title: 'D', mood: 'été' });
    expect((await all(tickets)).map((ticket) => [ticket.status, ticket.priority, ticket.mood])).toEqual([
      ['open', null, null],
      ['done', 4, "it's"],
      ['in_progress', 1, 'back\\slash'],
      ['open', null, 'été'],
    ]);
    expect([second.mood, third.mood, fourth.mood]).toEqual(["it's", 'back\\slash', 'été']);
  },

  'a create with a value outside the list is refused naming the field; nothing is stored': async (tickets) => {
    const kept = await tickets.create({ title: 'A', status: 'done' });
    expect(await violation(tickets.create({ title: 'B', status: 'closed' }))).toEqual(outside('status'));
    // Exactly the listed strings: case, spacing and a prefix are other values.
    for (const status of ['Open', 'open ', 'in', '']) {
      expect(await violation(tickets.create({ title: 'B', status }))).toEqual(outside('status'));
    }
    expect(await violation(tickets.create({ title: 'B', priority: 5 }))).toEqual(outside('priority'));
    expect(await violation(tickets.create({ title: 'B', priority: 0 }))).toEqual(outside('priority'));
    expect(await violation(tickets.create({ title: 'B', mood: "it''s" }))).toEqual(outside('mood'));
    expect(await violation(tickets.create({ title: 'B', mood: 'back\\\\slash' }))).toEqual(outside('mood'));
    expect(await violation(tickets.create({ title: 'B', mood: 'ete' }))).toEqual(outside('mood'));
    expect(await all(tickets)).toStrictEqual([kept]);
  },

  'an update to a value outside the list is refused and changes nothing': async (tickets) => {
    const ticket = await tickets.create({ title: 'A', priority: 2 });
    expect(await violation(tickets.update(ticket.id, { title: 'B', status: 'closed' }, []))).toEqual(outside('status'));
    expect(await violation(tickets.update(ticket.id, { priority: 9 }, []))).toEqual(outside('priority'));
    expect(await tickets.find(ticket.id, [])).toStrictEqual(ticket);
    const moved = await tickets.update(ticket.id, { status: 'done', priority: null, mood: 'été' }, []);
    expect(moved).toStrictEqual({ ...ticket, status: 'done', priority: null, mood: 'été' });
  },

  'a raw store transaction writing a value outside the list is refused and rolled back whole': async (_, home) => {
    const schema = home.schema;
    const before: StoredRecord[] = await all(home.collections[0] as Collection);
    const outcome = await home.store
      .transaction(async (tx) => {
        const tickets = tx.collection(schema);
        await tickets.create({ title: 'kept?', status: 'done' });
        await tickets.create({ title: 'bad', status: 'archived' });
      })
      .catch((error: unknown) => error);
    expect(outcome).toMatchObject(outside('status'));
    expect(await all(home.collections[0] as Collection)).toStrictEqual(before);
  },
});
