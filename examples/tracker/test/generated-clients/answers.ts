// What generated-clients/calls.ts answers the test: the types both share (calls.ts itself
// typechecks only next to the generated clients).

/** What one call got: the operation it was (`GET /issues/stats`), its status, its body, and `X-Total-Count`. */
export interface Reply {
  operation: string;
  status: number;
  body: unknown;
  total: string | null;
}

/** The records a client created in its organization, by what the test calls them. */
export interface Created {
  project: number;
  bug: number;
  ui: number;
  /** "Login crash on submit": in progress, 2.50, labels ui and bug (sent `[ui, bug, ui]`). */
  crash: number;
  /** "Crash report export": open, 1.25, label ui. */
  exported: number;
  /** "Login page typo": done, 3.00, label bug; archived, then restored. */
  typo: number;
}

/** Every call of one client, by name, and the records it created. */
export interface ClientRun {
  created: Created;
  replies: Record<string, Reply>;
  /** Values read through the generated types (`labelIds`, `status`, a statistics entry's `count` and `status`). */
  typed: Record<string, unknown>;
  /** The ids of the two issues created in one request ("Bulk one", "Bulk two"), then changed and archived together. */
  bulk: number[];
}

/** Where a client talks, as whom. */
export interface Caller {
  baseUrl: string;
  token: string;
}
