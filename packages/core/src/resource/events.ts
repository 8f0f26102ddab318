import { HttpError } from '../errors/http-error.js';
import { EventStream } from '../http/event-stream.js';
import type { NeutralRequest } from '../http/neutral.js';
import type { Change, ChangeKind } from '../store/changes.js';
import type { Collection, Condition, Store, StoredRecord } from '../store/store.js';
import type { Context } from './context.js';
import type { LiveHub, LiveSubscriber } from './live-hub.js';
import { compileHolds, type Holds } from './record-holds.js';
import { renderRecord } from './render.js';

/** What the events action needs of the API serving it: its hubs, limits and open streams. */
export interface LiveEvents {
  /** The hub reading the change log of `store`. */
  hubOf(store: Store): LiveHub;
  /** A collection of `store` by name (a resource's, or a join collection), for relation conditions. */
  collectionNamed(store: Store, name: string): Collection | undefined;
  /** When the caller's credentials expire (epoch milliseconds), if they do. */
  expiresAt(ctx: Context, request: NeutralRequest): number | undefined;
  readonly maxStreams: number;
  readonly heartbeatMs: number;
  readonly bufferLimit: number;
  /** The streams open now, each ended when the API closes. */
  readonly open: Set<EventStream>;
  /** Logs what ended a stream unexpectedly (a render step that threw, a store that failed a look-up). */
  report(error: unknown, ctx: Context): void;
}

const ACCEPTS = /(?:^|,)\s*(?:text\/event-stream|text\/\*|\*\/\*)\s*(?:;|,|$)/i;

/**
 * `GET /<plural>/events` (CONTRACT part 4, "Live events"): a `text/event-stream` of the committed
 * changes of the records this caller may see, narrowed by the index's filters (`filter[...]`,
 * `q`, `archived`), each rendered as a show renders it for them. `Last-Event-ID` replays what
 * the log still keeps after it, else starts with `event: reset`. The stream ends when the
 * caller's credentials expire, when the client is too slow to read it, or when the API closes.
 */
export async function eventsStep(ctx: Context, request: NeutralRequest): Promise<void> {
  if (!ACCEPTS.test(request.headers.accept ?? '*/*')) {
    throw new HttpError(406, 'not_acceptable', {
      detail: 'Live events are sent as text/event-stream only: send Accept: text/event-stream',
    });
  }
  const query = ctx.query; // a malformed filter is a 400 before the stream opens
  const live = ctx.mounted?.api.live;
  const self = ctx.mounted?.self;
  if (!live || !self) throw new TypeError(`${ctx.resource.name}: live events need an API (createApi)`);
  Object.assign(ctx.headers, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    // No proxy may cache, transform (compress) or buffer the stream.
    'Cache-Control': 'no-store, no-transform',
    'X-Accel-Buffering': 'no',
  });
  if (request.method === 'HEAD') return;
  if (live.open.size >= live.maxStreams) {
    throw new HttpError(503, 'service_unavailable', {
      detail: `This server holds its most event streams (${live.maxStreams}): reconnect later`,
      headers: { 'Retry-After': '5' },
    });
  }
  const hub = live.hubOf(self.store);
  const epoch = await hub.log.epoch();
  const expires = live.expiresAt(ctx, request);
  let stop: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stream: EventStream = new EventStream({
    bufferLimit: live.bufferLimit,
    heartbeatMs: live.heartbeatMs,
    onEnd: () => {
      live.open.delete(stream);
      clearTimeout(timer);
      stop?.();
    },
  });
  live.open.add(stream);
  if (expires !== undefined) {
    timer = setTimeout(() => stream.end(), Math.max(0, expires - Date.now()));
    (timer as { unref?: () => void }).unref?.();
  }
  const lookup = (name: string) => live.collectionNamed(self.store, name);
  const failed = (error: unknown) => {
    live.report(error, ctx);
    stream.end(false); // the client reconnects with Last-Event-ID
  };
  const subscriber = new EventSubscriber(ctx, stream, epoch, [...query.where, ...ctx.where], ctx.where, lookup, failed);
  stream.send('retry: 1000\n\n');
  try {
    stop = await hub.subscribe(subscriber, positionOf(request.headers['last-event-id'], epoch));
  } catch (error) {
    stream.end(false); // the log cannot be read (the database is down): a 503, and no stream left open
    throw error;
  }
  if (stream.ended) stop();
  ctx.result = stream;
}

/**
 * `next` of a test's answer: at once when it is known, after it when a look-up is under way, so that
 * the common case (no relation condition) sends its event synchronously.
 */
function step(answer: boolean | Promise<boolean>, next: (holds: boolean) => Promise<void> | undefined) {
  return typeof answer === 'boolean' ? next(answer) : answer.then(next);
}

