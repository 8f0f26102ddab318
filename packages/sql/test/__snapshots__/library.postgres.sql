CREATE TABLE IF NOT EXISTS "lib_authors" (
  "id" BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "country" VARCHAR(100) COLLATE "C",
  "born" DATE
);

CREATE INDEX IF NOT EXISTS "lib_authors_name_idx" ON "lib_authors" ("name", "id");

CREATE INDEX IF NOT EXISTS "lib_authors_country_idx" ON "lib_authors" ("country" NULLS FIRST, "id");

CREATE INDEX IF NOT EXISTS "lib_authors_born_idx" ON "lib_authors" ("born" NULLS FIRST, "id");

CREATE TABLE IF NOT EXISTS "lib_books" (
  "id" BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  "title" VARCHAR(500) COLLATE "C" NOT NULL,
  "authorId" BIGINT NOT NULL,
  "isbn" VARCHAR(20) COLLATE "C",
  "price" NUMERIC(15, 2),
  "publishedAt" TIMESTAMPTZ(3),
  "meta" JSON,
  "format" VARCHAR(20) COLLATE "C" DEFAULT 'paperback',
  "copies" BIGINT NOT NULL DEFAULT 0,
  "createdAt" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "lib_books_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "lib_authors" ("id") ON DELETE RESTRICT
);

CREATE UNIQUE INDEX IF NOT EXISTS "lib_books_isbn_key" ON "lib_books" ("isbn");

CREATE UNIQUE INDEX IF NOT EXISTS "lib_books_authorId_title_key" ON "lib_books" ("authorId", "title");

CREATE INDEX IF NOT EXISTS "lib_books_title_idx" ON "lib_books" ("title", "id");

CREATE INDEX IF NOT EXISTS "lib_books_authorId_idx" ON "lib_books" ("authorId", "id");

CREATE INDEX IF NOT EXISTS "lib_books_isbn_idx" ON "lib_books" ("isbn" NULLS FIRST, "id");

CREATE INDEX IF NOT EXISTS "lib_books_price_idx" ON "lib_books" ("price" NULLS FIRST, "id");

CREATE INDEX IF NOT EXISTS "lib_books_publishedAt_idx" ON "lib_books" ("publishedAt" NULLS FIRST, "id");

CREATE INDEX IF NOT EXISTS "lib_books_createdAt_idx" ON "lib_books" ("createdAt", "id");

CREATE TABLE IF NOT EXISTS "lib_reviews" (
  "id" UUID PRIMARY KEY,
  "bookId" BIGINT NOT NULL,
  "rating" BIGINT NOT NULL,
  "body" TEXT COLLATE "C",
  CONSTRAINT "lib_reviews_bookId_fkey" FOREIGN KEY ("bookId") REFERENCES "lib_books" ("id") ON DELETE CASCADE
);

CREATE INDEX IF NOT EXISTS "lib_reviews_bookId_idx" ON "lib_reviews" ("bookId", "id");

CREATE INDEX IF NOT EXISTS "lib_reviews_rating_idx" ON "lib_reviews" ("rating", "id");

CREATE TABLE IF NOT EXISTS "lib_awards" (
  "id" BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "bookId" BIGINT,
  "reviewId" UUID,
  CONSTRAINT "lib_awards_bookId_fkey" FOREIGN KEY ("bookId") REFERENCES "lib_books" ("id") ON DELETE SET NULL,
  CONSTRAINT "lib_awards_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "lib_reviews" ("id") ON DELETE RESTRICT
);

CREATE INDEX IF NOT EXISTS "lib_awards_bookId_idx" ON "lib_awards" ("bookId" NULLS FIRST, "id");

CREATE INDEX IF NOT EXISTS "lib_awards_reviewId_idx" ON "lib_awards" ("reviewId" NULLS FIRST, "id");

CREATE TABLE IF NOT EXISTS "lib_votes" (
  "id" BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  "reviewId" UUID NOT NULL,
  "up" BOOLEAN NOT NULL,
  CONSTRAINT "lib_votes_reviewId_fkey" FOREIGN KEY ("reviewId") REFERENCES "lib_reviews" ("id") ON DELETE CASCADE
);

CREATE INDEX IF NOT EXISTS "lib_votes_reviewId_idx" ON "lib_votes" ("reviewId", "id");
