import { defineResource, type Resource } from '@resourcery/core';
import { IsObject, IsOptional, IsString, Length } from 'class-validator';

/**
 * A note: a required `title` (1 to 200 characters) and `data`, a JSON object or null (a `json`
 * attribute, stored as sent). The library suite's json cases write and read it.
 *
 * @example
 * ```ts
 * const notes = defineResource({ name: 'note', model: Note });
 * ```
 */
export class Note {
  @IsString()
  @Length(1, 200)
  title!: string;

  @IsOptional()
  @IsObject()
  data?: Record<string, unknown> | null;
}

/**
 * The `note` resource (served at `notes`) that {@link libraryConformanceSuite} expects beside the
 * library, for the attribute type the library does not use: `json`.
 *
 * @example
 * ```ts
 * app.use('/api', resourcery({ resources: [...libraryResources, noteResource()], store }));
 * ```
 */
export function noteResource(): Resource<Note> {
  return defineResource<Note>({ name: 'note', model: Note });
}
