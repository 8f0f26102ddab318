// What generated-clients/calls.ts answers the test: the types both share (calls.ts itself
// typechecks only next to the generated clients).

/** What a client got: the status, the body, and the headers that paginate. */
export interface Answer {
  status: number;
  body: unknown;
  total: string | null;
  link: string | null;
}

/** The records of the library the calls ask about, as the test created them. */
export interface Seeded {
  earthsea: number;
  dune: number;
}

/** Each kind of call, by name: what openapi-fetch answered and what Orval's client answered. */
export type Answers = Record<string, { openapiFetch: Answer; orval: Answer }>;
