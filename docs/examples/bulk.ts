// Bulk writes and upsert (docs/bulk.md): a task list that takes up to 50 tasks per request, and
// a tag that is upserted by its unique name.
import { defineResource } from '@resourcery/core';
import { IsBoolean, IsOptional, IsString, Length, Matches } from 'class-validator';

export class Task {
  @IsString() @Length(1, 200) title!: string;
  @IsOptional() @IsBoolean() done?: boolean;
}

export const tasks = defineResource({
  name: 'task',
  model: Task,
  timestamps: true,
  defaults: { done: false },
  // POST /tasks {"tasks": [...]}, PATCH /tasks {"tasks": [{"id": 1, ...}]}, DELETE /tasks?filter[id][]=1
  bulk: { max: 50 },
});

export class Tag {
  @IsString() @Length(1, 50) name!: string;
  @IsString() @Matches(/^#[0-9a-f]{6}$/) color!: string;
}

// POST /tags?upsert=name {"tag": {"name": "bug", "color": "#d73a4a"}}: that tag updated, or made;
// with a list, {"tags": [...]}, each of them.
export const tags = defineResource({ name: 'tag', model: Tag, unique: ['name'], upsert: ['name'], bulk: true });
