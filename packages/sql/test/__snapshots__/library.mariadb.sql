CREATE TABLE IF NOT EXISTS `lib_authors` (
  `id` BIGINT NOT NULL AUTO_INCREMENT,
  `name` VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
  `country` VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
  `born` DATE,
  PRIMARY KEY (`id`),
  KEY `lib_authors_name_idx` (`name`, `id`),
  KEY `lib_authors_country_idx` (`country`, `id`),
  KEY `lib_authors_born_idx` (`born`, `id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;

CREATE TABLE IF NOT EXISTS `lib_books` (
  `id` BIGINT NOT NULL AUTO_INCREMENT,
  `title` VARCHAR(500) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
  `authorId` BIGINT NOT NULL,
  `isbn` VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
  `price` DECIMAL(15, 2),
  `publishedAt` DATETIME(3),
  `meta` LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin CHECK (json_valid(`meta`)),
  `format` VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin DEFAULT 'paperback',
  `copies` BIGINT NOT NULL DEFAULT 0,
  `createdAt` DATETIME(3) NOT NULL,
  CONSTRAINT `lib_books_authorId_fkey` FOREIGN KEY (`authorId`) REFERENCES `lib_authors` (`id`) ON DELETE RESTRICT,
  PRIMARY KEY (`id`),
  UNIQUE KEY `lib_books_isbn_key` (`isbn`),
  UNIQUE KEY `lib_books_authorId_title_key` (`authorId`, `title`),
  KEY `lib_books_title_idx` (`title`, `id`),
  KEY `lib_books_authorId_idx` (`authorId`, `id`),
  KEY `lib_books_isbn_idx` (`isbn`, `id`),
  KEY `lib_books_price_idx` (`price`, `id`),
  KEY `lib_books_publishedAt_idx` (`publishedAt`, `id`),
  KEY `lib_books_createdAt_idx` (`createdAt`, `id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;

CREATE TABLE IF NOT EXISTS `lib_reviews` (
  `id` CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `bookId` BIGINT NOT NULL,
  `rating` BIGINT NOT NULL,
  `body` MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
  CONSTRAINT `lib_reviews_bookId_fkey` FOREIGN KEY (`bookId`) REFERENCES `lib_books` (`id`) ON DELETE CASCADE,
  PRIMARY KEY (`id`),
  KEY `lib_reviews_bookId_idx` (`bookId`, `id`),
  KEY `lib_reviews_rating_idx` (`rating`, `id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;

CREATE TABLE IF NOT EXISTS `lib_awards` (
  `id` BIGINT NOT NULL AUTO_INCREMENT,
  `name` VARCHAR(200) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
  `bookId` BIGINT,
  `reviewId` CHAR(36) CHARACTER SET ascii COLLATE ascii_bin,
  CONSTRAINT `lib_awards_bookId_fkey` FOREIGN KEY (`bookId`) REFERENCES `lib_books` (`id`) ON DELETE SET NULL,
  CONSTRAINT `lib_awards_reviewId_fkey` FOREIGN KEY (`reviewId`) REFERENCES `lib_reviews` (`id`) ON DELETE RESTRICT,
  PRIMARY KEY (`id`),
  KEY `lib_awards_bookId_idx` (`bookId`, `id`),
  KEY `lib_awards_reviewId_idx` (`reviewId`, `id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;

CREATE TABLE IF NOT EXISTS `lib_votes` (
  `id` BIGINT NOT NULL AUTO_INCREMENT,
  `reviewId` CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  `up` BOOLEAN NOT NULL,
  CONSTRAINT `lib_votes_reviewId_fkey` FOREIGN KEY (`reviewId`) REFERENCES `lib_reviews` (`id`) ON DELETE CASCADE,
  PRIMARY KEY (`id`),
  KEY `lib_votes_reviewId_idx` (`reviewId`, `id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_nopad_bin;
