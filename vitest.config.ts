import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.js';

// Each package and example is its own Vitest project (listed in vitest.workspace.ts).
export default defineConfig({
  test: { projects },
});
