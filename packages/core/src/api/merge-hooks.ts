import type { ActionName } from '../contract/actions.js';
import type { HooksByAction } from '../resource/compile.js';

/** The API's hooks and a resource's, merged in the order they run. */
export function mergeHooks(api: HooksByAction, own: HooksByAction): HooksByAction {
  const merged = { before: {}, after: {}, around: {} } as Record<
    'before' | 'after' | 'around',
    Record<ActionName, never[]>
  >;
  for (const action of Object.keys(own.before) as ActionName[]) {
    merged.before[action] = [...api.before[action], ...own.before[action]] as never[];
    merged.around[action] = [...api.around[action], ...own.around[action]] as never[];
    merged.after[action] = [...own.after[action], ...api.after[action]] as never[];
  }
  return { ...(merged as unknown as Omit<HooksByAction, 'error'>), error: [...own.error, ...api.error] };
}
