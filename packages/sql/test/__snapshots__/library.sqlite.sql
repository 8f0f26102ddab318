CREATE TABLE IF NOT EXISTS "lib_authors" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" TEXT NOT NULL,
  "country" TEXT,
  "born" TEXT
);

CREATE INDEX IF NOT EXISTS "lib_authors_name_idx" ON "lib_authors" ("name", "id");

CREATE INDEX IF NOT EXISTS "lib_authors_country_idx" ON "lib_authors" ("country", "id");

CREATE INDEX IF NOT EXISTS "lib_authors_born_idx" ON "lib_authors" ("born", "id");

CREATE TABLE IF NOT EXISTS "lib_books" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "title" TEXT NOT NULL,
  "authorId" INTEGER NOT NULL,
  "isbn" TEXT,
  "price" INTEGER,
  "publishedAt" TEXT,
  "meta" TEXT,
  "format" TEXT DEFAULT 'paperback',
  "copies" INTEGER NOT NULL DEFAULT 0,
  "createdAt" TEXT NOT NULL,
  CONSTRAINT "lib_books_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "lib_authors" ("id") ON DELETE RESTRICT
);

CREATE UNIQUE INDEX IF NOT EXISTS "lib_books_isbn_key" ON "lib_books" ("isbn");

CREATE UNIQUE INDEX IF NOT EXISTS "lib_books_authorId_title_key" ON "lib_books" ("authorId", "title");

CREATE INDEX IF NOT EXISTS "lib_books_title_idx" ON "lib_books" ("title", "id");

CREATE INDEX IF NOT EXISTS "lib_books_authorId_idx" ON "lib_books" ("authorId", "id");

CREATE INDEX IF NOT EXISTS "lib_books_isbn_idx" ON "lib_books" ("isbn", "id");

CREATE INDEX IF NOT EXISTS "lib_books_price_idx" ON "lib_books" ("price", "id");

CREATE INDEX IF NOT EXISTS "lib_books_publishedAt_idx" ON "lib_books" ("publishedAt", "id");

CREATE INDEX IF NOT EXISTS "lib_books_createdAt_idx" ON "lib_books" ("createdAt", "id");

CREATE TABLE IF NOT EXISTS "lib_reviews" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "bookId" INTEGER NOT NULL,
  "rating" INTEGER NOT NULL,
  "body" TEXT,
  CONSTRAINT "lib_reviews_bookId_fkey" FOREIGN KEY ("bookId") REFERENCES "lib_books" ("id") ON DELETE CASCADE
);

CREATE INDEX IF NOT EXISTS "lib_reviews_bookId_idx" ON "lib_reviews" ("bookId", "id");

CREATE INDEX IF NOT EXISTS "lib_reviews_rating_idx" ON "lib_reviews" ("rating", "id");

CREATE TABLE IF NOT EXISTS "lib_awards" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "name" TEXT NOT NULL,
  "bookId" INTEGER,
  "reviewId" TEXT,
  CONSTRAINT "lib_awards_bookId_fkey" FOREIGN KEY ("bookId") REFERENCES "lib_books" ("id") ON DELETE SET NULL,
  CONSTRAINT "lib_awards_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "lib_reviews" ("id") ON DELETE RESTRICT
);

CREATE INDEX IF NOT EXISTS "lib_awards_bookId_idx" ON "lib_awards" ("bookId", "id");

CREATE INDEX IF NOT EXISTS "lib_awards_reviewId_idx" ON "lib_awards" ("reviewId", "id");

CREATE TABLE IF NOT EXISTS "lib_votes" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT,
  "reviewId" TEXT NOT NULL,
  "up" INTEGER NOT NULL CHECK ("up" IN (0, 1)),
  CONSTRAINT "lib_votes_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "lib_reviews" ("id") ON DELETE CASCADE
);

CREATE INDEX IF NOT EXISTS "lib_votes_reviewId_idx" ON "lib_votes" ("reviewId", "id");
