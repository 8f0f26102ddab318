// What the memory store decides beyond the shared store suite: uuid ids given, made or taken,
// self-references, cascades through cycles, collections created late, and how a destroy treats
// records that go anyway.
import { memoryStore } from '@resourcery/core';
import { type CollectionSchema, ConstraintViolation, type OnDelete } from '@resourcery/core/store';
import { describe, expect, it } from 'vitest';

function categories(onDelete: OnDelete, id: 'integer' | 'uuid' = 'integer'): CollectionSchema {
  return {
    name: 'categories',
    attributes: [
      { name: 'id', type: id, nullable: false },
      { name: 'parentId', type: id, nullable: true },
    ],
    indexed: [],
    references: [{ field: 'parentId', collection: 'categories', onDelete }],
  };
}

const all = { where: [], order: [{ field: 'id', direction: 'asc' as const }], limit: 100, offset: 0, count: true };

describe('memory store: uuid ids', () => {
  const U = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

  it('makes a uuid for a create without an id, and refuses a uuid that is taken', async () => {
    const tree = memoryStore().collection(categories('cascade', 'uuid'));
    const made = await tree.create({ parentId: null });
    expect(made.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await tree.create({ id: U, parentId: null });
    await expect(tree.create({ id: U, parentId: null })).rejects.toMatchObject({ kind: 'unique', field: 'id' });
    expect((await tree.list(all)).total).toBe(2);
  });

  it('lets a record refer to itself, with either kind of id', async () => {
    const tree = memoryStore().collection(categories('restrict', 'uuid'));
    expect(await tree.create({ id: U, parentId: U })).toEqual({ id: U, parentId: U });
    expect(await tree.destroy(U, [])).toBe(true);
    const numbered = memoryStore().collection(categories('restrict'));
    expect(await numbered.create({ parentId: 1 })).toEqual({ id: 1, parentId: 1 });
    await expect(numbered.create({ parentId: 3 })).rejects.toMatchObject({ kind: 'foreign_key', field: 'parentId' });
    expect(await numbered.update(1, { parentId: 1 }, [])).toEqual({ id: 1, parentId: 1 });
  });
});

describe('memory store: destroys following foreign keys', () => {
  it('cascades through a tree and through a cycle, once per record', async () => {
    const tree = memoryStore().collection(categories('cascade'));
    await tree.create({ parentId: null });
    for (const parentId of [1, 1, 2, 3, 4]) await tree.create({ parentId });
    await tree.create({ parentId: null });
    await tree.update(1, { parentId: 6 }, []); // 1 → 6 → 4 → 2 → 1: a cycle
    expect(await tree.destroy(2, [])).toBe(true);
    expect((await tree.list(all)).records).toEqual([{ id: 7, parentId: null }]);
  });

  it('restricts on a record referring to itself only if another record refers to it', async () => {
    const tree = memoryStore().collection(categories('restrict'));
    await tree.create({ parentId: 1 });
    await tree.create({ parentId: 1 });
    const refused = await tree.destroy(1, []).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConstraintViolation);
    expect(refused).toMatchObject({
      kind: 'referenced',
      referencedBy: { collection: 'categories', field: 'parentId' },
    });
    expect(await tree.destroy(2, [])).toBe(true);
    expect(await tree.destroy(1, [])).toBe(true);
  });

  it('a record that a cascade destroys anyway neither restricts nor is nullified', async () => {
    const store = memoryStore();
    const people = store.collection({
      name: 'people',
      attributes: [{ name: 'id', type: 'integer', nullable: false }],
      indexed: [],
    });
    const papers = store.collection({
      name: 'papers',
      attributes: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'authorId', type: 'integer', nullable: false },
        { name: 'editorId', type: 'integer', nullable: true },
      ],
      indexed: [],
      references: [
        { field: 'authorId', collection: 'people', onDelete: 'cascade' },
        { field: 'editorId', collection: 'people', onDelete: 'restrict' },
      ],
    });
    await people.create({});
    await people.create({});
    await papers.create({ authorId: 1, editorId: 1 });
    await papers.create({ authorId: 2, editorId: 1 });
    await expect(people.destroy(1, [])).rejects.toMatchObject({ referencedBy: { field: 'editorId' } });
    expect((await papers.list(all)).total).toBe(2);
    await papers.update(2, { editorId: 2 }, []);
    expect(await people.destroy(1, [])).toBe(true);
    expect((await papers.list(all)).records).toEqual([{ id: 2, authorId: 2, editorId: 2 }]);
  });
});

describe('memory store: collections the store has not created yet', () => {
  const parents: CollectionSchema = {
    name: 'parents',
    attributes: [{ name: 'id', type: 'integer', nullable: false }],
    indexed: [],
  };
  const children: CollectionSchema = {
    name: 'children',
    attributes: [
      { name: 'id', type: 'integer', nullable: false },
      { name: 'parentId', type: 'integer', nullable: false },
    ],
    indexed: [],
    references: [{ field: 'parentId', collection: 'parents', onDelete: 'restrict' }],
  };

  it('an uncreated referenced collection is empty; a referring collection created late still restricts', async () => {
    const store = memoryStore();
    await expect(store.collection(children).create({ parentId: 1 })).rejects.toMatchObject({ kind: 'foreign_key' });
    const late = memoryStore();
    await late.collection(parents).create({});
    await late.collection(children).create({ parentId: 1 });
    await expect(late.collection(parents).destroy(1, [])).rejects.toMatchObject({ kind: 'referenced' });
  });

  it('init creates the collections it is given', async () => {
    const store = memoryStore();
    await store.init?.([parents, children]);
    await store.transaction(async (tx) => {
      const parent = await tx.collection(parents).create({});
      await tx.collection(children).create({ parentId: parent.id });
    });
    await expect(store.collection(parents).destroy(1, [])).rejects.toMatchObject({ kind: 'referenced' });
  });
});
