// Issues and labels, many to many: each issue holds its labels' ids in `labelIds`; the library
// keeps the links in a join table of its own (`issue_labels`) and writes them with the issue.
import { createApi, defineResource, manyToMany, memoryStore } from '@resourcery/core';
import { type Store } from '@resourcery/core/store';
import { IsString, Length, Matches } from 'class-validator';

export class Label {
  @IsString() @Length(1, 50) name!: string;
  @Matches(/^#[0-9a-f]{6}$/) color!: string;
}

export class Issue {
  @IsString() @Length(1, 200) title!: string;
  /** Not decorated: the ids of the `labels` relation, not a column of the issues table. */
  labelIds?: number[];
}

export const labels = defineResource({ name: 'label', model: Label });

export const issues = defineResource({
  name: 'issue',
  model: Issue,
  relations: {
    // `include=labels`, `filter[labels.name]=bug`, and `labelIds` on every issue (at most 50).
    labels: manyToMany(Label, { ids: 'labelIds' }),
  },
});

/** The API of both; the store gets the join table `issue_labels` with the other two. */
export function issuesApi(store: Store = memoryStore()) {
  return createApi({ resources: [labels, issues], store });
}
