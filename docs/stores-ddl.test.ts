// docs/stores.md prints the DDL of the example's Book on PostgreSQL: it is what schemaSql gives
// (sql-store.ts's `ddl`). Here rather than beside the example, which the packed-packages check
// runs without the pages.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it("shows the DDL schemaSql gives for the example's Book on PostgreSQL", async () => {
  process.env.DATABASE_URL = 'sqlite::memory:';
  const { ddl, store } = await import('./examples/sql-store.js');
  delete process.env.DATABASE_URL;
  await store.close();
  const page = readFileSync(new URL('./stores.md', import.meta.url), 'utf8');
  const shown = /For the example's\s+`Book` on PostgreSQL:\n\n```sql\n([\s\S]*?)```/.exec(page)?.[1];
  expect(shown).toBe(ddl);
});
