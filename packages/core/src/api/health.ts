import type { NeutralResponse } from '../http/neutral.js';
import type { Readiness } from './readiness.js';

/** Options of `api.health('ready')`. */
export interface HealthOptions {
  /** How long the stores may take to answer before the probe says 503. Default 2000 ms. */
  timeoutMs?: number;
}

const HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' } as const;

function json(status: number, body: unknown, type = 'application/json; charset=utf-8'): NeutralResponse {
  return { status, headers: { ...HEADERS, 'Content-Type': type }, body: JSON.stringify(body) };
}

/** Each store prepared (tables created), then one cheap query on one of its collections. */
async function storesAnswer(stores: Iterable<Readiness>): Promise<void> {
  await Promise.all(
    [...stores].map(async (entry) => {
      await entry.ready();
      const schema = entry.schemas[0];
      if (!schema) return;
      const query = { where: [], order: [{ field: 'id', direction: 'asc' as const }], limit: 1, offset: 0 };
      await entry.store.collection(schema).list({ ...query, count: false });
    }),
  );
}

/**
 * The answer of a probe: `live` is 200 while the process runs; `ready` is 200 when every store
 * answers a cheap query within `timeoutMs`, else a 503 problem+json that tells nothing of why
 * (the cause stays on the server).
 */
export async function healthAnswer(
  probe: 'live' | 'ready',
  stores: Iterable<Readiness>,
  { timeoutMs = 2000 }: HealthOptions = {},
): Promise<NeutralResponse> {
  if (probe === 'live') return json(200, { status: 'ok' });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const check = storesAnswer(stores);
    check.catch(() => {}); // when the timeout wins, the late failure is not unhandled
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
    });
    await Promise.race([check, timeout]);
    return json(200, { status: 'ready' });
  } catch {
    const problem = {
      type: 'about:blank',
      title: 'Service Unavailable',
      status: 503,
      code: 'service_unavailable',
      detail: 'The store does not answer',
    };
    const response = json(503, problem, 'application/problem+json');
    response.headers['Retry-After'] = '1';
    return response;
  } finally {
    clearTimeout(timer);
  }
}
