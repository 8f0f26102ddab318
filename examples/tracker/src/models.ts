import type { ServerSet } from '@resourcery/core';
import {
  IsDecimal,
  IsEmail,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

// The records of CONTRACT part 4's issue tracker. Every one carries `orgId`, which the API's
// tenancy sets from the token (never from the body); `createdAt` and `updatedAt` come from the
// resources' `timestamps` option.

/** The roles of the tracker's tokens (and of its user records), weakest first. */
export const ROLES = ['viewer', 'member', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The states of an issue. */
export const STATUSES = ['open', 'in_progress', 'done'] as const;
export type Status = (typeof STATUSES)[number];

/** A person of an organization; `email` is shown to admins only, unique within the organization. */
export class User {
  @IsInt()
  orgId!: ServerSet<number>;

  @IsString()
  @Length(1, 100)
  name!: string;

  @IsEmail()
  @MaxLength(254)
  email!: string;

  @IsIn(ROLES)
  role!: Role;

  createdAt!: ServerSet<string>;
  updatedAt!: ServerSet<string>;
}

/** A project of an organization; its name is unique within the organization. */
export class Project {
  @IsInt()
  orgId!: ServerSet<number>;

  @IsString()
  @Length(1, 100)
  name!: string;

  createdAt!: ServerSet<string>;
  updatedAt!: ServerSet<string>;
}

/** A label of an organization (`#rrggbb`); its name is unique within the organization. */
export class Label {
  @IsInt()
  orgId!: ServerSet<number>;

  @IsString()
  @Length(1, 50)
  name!: string;

  @Matches(/^#[0-9a-f]{6}$/, { message: 'must be a color #rrggbb (lowercase hexadecimal digits)' })
  color!: string;
}

/** An issue of a project; destroying it archives it (`archivedAt`, set by the server). */
export class Issue {
  @IsInt()
  orgId!: ServerSet<number>;

  @IsInt()
  projectId!: number;

  @IsString()
  @Length(1, 200)
  title!: string;

  @IsOptional()
  @IsString()
  @MaxLength(20_000)
  body?: string | null;

  @IsIn(STATUSES)
  status!: Status;

  @IsInt()
  @Min(1)
  @Max(4)
  priority!: number;

  @IsOptional()
  @IsInt()
  assigneeId?: number | null;

  /** A calendar day, `YYYY-MM-DD` (the resource declares the `date` type). */
  @IsOptional()
  @IsString()
  dueDate?: string | null;

  @IsOptional()
  @IsDecimal({ decimal_digits: '0,2' })
  estimate?: string | null;

  /** Its labels' ids, ascending (the `labels` relation: many-to-many, kept by the library in `issue_labels`). */
  labelIds?: number[];

  @IsOptional()
  @IsISO8601()
  archivedAt?: ServerSet<string | null>;

  createdAt!: ServerSet<string>;
  updatedAt!: ServerSet<string>;
}

/** A comment on an issue, by the token's user (`authorId`, set by the server); uuid ids. */
export class Comment {
  @IsUUID()
  id!: ServerSet<string>;

  @IsInt()
  orgId!: ServerSet<number>;

  @IsInt()
  issueId!: number;

  @IsInt()
  authorId!: ServerSet<number>;

  @IsString()
  @Length(1, 5000)
  body!: string;

  createdAt!: ServerSet<string>;
  updatedAt!: ServerSet<string>;
}
