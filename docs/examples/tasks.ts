// The resources of the bulk examples (docs/client.md and docs/openapi.md, "Bulk writes and
// upserts"): tasks take up to 50 records in one request; tags are created or updated by name.
import { defineResource } from '@resourcery/core';
import { IsIn, IsString, Length, Matches } from 'class-validator';

export class Task {
  @IsString() @Length(1, 200) title!: string;
  @IsIn(['todo', 'done']) state!: 'todo' | 'done';
}

export class Tag {
  @IsString() @Length(1, 50) name!: string;
  @Matches(/^#[0-9a-f]{6}$/) color!: string;
}

export const tasks = defineResource({ name: 'task', model: Task, defaults: { state: 'todo' }, bulk: { max: 50 } });
export const tags = defineResource({ name: 'tag', model: Tag, unique: ['name'], upsert: ['name'] });
