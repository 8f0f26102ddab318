// The books every contender serves: the same list, in the same order, so that record `i` gets
// id `i + 1` everywhere. Deterministic (a seeded generator), so every process builds it alone.

const FIRST = ['Ursula', 'Octavia', 'Isaac', 'Frank', 'Ann', 'Iain', 'Ted', 'Becky', 'Liu', 'N. K.'];
const LAST = ['Le Guin', 'Butler', 'Asimov', 'Herbert', 'Leckie', 'Banks', 'Chiang', 'Chambers', 'Cixin', 'Jemisin'];
const ADJECTIVES = ['Left', 'Broken', 'Silent', 'Last', 'Hidden', 'Dark', 'Bright', 'Lost', 'Fifth', 'Long', 'Red'];
const NOUNS = ['Hand', 'Earth', 'Season', 'Foundation', 'Dune', 'Empire', 'Way', 'Sky', 'Garden', 'Mirror', 'Ship'];
const PLACES = ['Darkness', 'the Stars', 'Time', 'Ash', 'the Deep', 'Winter', 'Glass', 'Dust'];

/** The 100 authors (10 first names x 10 last names); each writes `books / 100` of the books. */
export const AUTHORS = LAST.flatMap((last) => FIRST.map((first) => `${first} ${last}`));

/** The author the "index filter+sort+page" scenario filters on (one in a hundred books). */
export const FILTER_AUTHOR = AUTHORS[42];

function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` books as `{ name, author }`; titles repeat now and then, so sorting by name relies on
 * the id tie-breaker as the contract says.
 */
export function makeBooks(count) {
  const random = generator(20240611);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const books = [];
  for (let i = 0; i < count; i++) {
    const title = `The ${pick(ADJECTIVES)} ${pick(NOUNS)}`;
    const name = random() < 0.5 ? `${title} of ${pick(PLACES)}` : `${title} ${1 + Math.floor(random() * 99)}`;
    books.push({ name, author: AUTHORS[i % AUTHORS.length] });
  }
  return books;
}
