// The statistics of docs/statistics.md: a resource that declares what may be grouped, summed and
// compared, and a typed client asking for them.
import 'reflect-metadata';
import { resourceClient } from '@resourcery/client';
import { defineResource } from '@resourcery/core';
import { IsDecimal, IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export class Ticket {
  @IsString() @Length(1, 200) title!: string;
  @IsIn(['open', 'in_progress', 'done']) status!: 'open' | 'in_progress' | 'done';
  @IsInt() @Min(1) @Max(4) priority!: number;
  @IsOptional() @IsString() dueDate?: string | null;
  @IsOptional() @IsDecimal({ decimal_digits: '0,2' }) estimate?: string | null;
}

export const tickets = defineResource({
  name: 'ticket',
  model: Ticket,
  types: { dueDate: 'date' },
  // GET /tickets/stats?group=status,priority&sum=estimate&max=dueDate
  stats: {
    group: ['status', 'priority'],
    sum: ['estimate', 'priority'],
    min: ['estimate', 'dueDate'],
    max: ['estimate', 'dueDate'],
  },
});

/** The estimate still open per status, as a typed client reads it. */
export async function estimatesByStatus(baseUrl: string) {
  const client = resourceClient<typeof tickets>({ baseUrl, name: 'ticket' });
  const entries = await client.stats({ group: ['status'], sum: ['estimate'], max: ['dueDate'] });
  // Each entry is typed: { status: string | null; count: number; sum: { estimate: string | null }; max: {...} }
  return entries.map((entry) => `${entry.status}: ${entry.count} (${entry.sum.estimate ?? 'no estimate'})`);
}
