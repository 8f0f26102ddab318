// Archive instead of destroy, with a unique name: DELETE archives a tag, PATCH ?archived=true
// with {"archivedAt": null} restores it, and an archived tag keeps its name taken.
import { defineResource } from '@resourcery/core';
import { IsISO8601, IsOptional, IsString, Length } from 'class-validator';

export class Tag {
  @IsString() @Length(1, 50) name!: string;
  @IsOptional() @IsISO8601() archivedAt?: string | null; // set by DELETE, cleared by a restore
}

export const tags = defineResource({ name: 'tag', model: Tag, unique: ['name'], archive: 'archivedAt' });
