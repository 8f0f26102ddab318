// migrations/20240601120000_add_isbn.ts, written by hand after `isbn` joined the Book model: its
// column and its index, as `npx resourcery-sql sql <dialect>` prints them, for each database.
import { sqlMigration } from '@resourcery/sql';

export default sqlMigration({
  sqlite: ['ALTER TABLE "books" ADD COLUMN "isbn" TEXT', 'CREATE INDEX "books_isbn_idx" ON "books" ("isbn", "id")'],
  postgres: [
    'ALTER TABLE "books" ADD COLUMN "isbn" VARCHAR(17) COLLATE "C"',
    'CREATE INDEX "books_isbn_idx" ON "books" ("isbn" NULLS FIRST, "id")',
  ],
  mysql: [
    'ALTER TABLE `books` ADD COLUMN `isbn` VARCHAR(17) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_bin',
    'CREATE INDEX `books_isbn_idx` ON `books` (`isbn`, `id`)',
  ],
  mariadb: [
    'ALTER TABLE `books` ADD COLUMN `isbn` VARCHAR(17) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin',
    'CREATE INDEX `books_isbn_idx` ON `books` (`isbn`, `id`)',
  ],
});
