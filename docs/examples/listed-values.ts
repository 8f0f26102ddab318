// Listed values: `@IsIn` and `@IsEnum` limit a field to a few values. The API answers 422 for
// another; the store refuses it too (a CHECK in SQL), whoever writes it.
import { defineResource } from '@resourcery/core';
import { IsEnum, IsIn, IsOptional, IsString, Length } from 'class-validator';

export const STATUSES = ['open', 'in_progress', 'done'] as const;
export type Status = (typeof STATUSES)[number];

export enum Size {
  Small = 1,
  Large = 3,
}

export class Task {
  @IsString() @Length(1, 200) title!: string;
  @IsIn(STATUSES) status!: Status; // CHECK ("status" IN ('open', 'in_progress', 'done'))
  @IsOptional() @IsEnum(Size) size?: Size | null; // CHECK ("size" IN (1, 3)); null passes
}

export const tasks = defineResource({ name: 'task', model: Task, defaults: { status: 'open' } });
