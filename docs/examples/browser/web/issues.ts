// The browser app's calls to the issues of ../server/issues.ts. `import type` takes the types of
// the server's declaration and nothing of its code; tsconfig.json references the server's project,
// so TypeScript reads its declaration files, where the decorators are gone.
import { resourceClient } from '@resourcery/client';
import type { issues } from '../server/issues.js';

export const issueClient = (baseUrl = '/api') => resourceClient<typeof issues>({ baseUrl, name: 'issue' });

/** Files an issue: `status` and `priority` have defaults, `orgId` is set by the server. */
export async function reportCrash(projectId: number, client = issueClient()): Promise<string> {
  const created = await client.create({ projectId, title: 'Crash on start' });
  const issue = await client.show(created.id, { include: ['project'] });
  return `${issue.title}: ${issue.status}, priority ${issue.priority}, in ${issue.project?.name}`;
}
