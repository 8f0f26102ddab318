import type { Condition, ListQuery } from '@resourcery/core/store';

/**
 * The list of the issues of `org` (under tenancy by `orgId`) that are not archived (or, with
 * `archived`, that are) and have the label named `name` (or one of several) of the same
 * organization, through the join table `issue_labels`, as the API asks it of its store for
 * `filter[labels.name]=`; with the `more` conditions; 10 a page by id, counted.
 *
 * @example
 * ```ts
 * const { total } = await issues.list(labelled(1, 'bug'));
 * ```
 */
export function labelled(
  org: number,
  name: string | string[],
  options: { archived?: boolean; more?: Condition[] } = {},
): ListQuery {
  const byName: Condition = {
    field: 'labelId',
    values: [],
    related: {
      collection: 'labels',
      where: [
        { field: 'name', values: [name].flat() },
        { field: 'orgId', values: [org] },
      ],
    },
  };
  const where: Condition[] = [
    { field: 'orgId', values: [org] },
    { field: 'archivedAt', values: [!options.archived], op: 'null' },
    { field: 'id', values: [], related: { collection: 'issue_labels', key: 'issueId', where: [byName] } },
    ...(options.more ?? []),
  ];
  return { where, order: [{ field: 'id', direction: 'asc' }], limit: 10, offset: 0, count: true };
}
