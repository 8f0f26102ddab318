// The OpenAPI document written to a file, for a code generator or a gateway: `npx tsx write-openapi.ts`.
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '@resourcery/core';
import { books } from './book.js';

export function writeDocument(path = 'openapi.json'): void {
  const document = openApiDocument([books], { title: 'Books API', version: '1.4.0', basePath: '/api' });
  writeFileSync(path, JSON.stringify(document, null, 2));
}
