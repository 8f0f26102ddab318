// The books in memory for the hand-written contenders on the memory store (express-by-hand,
// node-by-hand, bun-by-hand): a Map of records scanned and sorted per list request. The query it
// answers is parsed by books.mjs, which the SQL stores of sql-stores.mjs share.

function compareStrings(a, b) {
  // Code point order (the contract's order for every store): shift the surrogate range above
  // U+E000-U+FFFF, which UTF-16 comparison would put it below.
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      const fx = x >= 0xd800 && x <= 0xdfff ? x + 0x2000 : x >= 0xe000 ? x - 0x800 : x;
      const fy = y >= 0xd800 && y <= 0xdfff ? y + 0x2000 : y >= 0xe000 ? y - 0x800 : y;
      return fx - fy;
    }
  }
  return a.length - b.length;
}

/** The books in memory: ids from 1, never reused. */
export class BookStore {
  records = new Map();
  lastId = 0;

  constructor(seed = []) {
    for (const book of seed) this.insert(book);
  }

  get(id) {
    return this.records.get(id);
  }

  insert({ name, author }) {
    const book = { id: ++this.lastId, name, author };
    this.records.set(book.id, book);
    return book;
  }

  update(book, changes) {
    return Object.assign(book, changes);
  }

  delete(id) {
    return this.records.delete(id);
  }

  /** The page of books matching every condition, in order, and how many match. */
  list({ where, order, page, perPage }) {
    const matching = [];
    for (const book of this.records.values()) {
      let keep = true;
      for (let i = 0; keep && i < where.length; i++) keep = where[i].values.includes(book[where[i].field]);
      if (keep) matching.push(book);
    }
    matching.sort((a, b) => {
      for (const { field, descending } of order) {
        const x = a[field];
        const y = b[field];
        const result = typeof x === 'string' ? compareStrings(x, y) : x - y;
        if (result !== 0) return descending ? -result : result;
      }
      return 0;
    });
    const offset = (page - 1) * perPage;
    return { books: matching.slice(offset, offset + perPage), total: matching.length };
  }
}
