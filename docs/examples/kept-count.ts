// A kept count (docs/stores.md, "Kept counts"): each organization's count of its tickets that are
// not archived is kept by the database as tickets are written, so that the count of its whole
// list (`X-Total-Count` of `GET /tickets`) reads a few rows at any size, instead of counting them.
import 'reflect-metadata';
import { createApi, defineResource, type Principal } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { IsInt, IsISO8601, IsOptional, IsString, Length } from 'class-validator';

export class Ticket {
  @IsInt() orgId!: number;
  @IsString() @Length(1, 200) title!: string;
  @IsOptional() @IsISO8601() archivedAt?: string | null;
}

export const tickets = defineResource({ name: 'ticket', model: Ticket, archive: 'archivedAt', keepCount: true });

/** The API, the caller's organization taken from an `x-org` header (a stand-in for real authentication). */
export function ticketsApi(store: Store) {
  return createApi({
    resources: [tickets],
    store,
    authenticate: (request) => {
      const org = Number(request.headers['x-org']);
      return org > 0 ? ({ sub: 1, org } as Principal) : undefined;
    },
    tenancy: { field: 'orgId', of: (principal) => (principal as Principal & { org: number }).org },
  });
}
