// The Vitest projects of the repository: one per package and example, the process-level tests
// of the example's server (e2e/), and the examples of the documentation (docs/). Vitest 4 reads
// them from `test.projects` (vitest.config.ts imports this list); it no longer reads this file
// by itself.
export const projects: string[] = ['packages/*', 'examples/*', 'e2e', 'docs'];
