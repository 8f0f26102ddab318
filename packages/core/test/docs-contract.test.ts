// docs/contract.md and docs/errors.md describe the contract that packages/core/src/contract/
// implements: these tests fail as soon as the two disagree (an action, a method, a path, a
// success status, a problem code or its status added, removed or changed on one side only).
import { readFileSync } from 'node:fs';
import { ACTIONS, PROBLEM_STATUS } from '@resourcery/core/adapter';
import * as testing from '@resourcery/testing/suites';
import { describe, expect, it } from 'vitest';

const doc = (name: string) => readFileSync(new URL(`../../../docs/${name}`, import.meta.url), 'utf8');

interface Table {
  /** The header cells, lower-cased. */
  readonly header: string[];
  readonly rows: string[][];
}

/** The cells of a table row: split on the pipes that are not escaped, outer pipes dropped. */
function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** The delimiter row under a table's header: `| --- | :---: |`. */
const DELIMITER = /^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$/;

/** Every Markdown table of a text (outside fenced code): a header row, a delimiter row, rows. */
function tablesOf(markdown: string): Table[] {
  const lines = markdown.split(/\r?\n/);
  const tables: Table[] = [];
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced || !line.includes('|') || !DELIMITER.test((lines[i + 1] ?? '').trim())) continue;
    const header = cellsOf(line).map((cell) => cell.toLowerCase());
    const rows: string[][] = [];
    let next = i + 2;
    while (next < lines.length && (lines[next] as string).includes('|')) rows.push(cellsOf(lines[next++] as string));
    tables.push({ header, rows });
    i = next - 1; // the loop goes on with the first line after the table
  }
  return tables;
}

/** The one table of a text whose header has a column matching each pattern, and those columns. */
function tableWith(markdown: string, ...columns: RegExp[]): { table: Table; at: number[] } {
  const matching = tablesOf(markdown).filter((table) =>
    columns.every((column) => table.header.some((cell) => column.test(cell))),
  );
  expect(matching, `exactly one table with columns ${columns.join(', ')}`).toHaveLength(1);
  const table = matching[0] as Table;
  return { table, at: columns.map((column) => table.header.findIndex((cell) => column.test(cell))) };
}

const unquoted = (cell: string) => cell.replace(/`/g, '').trim();

/** The HTTP status a cell names (`200`, `` `204` ``, `204 No Content`), if any. */
function statusIn(cell: string): number | undefined {
  const match = /(?<!\d)[1-5]\d\d(?!\d)/.exec(cell);
  return match ? Number(match[0]) : undefined;
}

describe('docs/contract.md', () => {
  const contract = doc('contract.md');

  it("has the action table of ACTIONS: every action's method, path and success status, and no other row", () => {
    const { table, at } = tableWith(contract, /^method$/, /^path$/, /^(success|status)/);
    const [method, path, status] = at as [number, number, number];
    const action = table.header.indexOf('action');
    const documented = table.rows.map((row) => ({
      ...(action === -1 ? {} : { name: unquoted(row[action] ?? '').toLowerCase() }),
      method: unquoted(row[method] ?? '').toUpperCase(),
      path: unquoted(row[path] ?? '').replace(/\{id\}/g, ':id'),
      status: statusIn(row[status] ?? ''),
    }));
    const expected = ACTIONS.map((spec) => ({
      ...(action === -1 ? {} : { name: spec.name }),
      method: spec.method,
      path: {
        collection: '/api/books',
        member: '/api/books/:id',
        stats: '/api/books/stats',
        events: '/api/books/events',
      }[spec.target],
      status: spec.status,
    }));
    const order = (row: { method: string; path: string }) => `${row.path} ${row.method}`;
    const sorted = <T extends { method: string; path: string }>(rows: T[]) =>
      [...rows].sort((a, b) => order(a).localeCompare(order(b)));
    expect(sorted(documented), 'the action table of docs/contract.md against ACTIONS').toEqual(sorted(expected));
  });

  it('describes part 3 as served: relations, operators, sparse fields and cursors, each a section', () => {
    const part3 = contract.slice(contract.indexOf('## 3. '), contract.indexOf('## Checked by the conformance suite'));
    const sections = [...part3.matchAll(/^### (.+)$/gm)].map((match) => match[1]);
    expect(sections).toEqual([
      'Types on the wire',
      'Relations',
      'Operators',
      'Sparse fields',
      'Cursor pagination (per resource)',
    ]);
    for (const parameter of ['filter[author.country]', 'filter[year][gte]', 'fields=', 'after']) {
      expect(part3, parameter).toContain(parameter);
    }
    // What the conformance suites check is served; the page must not say otherwise.
    expect(contract).not.toMatch(/not served yet|next step|not among the suite's cases/);
  });

  it('names every conformance suite @resourcery/testing/suites exports', () => {
    const suites = Object.keys(testing).filter((name) => name.endsWith('ConformanceSuite'));
    expect(suites.length).toBeGreaterThanOrEqual(3);
    expect(suites.filter((name) => !contract.includes(`\`${name}\``))).toEqual([]);
  });

  it('names every status a problem code maps to', () => {
    const statuses = [...new Set(Object.values(PROBLEM_STATUS))];
    const missing = statuses.filter((status) => !new RegExp(`(?<![\\d.])${status}(?![\\d])`).test(contract));
    expect(missing, 'statuses of PROBLEM_STATUS that docs/contract.md never mentions').toEqual([]);
  });
});

describe('docs/errors.md', () => {
  const errors = doc('errors.md');

  it('lists every code of PROBLEM_STATUS with exactly its status, and no other code', () => {
    const { table, at } = tableWith(errors, /^code$/, /^status$/);
    const [code, status] = at as [number, number];
    const documented: Record<string, number | undefined> = {};
    for (const row of table.rows) {
      const codes = [...(row[code] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
      expect(codes, `one code in backticks in the row ${row.join(' | ')}`).toHaveLength(1);
      const name = codes[0] as string;
      expect(documented, `${name} is listed once`).not.toHaveProperty(name);
      documented[name] = statusIn(row[status] ?? '');
    }
    const known = Object.keys(PROBLEM_STATUS);
    expect(
      known.filter((name) => !(name in documented)),
      'codes of PROBLEM_STATUS missing from the table',
    ).toEqual([]);
    expect(
      Object.keys(documented).filter((name) => !known.includes(name)),
      'codes in the table that PROBLEM_STATUS lacks',
    ).toEqual([]);
    const expected = PROBLEM_STATUS as Readonly<Record<string, number>>;
    expect(
      known
        .filter((name) => name in documented && documented[name] !== expected[name])
        .map((name) => `${name}: ${documented[name]} in the table, ${expected[name]} in PROBLEM_STATUS`),
      'codes listed with another status',
    ).toEqual([]);
    expect(documented).toEqual({ ...PROBLEM_STATUS });
  });
});

describe('the Markdown table reader of these tests', () => {
  it('reads tables with or without outer pipes, escaped pipes, and skips fenced code', () => {
    const markdown = [
      '```',
      '| code | status |',
      '| ---- | ------ |',
      '| `in_a_fence` | 1 |',
      '```',
      'Code | Status',
      ':--- | ---:',
      '`a` | 400',
      '| `b \\| c` | 404 Not Found |',
      '',
      'not | a table',
    ].join('\n');
    expect(tablesOf(markdown)).toEqual([
      {
        header: ['code', 'status'],
        rows: [
          ['`a`', '400'],
          ['`b | c`', '404 Not Found'],
        ],
      },
    ]);
    expect(statusIn('404 Not Found')).toBe(404);
    expect(statusIn('none')).toBeUndefined();
  });
});