/** Each change's record rendered once per set of fields shown (see `EventSubscriber.render`). */
const RENDERED = new WeakMap<StoredRecord, Map<string, string>>();

/** The position a `Last-Event-ID` names: `undefined` without one, past every position when it is another log's. */
function positionOf(header: string | undefined, epoch: string): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const match = /^(.+)-(\d{1,15})$/.exec(header.trim());
  return match && match[1] === epoch ? Number(match[2]) : Number.POSITIVE_INFINITY;
}

/**
 * One stream's view of the changes: whether each change concerns this caller (the filters and
 * their access before or after it), and the event it makes, rendered for them.
 */
class EventSubscriber implements LiveSubscriber {
  readonly collection: string;
  readonly partition: { readonly field: string; readonly value: unknown } | undefined;
  position = 0;
  private tail: Promise<void> | undefined;
  /** Whether a record meets the caller's filters and access (what their index would list). */
  private readonly filtered: Holds;
  /** Whether the caller may see a record at all (their access, the archive, the scope step). */
  private readonly visible: Holds;
  /** The fields the caller is shown, when the resource renders by default: the key of its renders. */
  private readonly view: string | undefined;

  constructor(
    private readonly ctx: Context,
    private readonly stream: EventStream,
    private readonly epoch: string,
    filtered: readonly Condition[],
    visible: readonly Condition[],
    lookup: (name: string) => Collection | undefined,
    private readonly failed: (error: unknown) => void,
  ) {
    const schema = ctx.mounted?.self.schema ?? ctx.compiled.schema;
    this.collection = schema.name;
    const decimals = new Set(schema.attributes.filter((a) => a.type === 'decimal').map((a) => a.name));
    this.filtered = compileHolds(filtered, decimals, lookup);
    this.view = ctx.compiled.steps.rendered ? undefined : ctx.view.shown.join(',');
    // A caller who sees one tenant's records is told only of the changes of that tenant's.
    const tenant = visible.find(
      ({ field, values, op, related, search }) =>
        field === schema.tenant && values.length === 1 && !op && !related && !search,
    );
    this.partition = tenant ? { field: tenant.field, value: tenant.values[0] } : undefined;
    this.visible = compileHolds(visible, decimals, lookup);
  }

  take(change: Change): void {
    this.position = change.seq;
    if (this.stream.ended) return;
    // Events leave in commit order: one waiting for a look-up holds back those after it.
    const run = () => this.handle(change);
    let pending: Promise<void> | undefined;
    try {
      pending = this.tail ? this.tail.then(run) : run();
    } catch (error) {
      this.failed(error);
      return;
    }
    if (!pending) return;
    const tail: Promise<void> = pending.then(() => {
      if (this.tail === tail) this.tail = undefined;
    }, this.failed);
    this.tail = tail;
  }

  reset(position: number): void {
    this.position = position;
    this.stream.send(`id: ${this.epoch}-${position}\nevent: reset\ndata: {}\n\n`);
  }

  /** The event a change makes for this caller, if any: at once, or after a relation condition's look-up. */
  private handle(change: Change): Promise<void> | undefined {
    const { before, after } = change;
    return step(this.holds(after, this.filtered), (now) => {
      if (now) return this.send(change, change.kind === 'created' ? 'created' : 'updated', after);
      // Filters that matched before the change: sent, as `destroyed` if the caller may no longer see the record.
      return step(this.holds(before, this.filtered), (was) =>
        was
          ? step(this.holds(after, this.visible), (seen) =>
              this.send(change, seen ? 'updated' : 'destroyed', seen ? after : null),
            )
          : undefined,
      );
    });
  }

  private holds(record: StoredRecord | null, test: Holds): boolean | Promise<boolean> {
    return record !== null && test(record);
  }

  private send(change: Change, kind: ChangeKind, record: StoredRecord | null): undefined {
    const { name } = this.ctx.resource;
    const data = record ? this.render(record) : JSON.stringify({ [name]: { id: change.id } });
    this.stream.event(`${this.epoch}-${change.seq}`, kind, data);
    return undefined;
  }

  /**
   * The data of a record's event, rendered once per change for every subscriber who sees the
   * same fields, when the resource renders by default (its own render step may look at anything
   * of the context: it renders for each).
   */
  private render(record: StoredRecord): string {
    const { ctx } = this;
    const render = () => JSON.stringify({ [ctx.resource.name]: renderRecord(ctx, record as never) });
    if (this.view === undefined) return render();
    let views = RENDERED.get(record);
    if (!views) {
      views = new Map();
      RENDERED.set(record, views);
    }
    let data = views.get(this.view);
    if (data === undefined) {
      data = render();
      views.set(this.view, data);
    }
    return data;
  }
}
